import { request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { MediaMessages, type MediaUploadResponse } from '@perch/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMember, type Member } from '../factories';
import { filePart, filesUnder, jpegWithGps, multipart, oversizedJpegLike } from './fixtures';
import { createMediaTestApp, type MediaTestApp } from './media-app';

let t: MediaTestApp;
let member: Member;
let base: string;

beforeAll(async () => {
  t = await createMediaTestApp();
  member = await createMember(t.app);
  await t.app.listen({ host: '127.0.0.1', port: 0 });
  base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await t.close();
});

function form(fields: Record<string, Blob | string>, filename = 'photo.jpg'): FormData {
  const body = new FormData();
  for (const [name, value] of Object.entries(fields)) {
    if (typeof value === 'string') body.append(name, value);
    else body.append(name, value, filename);
  }
  return body;
}

const post = (body: FormData) =>
  fetch(`${base}/api/media`, {
    method: 'POST',
    body,
    headers: { authorization: member.token },
  });

describe('uploads over a real connection', () => {
  it('takes a browser-style form upload', async () => {
    const picture = new Blob([await jpegWithGps(200, 100, 501)], { type: 'image/jpeg' });
    const response = await post(form({ purpose: 'post', file: picture }));
    expect(response.status).toBe(201);
    const body = (await response.json()) as MediaUploadResponse;
    expect(body).toMatchObject({ width: 200, height: 100, mimeType: 'image/webp' });
    const image = await fetch(base + body.url);
    expect(image.status).toBe(200);
    expect(image.headers.get('content-type')).toBe('image/webp');
    expect(image.headers.get('x-content-type-options')).toBe('nosniff');
  });

  it('answers 413 to a body over the limit and keeps serving', async () => {
    const before = filesUnder(t.mediaDir);
    const big = new Blob([oversizedJpegLike()], { type: 'image/jpeg' });
    const response = await post(form({ file: big }));
    expect(response.status).toBe(413);
    expect(((await response.json()) as { errors: string[] }).errors).toEqual([
      MediaMessages.tooLarge,
    ]);
    expect(filesUnder(t.mediaDir)).toEqual(before);

    const picture = new Blob([await jpegWithGps(30, 30, 502)], { type: 'image/jpeg' });
    expect((await post(form({ file: picture }))).status).toBe(201);
  });

  it('stops reading a streamed body without a length at the limit', async () => {
    const before = filesUnder(t.mediaDir);
    const { payload, headers } = multipart([filePart(oversizedJpegLike())]);
    const answer = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = request(
        `${base}/api/media`,
        {
          method: 'POST',
          headers: { 'content-type': headers['content-type'], authorization: member.token },
        },
        (res) => {
          let body = '';
          res.setEncoding('utf8');
          res.on('data', (chunk: string) => (body += chunk));
          res.on('end', () => {
            resolve({ status: res.statusCode ?? 0, body });
          });
        },
      );
      req.on('error', reject);
      // Sent in pieces, chunked: the server learns the size only by reading.
      for (let offset = 0; offset < payload.length; offset += 256 * 1024) {
        req.write(payload.subarray(offset, offset + 256 * 1024));
      }
      req.end();
    });
    expect(answer.status).toBe(413);
    expect(JSON.parse(answer.body)).toEqual({ errors: [MediaMessages.tooLarge] });
    expect(filesUnder(t.mediaDir)).toEqual(before);
  });

  it('answers 400 to a file in the wrong field and keeps serving', async () => {
    const picture = new Blob([await jpegWithGps(30, 30, 503)], { type: 'image/jpeg' });
    const response = await post(form({ image: picture, purpose: 'post' }));
    expect(response.status).toBe(400);
    expect((await post(form({ file: picture }))).status).toBe(201);
  });
});
