import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMembers } from '../social/social-helpers';
import type { Member } from '../factories';
import { createListeningApp, type ListeningApp } from './mastodon-helpers';

describe('Mastodon markers', () => {
  let t: ListeningApp;
  let ana: Member;
  let bea: Member;

  beforeAll(async () => {
    t = await createListeningApp();
    [ana, bea] = await createMembers(t.app, 2);
  });
  afterAll(() => t.close());

  it('answers no marker before one is saved', async () => {
    const markers = await t
      .client(ana.token)
      .v1.markers.fetch({ timeline: ['home', 'notifications'] });
    expect(markers).toEqual({});
  });

  it('saves positions, counting each save in version', async () => {
    const client = t.client(ana.token);
    const saved = await client.v1.markers.create({ home: { lastReadId: '01HOME' } });
    expect(Object.keys(saved)).toEqual(['home']);
    expect(saved.home).toMatchObject({ lastReadId: '01HOME', version: 1 });
    expect(Date.parse(saved.home.updatedAt)).toBeGreaterThan(Date.now() - 60_000);
    await client.v1.markers.create({
      home: { lastReadId: '02HOME' },
      notifications: { lastReadId: '7' },
    });
    const both = await client.v1.markers.fetch({ timeline: ['home', 'notifications'] });
    expect(both).toMatchObject({
      home: { lastReadId: '02HOME', version: 2 },
      notifications: { lastReadId: '7', version: 1 },
    });
    const onlyHome = await client.v1.markers.fetch({ timeline: ['home'] });
    expect(Object.keys(onlyHome)).toEqual(['home']);
    // Each member's markers are their own.
    expect(await t.client(bea.token).v1.markers.fetch({ timeline: ['home'] })).toEqual({});
  });

  it('takes the url-encoded form too', async () => {
    const raw = await fetch(`${t.url}/api/v1/markers`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${bea.token}`,
        'content-type': 'application/x-www-form-urlencoded',
      },
      body: 'notifications%5Blast_read_id%5D=42',
    });
    expect(raw.status).toBe(200);
    expect(await raw.json()).toMatchObject({ notifications: { last_read_id: '42', version: 1 } });
  });

  it('needs a member token', async () => {
    const raw = await fetch(`${t.url}/api/v1/markers?timeline[]=home`);
    expect(raw.status).toBe(401);
  });
});
