import { createSigner } from 'fast-jwt';
import { ErrorMessages, type LoginResponse, type SignupResponse, type User } from '@perch/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMember, signupPayload } from './factories';
import { call, createTestApp, type TestApp } from './helpers';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

const errorsOf = (response: { json: () => unknown }) =>
  (response.json() as { errors: string[] }).errors;

describe('POST /api/auth/signup', () => {
  it('creates a member and answers 201 with a token and the member, never the password', async () => {
    const payload = signupPayload({ firstName: 'Ada', lastName: 'Lovelace' });
    const response = await call(t.app, { method: 'POST', url: '/api/auth/signup', payload });
    expect(response.statusCode).toBe(201);
    const body = response.json<SignupResponse>();
    expect(body.encodedToken).toMatch(/^[\w-]+\.[\w-]+\.[\w-]+$/);
    expect(body.createdUser).toMatchObject({
      username: payload.username,
      firstName: 'Ada',
      lastName: 'Lovelace',
      email: payload.email,
      bio: '',
      avatarURL: null,
      followersCount: 0,
      followingCount: 0,
      postsCount: 0,
    });
    expect(body.createdUser._id).toMatch(/^[0-9A-HJKMNP-TV-Z]{26}$/);
    expect(response.body).not.toContain(payload.password);
    expect(response.body).not.toMatch(/password|scrypt/i);
  });

  it('answers 422 when the username exists, whatever its case', async () => {
    const { user } = await createMember(t.app);
    const response = await call(t.app, {
      method: 'POST',
      url: '/api/auth/signup',
      payload: signupPayload({ username: user.username.toUpperCase() }),
    });
    expect(response.statusCode).toBe(422);
    expect(errorsOf(response)).toEqual([ErrorMessages.usernameTaken]);
  });

  it('lets the database decide between concurrent signups for one name', async () => {
    const username = `race_${Date.now() % 100000}`;
    const responses = await Promise.all(
      Array.from({ length: 8 }, () =>
        call(t.app, {
          method: 'POST',
          url: '/api/auth/signup',
          payload: signupPayload({ username }),
        }),
      ),
    );
    const statuses = responses.map((r) => r.statusCode).sort();
    expect(statuses.filter((s) => s === 201)).toHaveLength(1);
    expect(statuses.filter((s) => s === 422)).toHaveLength(7);
  });

  it.each([
    ['a missing first name', { firstName: undefined }, 'First name is required.'],
    ['a blank last name', { lastName: '   ' }, 'Last name is required.'],
    ['a malformed email', { email: 'not-an-email' }, 'Email must be a valid email address.'],
    [
      'a short password',
      { password: 'short', confirmPassword: 'short' },
      'Password must be at least 8 characters.',
    ],
    [
      'a password that differs from its confirmation',
      { confirmPassword: 'something else' },
      'Your password and confirmation password do not match.',
    ],
    [
      'a username with spaces',
      { username: 'two words' },
      'Username must be 3 to 30 letters, digits or underscores.',
    ],
    ['a too long name', { firstName: 'x'.repeat(51) }, 'First name must be at most 50 characters.'],
    ['a number for a name', { firstName: 42 }, 'First name is required.'],
  ])('answers 400 naming the problem for %s', async (_label, overrides, message) => {
    const response = await call(t.app, {
      method: 'POST',
      url: '/api/auth/signup',
      payload: signupPayload(overrides),
    });
    expect(response.statusCode).toBe(400);
    expect(errorsOf(response)).toContain(message);
  });

  it('answers 400 for malformed JSON and a body that is not an object', async () => {
    const malformed = await call(t.app, {
      method: 'POST',
      url: '/api/auth/signup',
      headers: { 'content-type': 'application/json' },
      payload: '{"username": ',
    });
    expect(malformed.statusCode).toBe(400);
    expect(errorsOf(malformed)[0]).toMatch(/JSON/);
    const array = await call(t.app, { method: 'POST', url: '/api/auth/signup', payload: [1, 2] });
    expect(array.statusCode).toBe(400);
    expect(errorsOf(array).length).toBeGreaterThan(0);
  });

  it('answers 413 for an oversized body', async () => {
    const response = await call(t.app, {
      method: 'POST',
      url: '/api/auth/signup',
      payload: signupPayload({ firstName: 'x'.repeat(2 * 1024 * 1024) }),
    });
    expect(response.statusCode).toBe(413);
    expect(errorsOf(response)).toHaveLength(1);
  });
});

