import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMembers, createPost, pngImage } from '../social/social-helpers';
import type { Member } from '../factories';
import { createListeningApp, type ListeningApp } from './mastodon-helpers';

describe('Mastodon accounts', () => {
  let t: ListeningApp;
  let ana: Member;

  beforeAll(async () => {
    t = await createListeningApp();
    [ana] = await createMembers(t.app, 1);
  });
  afterAll(() => t.close());

  it('answers verify_credentials with the member as an Account', async () => {
    const account = await t.client(ana.token).v1.accounts.verifyCredentials();
    expect(account).toMatchObject({
      id: ana.user._id,
      username: ana.user.username,
      acct: ana.user.username,
      url: `${t.url}/@${ana.user.username}`,
      statusesCount: 0,
      followersCount: 0,
      locked: false,
      lastStatusAt: null,
    });
    expect(account.avatar).toMatch(/^http:\/\/127\.0\.0\.1:\d+\//);
    expect(account.source).toMatchObject({
      note: '',
      fields: [],
      privacy: 'public',
      sensitive: false,
      followRequestsCount: 0,
    });
  });

  it("refuses a call without a token in Mastodon's error shape", async () => {
    await expect(t.client().v1.accounts.verifyCredentials()).rejects.toMatchObject({
      statusCode: 401,
      message: 'The access token is invalid',
    });
    const raw = await fetch(`${t.url}/api/v1/accounts/verify_credentials`);
    expect(raw.status).toBe(401);
    expect(await raw.json()).toEqual({ error: 'The access token is invalid' });
    const unknown = await fetch(`${t.url}/api/v1/no-such-method`);
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toEqual({ error: 'Not Found' });
  });

  it('dates last_status_at from the newest post', async () => {
    const [bea] = await createMembers(t.app, 1);
    await createPost(t.app, bea.token, 'hello');
    const today = new Date().toISOString().slice(0, 10);
    const own = await t.client(bea.token).v1.accounts.verifyCredentials();
    expect(own.lastStatusAt).toBe(today);
    expect(own.statusesCount).toBe(1);
    const seen = await t.client(ana.token).v1.accounts.$select(bea.user._id).fetch();
    expect(seen.lastStatusAt).toBe(today);
  });

  it('updates the names, bio and avatar through update_credentials', async () => {
    const [cai] = await createMembers(t.app, 1);
    const client = t.client(cai.token);
    const avatar = new Blob([new Uint8Array(pngImage(32))], { type: 'image/png' });
    const updated = await client.v1.accounts.updateCredentials({
      displayName: 'Ana María López',
      note: 'Birds & <b>bees</b>\n\nSecond paragraph',
      avatar,
    });
    expect(updated.displayName).toBe('Ana María López');
    expect(updated.note).toBe('<p>Birds &amp; &lt;b&gt;bees&lt;/b&gt;</p><p>Second paragraph</p>');
    expect(updated.source.note).toBe('Birds & <b>bees</b>\n\nSecond paragraph');
    expect(updated.avatar).toMatch(new RegExp(`^${t.url}/media/`));
    const avatarAnswer = await fetch(updated.avatar);
    expect(avatarAnswer.status).toBe(200);

    // Perch's own API sees the same profile: first name, then the rest as the last name.
    const perch = await t.app.inject({ method: 'GET', url: `/api/users/${cai.user.username}` });
    const { user } = perch.json<{ user: Record<string, unknown> }>();
    expect(user).toMatchObject({
      firstName: 'Ana',
      lastName: 'María López',
      bio: 'Birds & <b>bees</b>\n\nSecond paragraph',
      avatarURL: new URL(updated.avatar).pathname,
    });

    // A field left out keeps its value.
    const again = await client.v1.accounts.updateCredentials({ note: 'Only the bio' });
    expect(again.displayName).toBe('Ana María López');
    expect(again.avatar).toBe(updated.avatar);
  });

  it('refuses a display name Perch cannot keep, with 422', async () => {
    const [dan] = await createMembers(t.app, 1);
    const raw = await fetch(`${t.url}/api/v1/accounts/update_credentials`, {
      method: 'PATCH',
      headers: { authorization: `Bearer ${dan.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ display_name: 'Mononym' }),
    });
    expect(raw.status).toBe(422);
    expect(await raw.json()).toEqual({ error: 'Validation failed: Last name is required.' });
    const form = await fetch(`${t.url}/api/v1/accounts/update_credentials`, {
      method: 'PATCH',
      headers: {
        authorization: `Bearer ${dan.token}`,
        'content-type': 'application/x-www-form-urlencoded',
      },
      body: new URLSearchParams({ display_name: 'Dan Brown' }).toString(),
    });
    expect(form.status).toBe(200);
    expect(((await form.json()) as { display_name: string }).display_name).toBe('Dan Brown');
  });

  it('looks members up by acct and by id', async () => {
    const client = t.client(ana.token);
    const host = new URL(t.url).host;
    const byName = await client.v1.accounts.lookup({ acct: ana.user.username });
    expect(byName.id).toBe(ana.user._id);
    const byAddress = await client.v1.accounts.lookup({ acct: `@${ana.user.username}@${host}` });
    expect(byAddress.id).toBe(ana.user._id);
    await expect(
      client.v1.accounts.lookup({ acct: `${ana.user.username}@elsewhere.example` }),
    ).rejects.toMatchObject({ statusCode: 404 });
    const byId = await t.client().v1.accounts.$select(ana.user._id).fetch();
    expect(byId.username).toBe(ana.user.username);
    const missing = await fetch(`${t.url}/api/v1/accounts/00000000000000000000000000`);
    expect(missing.status).toBe(404);
  });

  it('finds members by name', async () => {
    const [eve] = await createMembers(t.app, 1);
    const found = await t.client(ana.token).v1.accounts.search.list({ q: eve.user.username });
    expect(found.map((account) => account.id)).toEqual([eve.user._id]);
    const followedOnly = await t
      .client(ana.token)
      .v1.accounts.search.list({ q: eve.user.username, following: true });
    expect(followedOnly).toEqual([]);
  });
});
