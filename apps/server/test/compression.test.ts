import { brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMember, type Member } from './factories';
import { call, createTestApp, type TestApp } from './helpers';
import { closeAllStreams } from './events/sse-client';
import { startStreamApp, type StreamApp } from './events/stream-helpers';

let t: TestApp;
let member: Member;
beforeAll(async () => {
  t = await createTestApp();
  member = await createMember(t.app);
  for (let i = 0; i < 12; i += 1) {
    const response = await call(t.app, {
      method: 'POST',
      url: '/api/posts',
      token: member.token,
      payload: {
        postData: { content: `A post long enough to be worth compressing, number ${i}.` },
      },
    });
    expect(response.statusCode, response.body).toBe(201);
  }
});
afterAll(async () => {
  await t.close();
});

const feed = (encoding?: string) =>
  call(t.app, {
    method: 'GET',
    url: '/api/posts',
    headers: encoding === undefined ? {} : { 'accept-encoding': encoding },
  });

describe('compressed answers', () => {
  it('answers gzip, or brotli to a client that takes only that, the same JSON once decoded', async () => {
    const plain = await feed();
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.rawPayload.length).toBeGreaterThan(1024);

    const br = await feed('br');
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers.vary).toMatch(/accept-encoding/i);
    expect(Number(br.headers['content-length'])).toBe(br.rawPayload.length);
    expect(br.rawPayload.length).toBeLessThan(plain.rawPayload.length / 2);
    expect(JSON.parse(brotliDecompressSync(br.rawPayload).toString('utf8'))).toEqual(
      JSON.parse(plain.body),
    );

    const gzip = await feed('gzip, deflate, br, zstd');
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(Number(gzip.headers['content-length'])).toBe(gzip.rawPayload.length);
    expect(JSON.parse(gunzipSync(gzip.rawPayload).toString('utf8'))).toEqual(
      JSON.parse(plain.body),
    );
    // Security headers and the API's no-store stay on a compressed answer.
    expect(br.headers['cache-control']).toBe('no-store');
    expect(br.headers['x-content-type-options']).toBe('nosniff');
  });

  it('leaves small answers and unknown encodings alone', async () => {
    const health = await call(t.app, {
      method: 'GET',
      url: '/api/health',
      headers: { 'accept-encoding': 'br' },
    });
    expect(health.rawPayload.length).toBeLessThan(1024);
    expect(health.headers['content-encoding']).toBeUndefined();
    const zstdOnly = await feed('compress');
    expect(zstdOnly.headers['content-encoding']).toBeUndefined();
    expect(() => JSON.parse(zstdOnly.body) as unknown).not.toThrow();
  });

  it('never inflates a compressed request body', async () => {
    const response = await call(t.app, {
      method: 'POST',
      url: '/api/posts',
      token: member.token,
      headers: { 'content-encoding': 'gzip', 'content-type': 'application/json' },
      payload: gzipSync(JSON.stringify({ postData: { content: 'sent compressed' } })),
    });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toHaveProperty('errors');
  });
});

describe('COMPRESSION=off', () => {
  it('answers every client uncompressed', async () => {
    const off = await createTestApp({ compression: false });
    try {
      const someone = await createMember(off.app);
      const response = await call(off.app, {
        method: 'GET',
        url: `/api/users/${someone.user.username}`,
        headers: { 'accept-encoding': 'br, gzip' },
      });
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-encoding']).toBeUndefined();
    } finally {
      await off.close();
    }
  });
});

describe('the event stream', () => {
  let s: StreamApp;
  beforeAll(async () => {
    s = await startStreamApp();
  });
  afterAll(async () => {
    closeAllStreams();
    await s.close();
  });

  it('is never compressed, so each event leaves at once', async () => {
    const listener = await s.member();
    const stream = await s.connect(listener, { 'accept-encoding': 'br, gzip' });
    expect(stream.status).toBe(200);
    expect(stream.headers['content-encoding']).toBeUndefined();
    const id = await s.marker();
    const heard = await stream.next((message) => message.id === id);
    expect(heard.event).toBe('profile.edited');
  });
});