describe('POST /api/auth/login', () => {
  it('answers 200 with a token and the member for the right password', async () => {
    const member = await createMember(t.app);
    const response = await call(t.app, {
      method: 'POST',
      url: '/api/auth/login',
      payload: { username: member.user.username, password: member.password },
    });
    expect(response.statusCode).toBe(200);
    const body = response.json<LoginResponse>();
    expect(body.foundUser._id).toBe(member.user._id);
    expect(response.body).not.toMatch(/password|scrypt/i);
    const me = await call(t.app, { method: 'GET', url: '/api/auth/me', token: body.encodedToken });
    expect(me.statusCode).toBe(200);
  });

  it('answers 404 for an unknown username and 401 for a wrong password', async () => {
    const unknown = await call(t.app, {
      method: 'POST',
      url: '/api/auth/login',
      payload: { username: 'nobody_here', password: 'whatever1' },
    });
    expect(unknown.statusCode).toBe(404);
    expect(errorsOf(unknown)).toEqual([ErrorMessages.notRegistered]);

    const member = await createMember(t.app);
    const wrong = await call(t.app, {
      method: 'POST',
      url: '/api/auth/login',
      payload: { username: member.user.username, password: 'not the password' },
    });
    expect(wrong.statusCode).toBe(401);
    expect(errorsOf(wrong)).toEqual([ErrorMessages.invalidCredentials]);
  });

  it('answers 400 when a field is missing', async () => {
    const response = await call(t.app, {
      method: 'POST',
      url: '/api/auth/login',
      payload: { username: '' },
    });
    expect(response.statusCode).toBe(400);
    expect(errorsOf(response)).toEqual(['Username is required.', 'Password is required.']);
  });
});

describe('tokens', () => {
  it('accepts the raw token and the Bearer form', async () => {
    const member = await createMember(t.app);
    for (const authorization of [member.token, `Bearer ${member.token}`]) {
      const response = await call(t.app, {
        method: 'GET',
        url: '/api/auth/me',
        headers: { authorization },
      });
      expect(response.statusCode).toBe(200);
      expect(response.json<{ user: User }>().user.username).toBe(member.user.username);
    }
  });

  it('answers 401 with the spec message for a missing, tampered, unsigned or foreign token', async () => {
    const member = await createMember(t.app);
    const [header = '', payload = '', signature = ''] = member.token.split('.');
    const forged = Buffer.from(
      JSON.stringify({
        ...JSON.parse(Buffer.from(payload, 'base64url').toString()),
        username: 'admin',
      }),
    ).toString('base64url');
    const unsigned = `${Buffer.from('{"alg":"none","typ":"JWT"}').toString('base64url')}.${payload}.`;
    const foreign = createSigner({ key: 'another-secret-of-sufficient-length-here' })({
      sub: member.user._id,
      username: member.user.username,
    });
    const expired = createSigner({
      key: t.config.jwtSecret ?? '',
      expiresIn: 1,
      clockTimestamp: 1000,
    })({
      sub: member.user._id,
      username: member.user.username,
    });
    for (const token of [
      undefined,
      'garbage',
      `${header}.${forged}.${signature}`,
      unsigned,
      foreign,
      expired,
    ]) {
      const response = await call(t.app, { method: 'GET', url: '/api/auth/me', token });
      expect(response.statusCode, String(token)).toBe(401);
      expect(errorsOf(response)).toEqual([ErrorMessages.invalidToken]);
    }
  });

  it('refuses a token whose signature was checked and remembered, once it expires', async () => {
    const member = await createMember(t.app);
    const claims = JSON.parse(
      Buffer.from(member.token.split('.')[1] ?? '', 'base64url').toString(),
    ) as { sid: string; username: string };
    const shortLived = createSigner({ key: t.config.jwtSecret ?? '', expiresIn: 1000 })({
      sub: member.user._id,
      username: claims.username,
      sid: claims.sid,
    });
    const me = () => call(t.app, { method: 'GET', url: '/api/auth/me', token: shortLived });
    expect((await me()).statusCode).toBe(200);
    expect((await me()).statusCode).toBe(200);
    // exp is in whole seconds: the token has expired within two.
    await new Promise((resolve) => setTimeout(resolve, 2100));
    const late = await me();
    expect(late.statusCode).toBe(401);
    expect(errorsOf(late)).toEqual([ErrorMessages.invalidToken]);
  });

  it('answers 401 when the token is valid but its member no longer exists', async () => {
    const member = await createMember(t.app);
    await t.app.db.deleteFrom('users').where('id', '=', member.user._id).execute();
    const response = await call(t.app, { method: 'GET', url: '/api/auth/me', token: member.token });
    expect(response.statusCode).toBe(401);
    expect(errorsOf(response)).toEqual([ErrorMessages.invalidToken]);
  });
});

describe('passwords', () => {
  it('stores an scrypt hash, never the password', async () => {
    const member = await createMember(t.app);
    const row = await t.app.db
      .selectFrom('users')
      .select('password_hash')
      .where('id', '=', member.user._id)
      .executeTakeFirstOrThrow();
    expect(row.password_hash).toMatch(/^scrypt\$\d+\$8\$1\$/);
    expect(row.password_hash).not.toContain(member.password);
  });
});
