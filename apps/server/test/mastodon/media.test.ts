import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Member } from '../factories';
import { png } from '../media/fixtures';
import { createMembers } from '../social/social-helpers';
import { createListeningApp, type ListeningApp } from './mastodon-helpers';

describe('Mastodon media', () => {
  let t: ListeningApp;
  let ana: Member;
  let ben: Member;

  beforeAll(async () => {
    t = await createListeningApp();
    [ana, ben] = await createMembers(t.app, 2);
  });
  afterAll(() => t.close());

  const raw = (path: string, token: string, init: RequestInit = {}) =>
    fetch(`${t.url}${path}`, {
      ...init,
      headers: {
        authorization: `Bearer ${token}`,
        ...(init.headers as Record<string, string> | undefined),
      },
    });

  const imageFile = async (seed: number) =>
    new Blob([new Uint8Array(await png(40, 20, seed))], { type: 'image/png' });

  it('uploads an image whose description a status made with it shows', async () => {
    const client = t.client(ana.token);
    const media = await client.v2.media.create({
      file: await imageFile(11),
      description: 'A red kite over the hill',
      focus: '0.5,-0.25',
    });
    expect(media).toMatchObject({
      type: 'image',
      description: 'A red kite over the hill',
      meta: { original: { width: 40, height: 20 }, focus: { x: 0.5, y: -0.25 } },
    });
    expect(media.url).toMatch(/^http:\/\/.+\/media\/[0-9a-f]{2}\/[0-9a-f]{64}\.\w+$/);
    expect(media.previewUrl).toContain('.thumb.');

    const status = await client.v1.statuses.create({ status: 'a kite', mediaIds: [media.id] });
    expect(status.mediaAttachments).toHaveLength(1);
    expect(status.mediaAttachments[0]).toMatchObject({
      url: media.url,
      description: 'A red kite over the hill',
    });
    const read = await t.client(ben.token).v1.statuses.$select(status.id).fetch();
    expect(read.mediaAttachments[0]?.description).toBe('A red kite over the hill');
  });

  it('changes a description with PUT, and the new id carries it into a status', async () => {
    const client = t.client(ana.token);
    const media = await client.v1.media.create({ file: await imageFile(12) });
    expect(media.description).toBeNull();
    const fetched = await client.v1.media.$select(media.id).fetch();
    expect(fetched).toMatchObject({ id: media.id, url: media.url, description: null });

    const updated = await client.v1.media.$select(media.id).update({ description: 'Two owls' });
    expect(updated.description).toBe('Two owls');
    expect(updated.url).toBe(media.url);
    expect((await client.v1.media.$select(updated.id).fetch()).description).toBe('Two owls');

    const status = await client.v1.statuses.create({ status: 'owls', mediaIds: [updated.id] });
    expect(status.mediaAttachments[0]?.description).toBe('Two owls');
  });

  it("answers 404 for another member's upload and 422 for a bad focus", async () => {
    const media = await t.client(ana.token).v2.media.create({ file: await imageFile(13) });
    const stranger = await raw(`/api/v1/media/${media.id}`, ben.token);
    expect(stranger.status).toBe(404);
    expect(await stranger.json()).toEqual({ error: 'Record not found' });
    const put = await raw(`/api/v1/media/${media.id}`, ben.token, {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ description: 'mine now' }),
    });
    expect(put.status).toBe(404);

    const form = new FormData();
    form.append('file', await imageFile(14));
    form.append('focus', '3,0');
    const refused = await raw('/api/v2/media', ana.token, { method: 'POST', body: form });
    expect(refused.status).toBe(422);
  });

  it('refuses what is no image and a body that is no upload', async () => {
    const form = new FormData();
    form.append('file', new Blob(['not an image'], { type: 'image/png' }));
    const refused = await raw('/api/v2/media', ana.token, { method: 'POST', body: form });
    expect(refused.status).toBeGreaterThanOrEqual(400);
    expect(refused.status).toBeLessThan(500);
    expect(await refused.json()).toHaveProperty('error');

    const json = await raw('/api/v1/media', ana.token, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{}',
    });
    expect(json.status).toBe(422);
  });
});
