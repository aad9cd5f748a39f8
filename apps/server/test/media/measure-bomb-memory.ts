/**
 * Uploads one-colour PNGs (decompression bombs: kilobytes that decode to hundreds of megabytes)
 * again and again, and prints the process's RSS as it goes, then uploads an ordinary photo.
 *
 *   node --expose-gc --import tsx test/media/measure-bomb-memory.ts [side] [uploads] [parallel] [kind]
 *
 * Defaults: 6000 (36 megapixels, under the limit), 54 uploads, 6 at a time. 20000 (400
 * megapixels) measures bombs refused from their header. Kind `photo` sends a JPEG of noise,
 * side × ¾ side, instead: the cost of the same limits for ordinary photos. Run from apps/server.
 */
import { createMember } from '../factories';
import { blankPngBomb } from './bombs';
import { filePart, jpegWithGps } from './fixtures';
import { createMediaTestApp, upload } from './media-app';

const MB = 1024 * 1024;
const [side = 6000, uploads = 54, parallel = 6] = process.argv.slice(2, 5).map(Number);
const kind = process.argv[5] === 'photo' ? 'photo' : 'bomb';

const settle = async () => {
  globalThis.gc?.();
  await new Promise((resolve) => setTimeout(resolve, 50));
  globalThis.gc?.();
};
const rss = () => Math.round(process.memoryUsage().rss / MB);

const file =
  kind === 'photo'
    ? filePart(await jpegWithGps(side, Math.round((side * 3) / 4)), 'photo.jpg', 'image/jpeg')
    : filePart(await blankPngBomb(side), 'bomb.png', 'image/png');
const photo = await jpegWithGps(1600, 1200);
const t = await createMediaTestApp();
const member = await createMember(t.app);
await settle();
const start = rss();
let peak = start;
const sampler = setInterval(() => (peak = Math.max(peak, rss())), 5);
const statuses = new Map<number, number>();
const after: number[] = [];
const started = performance.now();
for (let sent = 0; sent < uploads; sent += parallel) {
  const batch = Array.from({ length: Math.min(parallel, uploads - sent) }, () =>
    upload(t.app, [file], { token: member.token }),
  );
  for (const response of await Promise.all(batch)) {
    statuses.set(response.statusCode, (statuses.get(response.statusCode) ?? 0) + 1);
  }
  after.push(rss());
}
const seconds = (performance.now() - started) / 1000;
const photoStatus = (await upload(t.app, [filePart(photo)], { token: member.token })).statusCode;
clearInterval(sampler);
await settle();
console.info(
  JSON.stringify({
    kind,
    side,
    bytes: 'data' in file ? file.data.length : 0,
    uploads,
    parallel,
    statuses: Object.fromEntries(statuses),
    seconds: Number(seconds.toFixed(1)),
    rssStartMb: start,
    rssPeakMb: peak,
    rssAfterBatchesMb: after,
    rssEndMb: rss(),
    photoStatus,
    gc: typeof globalThis.gc === 'function',
  }),
);
await t.close();
