/**
 * After `vite build`: writes a brotli (.br) and a gzip (.gz) copy beside each text asset of dist/,
 * so the server sends them as they are to browsers that accept them (content negotiation in
 * apps/server/src/app/plugins/web.ts) and compresses nothing per request.
 */
import { readdir, readFile, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliCompress, constants, gzip } from 'node:zlib';
import { promisify } from 'node:util';

const dist = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../dist');
const TEXT = /\.(js|mjs|css|html|svg|json|webmanifest|txt|xml|map)$/;
// Below this, a compressed copy saves less than the headers it needs.
const MIN_BYTES = 1024;

const brotli = promisify(brotliCompress);
const gz = promisify(gzip);

async function* files(dir) {
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) yield* files(full);
    else if (TEXT.test(entry.name)) yield full;
  }
}

let before = 0;
let after = 0;
for await (const file of files(dist)) {
  if ((await stat(file)).size < MIN_BYTES) continue;
  const source = await readFile(file);
  const copies = [
    ['.br', await brotli(source, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } })],
    ['.gz', await gz(source, { level: 9 })],
  ];
  for (const [extension, bytes] of copies) {
    // A copy that saves little is left out; the server then sends the file itself.
    if (bytes.length < source.length * 0.9) await writeFile(file + extension, bytes);
  }
  before += source.length;
  after += copies[0][1].length;
}
console.log(
  `precompressed: ${(before / 1024).toFixed(0)} kB of text assets, ${(after / 1024).toFixed(0)} kB as brotli`,
);
