import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import {
  MEDIA_AVATAR_SIDE,
  MEDIA_POST_MAX_SIDE,
  MEDIA_THUMBNAIL_SIDE,
  MediaMessages,
  mediaUploadResponseSchema,
  type MediaUploadResponse,
} from '@perch/contract';
import { decode as decodeBlurhash, isBlurhashValid } from 'blurhash';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMember, type Member } from '../factories';
import {
  animatedGif,
  filePart,
  filesUnder,
  hugeBlankPng,
  jpegHeaderOnly,
  jpegWithGps,
  multipart,
  noise,
  oversizedJpegLike,
  pdf,
  png,
  pngHeaderOnly,
  rotatedJpeg,
  sparseGif,
  svgWithScript,
  text,
  tiff,
  transparentPng,
  webp,
  webpHeaderOnly,
  type Part,
} from './fixtures';
import { createMediaTestApp, errorsOf, upload, uploaded, type MediaTestApp } from './media-app';

let t: MediaTestApp;
let member: Member;

beforeAll(async () => {
  t = await createMediaTestApp();
  member = await createMember(t.app);
});
afterAll(async () => {
  await t.close();
});

const fileOf = (url: string) => path.join(t.mediaDir, url.replace(/^\/media\//, ''));
const storedBytes = (url: string) => readFileSync(fileOf(url));

/** Sends parts as the member, or with the token given (null: none). */
async function send(parts: Part[], token: string | null = member.token) {
  return upload(t.app, parts, { token: token ?? undefined });
}

/** Sends parts that must be refused and checks that nothing was written. */
async function refused(parts: Part[], token: string | null = member.token) {
  const before = filesUnder(t.mediaDir);
  const rowsBefore = await t.app.db.selectFrom('media').select('id').execute();
  const response = await send(parts, token);
  expect(filesUnder(t.mediaDir)).toEqual(before);
  expect(await t.app.db.selectFrom('media').select('id').execute()).toHaveLength(rowsBefore.length);
  return response;
}

describe('POST /api/media', () => {
  it('stores a re-encoded copy under the hash of its bytes and answers where it is', async () => {
    const response = await send([filePart(await jpegWithGps(640, 480))]);
    expect(response.statusCode).toBe(201);
    const body = mediaUploadResponseSchema.parse(response.json());
    expect(body).toMatchObject({ width: 640, height: 480, mimeType: 'image/webp' });
    const match = /^\/media\/([0-9a-f]{2})\/([0-9a-f]{64})\.webp$/.exec(body.url);
    expect(match).not.toBeNull();
    const [, prefix, hash] = match as unknown as [string, string, string];
    expect(hash.startsWith(prefix)).toBe(true);
    const stored = storedBytes(body.url);
    expect(createHash('sha256').update(stored).digest('hex')).toBe(hash);
    expect(body.size).toBe(stored.length);
    expect(body.thumbnailURL).toBe(`/media/${prefix}/${hash}.thumb.webp`);

    const row = await t.app.db
      .selectFrom('media')
      .selectAll()
      .where('url', '=', body.url)
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({
      user_id: member.user._id,
      thumbnail_url: body.thumbnailURL,
      mime: 'image/webp',
      bytes: body.size,
      width: 640,
      height: 480,
    });
  });

  it('computes a blurhash that draws the picture’s colours, wide or tall, and keeps it', async () => {
    const solid = (width: number, height: number) =>
      sharp({
        create: { width, height, channels: 3, background: { r: 20, g: 40, b: 220 } },
      })
        .png()
        .toBuffer();
    const wide = mediaUploadResponseSchema.parse(
      (await send([filePart(await solid(300, 200))])).json(),
    );
    expect(isBlurhashValid(wide.blurhash).result).toBe(true);
    // The first character holds the components: (x - 1) + (y - 1) * 9, 4 × 3 for a wide image.
    expect(wide.blurhash[0]).toBe('L');
    const pixels = decodeBlurhash(wide.blurhash, 4, 4);
    const [r, g, b] = [pixels[0] ?? 0, pixels[1] ?? 0, pixels[2] ?? 0];
    expect(b).toBeGreaterThan(180);
    expect(r).toBeLessThan(60);
    expect(g).toBeLessThan(80);
    const row = await t.app.db
      .selectFrom('media')
      .select('blurhash')
      .where('url', '=', wide.url)
      .executeTakeFirstOrThrow();
    expect(row.blurhash).toBe(wide.blurhash);

    const tall = mediaUploadResponseSchema.parse(
      (await send([filePart(await solid(200, 300))])).json(),
    );
    // 3 × 4 components: (3 - 1) + (4 - 1) * 9 = 29, 'T' in blurhash's base 83.
    expect(tall.blurhash[0]).toBe('T');
  });

  it('removes EXIF, GPS included, and every other kind of metadata', async () => {
    const original = await jpegWithGps();
    const before = await sharp(original).metadata();
    expect(before.exif?.length).toBeGreaterThan(0);
    expect(original.includes(Buffer.from('Perch Test Camera'))).toBe(true);

    const body = uploaded(await send([filePart(original)]));
    for (const url of [body.url, body.thumbnailURL]) {
      const stored = storedBytes(url);
      const after = await sharp(stored).metadata();
      expect(after.format).toBe('webp');
      expect(after.exif).toBeUndefined();
      expect(after.xmp).toBeUndefined();
      expect(after.iptc).toBeUndefined();
      expect(after.icc).toBeUndefined();
      expect(after.orientation).toBeUndefined();
      expect(stored.includes(Buffer.from('EXIF'))).toBe(false);
      expect(stored.includes(Buffer.from('Perch Test Camera'))).toBe(false);
    }
  });

  it('turns a photo the way its EXIF orientation says', async () => {
    const original = await rotatedJpeg(600, 400);
    expect(await sharp(original).metadata()).toMatchObject({
      width: 600,
      height: 400,
      orientation: 6,
    });
    const body = uploaded(await send([filePart(original)]));
    expect(body).toMatchObject({ width: 400, height: 600 });
    expect(await sharp(storedBytes(body.url)).metadata()).toMatchObject({
      width: 400,
      height: 600,
    });
  });

  it('scales large post images down to 2048 px on the long side and never enlarges', async () => {
    const large = uploaded(await send([filePart(await noise(3000, 1200).jpeg().toBuffer())]));
    expect(large).toMatchObject({ width: MEDIA_POST_MAX_SIDE, height: 819 });
    const small = uploaded(await send([filePart(await png(90, 60), 'small.png', 'image/png')]));
    expect(small).toMatchObject({ width: 90, height: 60 });
    // The thumbnail of a small image is the image's own size.
    expect(await sharp(storedBytes(small.thumbnailURL)).metadata()).toMatchObject({
      width: 90,
      height: 60,
    });
  });

  it('keeps a thumbnail of at most 320 px on the long side', async () => {
    const body = uploaded(await send([filePart(await jpegWithGps(1000, 500, 11))]));
    const thumbnail = await sharp(storedBytes(body.thumbnailURL)).metadata();
    expect(thumbnail).toMatchObject({ format: 'webp', width: MEDIA_THUMBNAIL_SIDE, height: 160 });
  });

  it('crops avatars to a 400 × 400 square, whatever order the fields come in', async () => {
    const first = uploaded(
      await send([{ name: 'purpose', value: 'avatar' }, filePart(await jpegWithGps(900, 500, 21))]),
    );
    expect(first).toMatchObject({ width: MEDIA_AVATAR_SIDE, height: MEDIA_AVATAR_SIDE });
    const second = uploaded(
      await send([
        filePart(await png(120, 300, 22), 'me.png', 'image/png'),
        {
          name: 'purpose',
          value: 'avatar',
        },
      ]),
    );
    expect(second).toMatchObject({ width: MEDIA_AVATAR_SIDE, height: MEDIA_AVATAR_SIDE });
    expect(await sharp(storedBytes(second.url)).metadata()).toMatchObject({
      width: MEDIA_AVATAR_SIDE,
      height: MEDIA_AVATAR_SIDE,
    });
  });

  it('keeps animated GIFs animated, with their timing', async () => {
    const gif = await animatedGif(3);
    expect((await sharp(gif).metadata()).pages).toBe(3);
    const body = uploaded(await send([filePart(gif, 'party.gif', 'image/gif')]));
    expect(body).toMatchObject({ width: 120, height: 90, mimeType: 'image/webp' });
    const stored = await sharp(storedBytes(body.url)).metadata();
    expect(stored.format).toBe('webp');
    expect(stored.pages).toBe(3);
    expect(stored.delay).toEqual([100, 200, 300]);
    // The thumbnail is the first frame.
    expect((await sharp(storedBytes(body.thumbnailURL)).metadata()).pages ?? 1).toBe(1);
  });

  it('keeps animated avatars animated, each frame cropped', async () => {
    const body = uploaded(
      await send([
        filePart(await animatedGif(2, 200, 100), 'wave.gif', 'image/gif'),
        { name: 'purpose', value: 'avatar' },
      ]),
    );
    expect(body).toMatchObject({ width: 400, height: 400 });
    const stored = await sharp(storedBytes(body.url), { animated: true }).metadata();
    expect(stored).toMatchObject({ pages: 2, width: 400, pageHeight: 400 });
  });

  it('accepts WebP and keeps transparency', async () => {
    uploaded(await send([filePart(await webp(200, 100), 'pic.webp', 'image/webp')]));
    const body = uploaded(await send([filePart(await transparentPng(), 'a.png', 'image/png')]));
    expect((await sharp(storedBytes(body.url)).metadata()).hasAlpha).toBe(true);
  });

  it('decides by content, not by the name or the declared type', async () => {
    const body = uploaded(await send([filePart(await png(50, 40, 31), 'notes.txt', 'text/plain')]));
    expect(body).toMatchObject({ width: 50, height: 40 });
  });

  it('gives the same picture the same URL and stores it once', async () => {
    const picture = await jpegWithGps(300, 200, 41);
    const first = uploaded(await send([filePart(picture)]));
    const filesAfterFirst = filesUnder(t.mediaDir);
    const second = uploaded(await send([filePart(picture, 'again.jpg')]));
    expect(second).toEqual(first);
    expect(filesUnder(t.mediaDir)).toEqual(filesAfterFirst);

    // Another member uploading it gets the same URL and a record of their own.
    const other = await createMember(t.app);
    const third = uploaded(await upload(t.app, [filePart(picture)], { token: other.token }));
    expect(third.url).toBe(first.url);
    const owners = await t.app.db
      .selectFrom('media')
      .select('user_id')
      .where('url', '=', first.url)
      .orderBy('user_id')
      .execute();
    expect(owners.map((o) => o.user_id).sort()).toEqual([member.user._id, other.user._id].sort());
  });

  it('handles the same picture arriving twice at once', async () => {
    const picture = await png(260, 140, 51);
    const responses = await Promise.all(
      [0, 1, 2].map(() => send([filePart(picture, 'p.png', 'image/png')])),
    );
    const bodies = responses.map(uploaded);
    expect(new Set(bodies.map((b) => b.url)).size).toBe(1);
    const [first] = bodies as [MediaUploadResponse];
    expect(createHash('sha256').update(storedBytes(first.url)).digest('hex')).toBe(
      /([0-9a-f]{64})\.webp$/.exec(first.url)?.[1],
    );
  });

  it('serves uploads as images that browsers cannot take for anything else', async () => {
    const body = uploaded(await send([filePart(await jpegWithGps(64, 64, 61))]));
    for (const url of [body.url, body.thumbnailURL]) {
      const response = await t.app.inject({ method: 'GET', url });
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-type']).toBe('image/webp');
      expect(response.headers['x-content-type-options']).toBe('nosniff');
      expect(response.headers['cache-control']).toBe('public, max-age=31536000, immutable');
      expect(response.headers['content-security-policy']).toContain("default-src 'none'");
      // Feed readers, link previews and other sites' apps show a post's images.
      expect(response.headers['cross-origin-resource-policy']).toBe('cross-origin');
      expect(response.rawPayload.equals(storedBytes(url))).toBe(true);
    }
  });
});

describe('POST /api/media refusals', () => {
  it('answers 401 without a valid token', async () => {
    const picture = await jpegWithGps(64, 64, 71);
    const missing = await refused([filePart(picture)], null);
    expect(missing.statusCode).toBe(401);
    const bad = await refused([filePart(picture)], 'not-a-token');
    expect(bad.statusCode).toBe(401);
  });

  it.each([
    ['a text file named .png', () => filePart(text, 'cat.png', 'image/png')],
    ['an SVG with a script', () => filePart(svgWithScript, 'logo.svg', 'image/svg+xml')],
    ['an SVG named .png', () => filePart(svgWithScript, 'logo.png', 'image/png')],
    ['a PDF', () => filePart(pdf, 'scan.pdf', 'application/pdf')],
  ])('answers 415 for %s', async (_, part) => {
    const response = await refused([part()]);
    expect(response.statusCode).toBe(415);
    expect(errorsOf(response)).toEqual([MediaMessages.unsupportedType]);
  });

  it('answers 415 for image formats it does not take (TIFF)', async () => {
    const response = await refused([filePart(await tiff(), 'scan.tiff', 'image/tiff')]);
    expect(response.statusCode).toBe(415);
    expect(errorsOf(response)).toEqual([MediaMessages.unsupportedType]);
  });

  it('answers 413 for more than 40 megapixels, from the header alone', async () => {
    const huge = await hugeBlankPng(7000);
    expect(huge.length).toBeLessThan(1024 * 1024);
    const response = await refused([filePart(huge, 'huge.png', 'image/png')]);
    expect(response.statusCode).toBe(413);
    expect(errorsOf(response)).toEqual([MediaMessages.tooManyPixels]);
  });

  it('decides the pixel limit before decoding anything', async () => {
    // Only the header is sound: decoding it would fail with 400, so 413 shows it was not decoded.
    const response = await refused([filePart(pngHeaderOnly(7000, 7000), 'x.png', 'image/png')]);
    expect(response.statusCode).toBe(413);
    expect(errorsOf(response)).toEqual([MediaMessages.tooManyPixels]);
  });

  it('answers 413 for headers past what any decoder reads, in every format', async () => {
    const bombs = [
      filePart(pngHeaderOnly(60_000, 60_000), 'bomb.png', 'image/png'),
      filePart(jpegHeaderOnly(60_000, 60_000), 'bomb.jpg', 'image/jpeg'),
      filePart(webpHeaderOnly(60_000, 60_000), 'bomb.webp', 'image/webp'),
      filePart(sparseGif(65_535, 65_535, 1), 'bomb.gif', 'image/gif'),
    ];
    for (const bomb of bombs) {
      const response = await refused([bomb]);
      expect(response.statusCode, response.body).toBe(413);
      expect(errorsOf(response)).toEqual([MediaMessages.tooManyPixels]);
    }
  });

  it('answers 413 for animations with too many pixels over all their frames', async () => {
    // 26 frames of 2000 × 2000: 4 megapixels each, 104 over all.
    const gif = sparseGif(2000, 2000, 26);
    expect(await sharp(gif).metadata()).toMatchObject({ width: 2000, height: 2000, pages: 26 });
    const response = await refused([filePart(gif, 'long.gif', 'image/gif')]);
    expect(response.statusCode).toBe(413);
    expect(errorsOf(response)).toEqual([MediaMessages.animationTooLarge]);
  });

  it('answers 413 for a file over 10 MB', async () => {
    const response = await refused([filePart(oversizedJpegLike())]);
    expect(response.statusCode).toBe(413);
    expect(errorsOf(response)).toEqual([MediaMessages.tooLarge]);
  });

  it('answers 413 for a file over 10 MB without a declared length', async () => {
    const before = filesUnder(t.mediaDir);
    const body = multipart([filePart(oversizedJpegLike())]);
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/media',
      payload: body.payload,
      headers: {
        'content-type': body.headers['content-type'] ?? '',
        'transfer-encoding': 'chunked',
        authorization: member.token,
      },
    });
    expect(response.statusCode).toBe(413);
    expect(errorsOf(response)).toEqual([MediaMessages.tooLarge]);
    expect(filesUnder(t.mediaDir)).toEqual(before);
  });

  it('answers 400 for a truncated JPEG and leaves no file behind', async () => {
    const whole = await jpegWithGps(400, 300, 81);
    const response = await refused([filePart(whole.subarray(0, whole.length / 2))]);
    expect(response.statusCode).toBe(400);
    expect(errorsOf(response)).toEqual([MediaMessages.unreadable]);
  });

  it.each([
    ['a truncated PNG', async () => (await png(200, 200, 91)).subarray(0, 600)],
    ['a truncated animated GIF', async () => (await animatedGif(4)).subarray(0, 400)],
    [
      'a PNG signature followed by noise',
      async () =>
        Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), text]),
    ],
  ])('answers 400 for %s', async (_, make) => {
    const response = await refused([filePart(await make(), 'broken', 'image/png')]);
    expect(response.statusCode).toBe(400);
    expect(errorsOf(response)).toEqual([MediaMessages.unreadable]);
  });

  it('answers 400 without a file', async () => {
    const response = await refused([{ name: 'purpose', value: 'post' }]);
    expect(response.statusCode).toBe(400);
    expect(errorsOf(response)).toEqual([MediaMessages.missingFile]);
  });

  it('answers 400 for an empty file', async () => {
    const response = await refused([filePart(Buffer.alloc(0))]);
    expect(response.statusCode).toBe(400);
    expect(errorsOf(response)).toEqual([MediaMessages.missingFile]);
  });

  it('answers 400 for a file in another field', async () => {
    const response = await refused([
      { name: 'image', filename: 'a.jpg', contentType: 'image/jpeg', data: await jpegWithGps() },
    ]);
    expect(response.statusCode).toBe(400);
    expect(errorsOf(response)).toEqual([MediaMessages.missingFile]);
  });

  it('answers 400 for two files', async () => {
    const picture = await jpegWithGps(80, 80, 101);
    const response = await refused([filePart(picture), filePart(picture, 'b.jpg')]);
    expect(response.statusCode).toBe(400);
    expect(errorsOf(response)).toEqual([MediaMessages.oneFile]);
  });

  it('answers 400 for an unknown purpose', async () => {
    const response = await refused([
      { name: 'purpose', value: 'banner' },
      filePart(await jpegWithGps(80, 80, 111)),
    ]);
    expect(response.statusCode).toBe(400);
    expect(errorsOf(response)).toEqual(['purpose must be "post" or "avatar".']);
  });

  it('answers 400 for a cut-off multipart body', async () => {
    const { payload, headers } = multipart([filePart(await jpegWithGps(80, 80, 121))]);
    const before = filesUnder(t.mediaDir);
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/media',
      payload: payload.subarray(0, payload.length - 40),
      headers: { 'content-type': headers['content-type'] ?? '', authorization: member.token },
    });
    expect(response.statusCode).toBe(400);
    expect(filesUnder(t.mediaDir)).toEqual(before);
  });

  it('answers 415 for a body that is not multipart', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/media',
      payload: { file: 'data:image/png;base64,iVBORw0KGgo=' },
      headers: { authorization: member.token },
    });
    expect(response.statusCode).toBe(415);
    expect(errorsOf(response)).toEqual([MediaMessages.notMultipart]);
  });

  it('leaves no partial write behind after all of the above', () => {
    expect(filesUnder(t.mediaDir).filter((file) => file.startsWith('.'))).toEqual([]);
    expect(existsSync(path.join(t.mediaDir, 'demo'))).toBe(false);
  });

  it('keeps making images after refusals', async () => {
    const body = uploaded(await send([filePart(await noise(33, 44, 131).jpeg().toBuffer())]));
    expect(body).toMatchObject({ width: 33, height: 44 });
  });
});
