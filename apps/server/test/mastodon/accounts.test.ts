import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMembers } from '../social/social-helpers';
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
    });
    expect(account.avatar).toMatch(/^http:\/\/127\.0\.0\.1:\d+\//);
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
});
