/**
 * Draws the web app's install icons from the logo (public/favicon.svg) into public/icons/, and
 * public/favicon.ico: `npx tsx apps/web/scripts/icons.ts` after the logo changes; the files are
 * committed.
 *
 * The maskable icon puts the logo's square on its own background colour inside the 80 % safe
 * zone, so launchers that crop to a circle or squircle never cut the bird.
 */
import { mkdir, readFile, writeFile } from 'node:fs/promises';
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

/** An ICO file holding PNG images (every browser that asks for /favicon.ico reads these). */
function ico(images: { size: number; png: Buffer }[]): Buffer {
  const header = Buffer.alloc(6);
  header.writeUInt16LE(0, 0);
  header.writeUInt16LE(1, 2);
  header.writeUInt16LE(images.length, 4);
  let offset = 6 + 16 * images.length;
  const entries = images.map(({ size, png }) => {
    const entry = Buffer.alloc(16);
    entry.writeUInt8(size >= 256 ? 0 : size, 0);
    entry.writeUInt8(size >= 256 ? 0 : size, 1);
    entry.writeUInt16LE(1, 4); // colour planes
    entry.writeUInt16LE(32, 6); // bits per pixel
    entry.writeUInt32LE(png.length, 8);
    entry.writeUInt32LE(offset, 12);
    offset += png.length;
    return entry;
  });
  return Buffer.concat([header, ...entries, ...images.map(({ png }) => png)]);
}

// For browsers and crawlers that do not take the SVG favicon.
const favicons = await Promise.all(
  [16, 32, 48].map(async (size) => ({ size, png: await draw(size).png().toBuffer() })),
);
await writeFile(join(publicDir, 'favicon.ico'), ico(favicons));
