import { MEDIA_POST_MAX_SIDE, MediaMessages } from '@perch/contract';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeStats } from '../../src/modules/media/media.image';
import { createMember, type Member } from '../factories';
import { blankPngBomb } from './bombs';
import { filePart, jpegWithGps } from './fixtures';
import { createMediaTestApp, errorsOf, upload, uploaded, type MediaTestApp } from './media-app';

const MB = 1024 * 1024;
const UPLOADS = 30;
const AT_ONCE = 6;

let t: MediaTestApp;
let member: Member;
beforeAll(async () => {
  t = await createMediaTestApp();
  member = await createMember(t.app);
});
afterAll(async () => {
  await t.close();
});

const send = (data: Buffer, name: string, type: string) =>
  upload(t.app, [filePart(data, name, type)], { token: member.token });

describe('decompression bombs', () => {
  it('refuses a 400-megapixel PNG of a megabyte without decoding it', async () => {
    const bomb = await blankPngBomb(20_000);
    expect(bomb.length).toBeLessThan(2 * MB);
    const before = decodeStats().taken;
    const response = await send(bomb, 'bomb.png', 'image/png');
    expect(response.statusCode).toBe(413);
    expect(errorsOf(response)).toEqual([MediaMessages.tooManyPixels]);
    expect(decodeStats().taken).toBe(before);
  });

  it(
    'decodes 30 uploads of a 36-megapixel one sent 6 at a time one after another, with no cache kept',
    { timeout: 180_000 },
    async () => {
      // 6000 × 6000 of one colour: 120 kB that decode to 108 MB, under the 40-megapixel limit.
      // What keeps memory level is checked here (one decode at a time, libvips's operation cache
      // empty); the memory itself is a figure, measured by measure-bomb-memory.ts (decision 0032).
      const bomb = await blankPngBomb(6000);
      for (let sent = 0; sent < UPLOADS; sent += AT_ONCE) {
        const batch = Array.from({ length: AT_ONCE }, () => send(bomb, 'bomb.png', 'image/png'));
        for (const response of await Promise.all(batch)) {
          expect(response.statusCode, response.body).toBe(201);
        }
      }
      expect(decodeStats()).toMatchObject({ running: 0, waiting: 0, most: 1 });
      expect(sharp.cache()).toMatchObject({ items: { current: 0 } });

      // And an ordinary photo goes through as ever.
      const photo = uploaded(await send(await jpegWithGps(2400, 1600), 'photo.jpg', 'image/jpeg'));
      expect([photo.width, photo.height]).toEqual([MEDIA_POST_MAX_SIDE, 1365]);
    },
  );
});
