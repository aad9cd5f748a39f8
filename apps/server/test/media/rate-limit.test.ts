import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMember } from '../factories';
import { filePart, png } from './fixtures';
import { createMediaTestApp, registerUploadRoute, upload, type MediaTestApp } from './media-app';

let t: MediaTestApp;

beforeAll(async () => {
  t = await createMediaTestApp();
  await registerUploadRoute(t.app, '/limited/media', { uploadsPerMinute: 2 });
});
afterAll(async () => {
  await t.close();
});

describe('upload rate limit', () => {
  it('allows each member a number of uploads a minute, refusals included', async () => {
    const [alice, bob] = [await createMember(t.app), await createMember(t.app)];
    const picture = await png(16, 16, 9);
    const send = (token: string) =>
      upload(t.app, [filePart(picture, 'p.png', 'image/png')], { token, url: '/limited/media' });

    expect((await send(alice.token)).statusCode).toBe(201);
    expect((await send(alice.token)).statusCode).toBe(201);
    const limited = await send(alice.token);
    expect(limited.statusCode).toBe(429);
    expect(limited.json<{ errors: string[] }>().errors).toHaveLength(1);
    // Another member, from the same address, has an allowance of their own.
    expect((await send(bob.token)).statusCode).toBe(201);
  });

  it('turns off with 0', async () => {
    const member = await createMember(t.app);
    const picture = await png(16, 16, 10);
    for (let i = 0; i < 5; i += 1) {
      const response = await upload(t.app, [filePart(picture, 'p.png', 'image/png')], {
        token: member.token,
      });
      expect(response.statusCode).toBe(201);
    }
  });
});
