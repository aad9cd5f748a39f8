/**
 * Draws the web app's install icons from the logo (public/favicon.svg) into public/icons/:
 * `npx tsx apps/web/scripts/icons.ts` after the logo changes; the PNGs are committed.
 *
 * The maskable icon puts the logo's square on its own background colour inside the 80 % safe
 * zone, so launchers that crop to a circle or squircle never cut the bird.
 */
import { readFile, mkdir } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';

const publicDir = join(dirname(fileURLToPath(import.meta.url)), '..', 'public');
const MASKABLE_BACKGROUND = '#4338ca';

const logo = await readFile(join(publicDir, 'favicon.svg'));
const outDir = join(publicDir, 'icons');
await mkdir(outDir, { recursive: true });

const draw = (size: number) => sharp(logo, { density: (72 * size) / 48 }).resize(size, size);

for (const size of [192, 512]) {
  await draw(size)
    .png()
    .toFile(join(outDir, `icon-${size}.png`));
}
await draw(180)
  .flatten({ background: '#ffffff' })
  .png()
  .toFile(join(outDir, 'apple-touch-icon.png'));

const maskable = 512;
const inner = Math.round(maskable * 0.8);
await sharp({
  create: { width: maskable, height: maskable, channels: 4, background: MASKABLE_BACKGROUND },
})
  .composite([{ input: await draw(inner).png().toBuffer(), gravity: 'centre' }])
  .png()
  .toFile(join(outDir, 'maskable-512.png'));
