import { AccountErrors, type PrivacySettings } from '@perch/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMember, type Member } from '../factories';
import { call, createTestApp, type TestApp } from '../helpers';

describe('GET and PATCH /api/account/privacy', () => {
  let t: TestApp;
  let member: Member;

  // null: no token at all.
  const read = (token: string | null = member.token) =>
    call(t.app, { method: 'GET', url: '/api/account/privacy', token: token ?? undefined });
  const change = (payload: unknown, token: string | null = member.token) =>
    call(t.app, {
      method: 'PATCH',
      url: '/api/account/privacy',
      token: token ?? undefined,
      payload: payload as object,
    });

  beforeAll(async () => {
    t = await createTestApp();
    member = await createMember(t.app);
  });
  afterAll(() => t.close());

  it('starts with the profile public and indexing allowed', async () => {
    const response = await read();
    expect(response.statusCode).toBe(200);
    expect(response.headers['cache-control']).toBe('no-store');
    expect(response.json<PrivacySettings>()).toEqual({ publicProfile: true, noindex: false });
  });

  it('changes one setting and leaves the other', async () => {
    const first = await change({ noindex: true });
    expect(first.statusCode).toBe(200);
    expect(first.json<PrivacySettings>()).toEqual({ publicProfile: true, noindex: true });

    const second = await change({ publicProfile: false });
    expect(second.json<PrivacySettings>()).toEqual({ publicProfile: false, noindex: true });
    expect((await read()).json<PrivacySettings>()).toEqual({ publicProfile: false, noindex: true });
    expect(await t.app.services.users.publicMember(member.user.username)).toBeNull();
  });

  it('changes both at once', async () => {
    const response = await change({ publicProfile: true, noindex: false });
    expect(response.json<PrivacySettings>()).toEqual({ publicProfile: true, noindex: false });
    const shown = await t.app.services.users.publicMember(member.user.username);
    expect(shown?.noindex).toBe(false);
  });

  it('keeps each member’s settings their own', async () => {
    const other = await createMember(t.app);
    await change({ publicProfile: false }, other.token);
    expect((await read()).json<PrivacySettings>().publicProfile).toBe(true);
    expect((await read(other.token)).json<PrivacySettings>().publicProfile).toBe(false);
  });

  it.each([
    [{}, AccountErrors.privacyEmpty],
    [{ publicProfile: 'yes' }, AccountErrors.privacyNotBoolean('publicProfile')],
    [{ noindex: 1 }, AccountErrors.privacyNotBoolean('noindex')],
    [{ noindex: null }, AccountErrors.privacyNotBoolean('noindex')],
    [{ noindex: true, email: 'x@example.com' }, 'body: Unrecognized key: "email"'],
  ])('refuses %j with a 400 that says why', async (payload, message) => {
    const response = await change(payload);
    expect(response.statusCode).toBe(400);
    expect(response.json<{ errors: string[] }>().errors).toEqual([message]);
    expect((await read()).json<PrivacySettings>()).toEqual({ publicProfile: true, noindex: false });
  });

  it('refuses a body that is not an object', async () => {
    const response = await call(t.app, {
      method: 'PATCH',
      url: '/api/account/privacy',
      token: member.token,
      headers: { 'content-type': 'application/json' },
      payload: '[true]',
    });
    expect(response.statusCode).toBe(400);
    expect(response.json<{ errors: string[] }>().errors).toHaveLength(1);
  });

  it('answers 401 without a token or with a bad one', async () => {
    expect((await read(null)).statusCode).toBe(401);
    expect((await change({ noindex: true }, null)).statusCode).toBe(401);
    expect((await read('Bearer nonsense')).statusCode).toBe(401);
  });
});
