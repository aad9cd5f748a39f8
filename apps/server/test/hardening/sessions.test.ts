import { ErrorMessages, SESSION_NOT_FOUND, sessionListSchema } from '@perch/contract';
import { createSigner } from 'fast-jwt';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app/app';
import { startStreamApp, type StreamApp } from '../events/stream-helpers';
import { createMember, type Member } from '../factories';
import { call, testConfig } from '../helpers';
import { bodyOf, expectError } from '../social/social-helpers';
import { testDatabaseKind } from '../test-database';

let t: StreamApp;
beforeAll(async () => {
  t = await startStreamApp();
});
afterAll(async () => {
  await t.close();
});

const me = (app: FastifyInstance, token: string) =>
  call(app, { method: 'GET', url: '/api/auth/me', token });

async function login(app: FastifyInstance, member: Member) {
  const response = await call(app, {
    method: 'POST',
    url: '/api/auth/login',
    payload: { username: member.user.username, password: member.password },
    headers: { 'user-agent': 'Test Browser' },
  });
  const cookie = response.cookies.find((c) => c.name === 'perch_session');
  return {
    token: response.json<{ encodedToken: string }>().encodedToken,
    cookie: `perch_session=${cookie?.value ?? ''}`,
  };
}

const sessionIdOf = (token: string) =>
  t.app.jwt.decode<{ sid: string }>(token)?.sid ?? 'no session';

describe('sessions', () => {
  it('ends with logout: the token and its cookie are refused before they expire', async () => {
    const member = await createMember(t.app);
    const { token, cookie } = await login(t.app, member);
    expect((await me(t.app, token)).statusCode).toBe(200);

    const logout = await call(t.app, { method: 'POST', url: '/api/auth/logout', token });
    expect(logout.statusCode).toBe(204);

    expectError(await me(t.app, token), 401, ErrorMessages.invalidToken);
    const stream = await call(t.app, { method: 'GET', url: '/api/events', headers: { cookie } });
    expectError(stream, 401, ErrorMessages.invalidToken);
    // An open read with the dead cookie answers as to anyone.
    const read = await call(t.app, { method: 'GET', url: '/api/posts', headers: { cookie } });
    expect(read.statusCode).toBe(200);
    // The member's other sessions go on.
    expect((await me(t.app, member.token)).statusCode).toBe(200);
  });

  it('ends with a logout that sends only the cookie, as the web app may', async () => {
    const member = await createMember(t.app);
    const { token, cookie } = await login(t.app, member);
    const logout = await call(t.app, {
      method: 'POST',
      url: '/api/auth/logout',
      headers: { cookie },
    });
    expect(logout.statusCode).toBe(204);
    expectError(await me(t.app, token), 401, ErrorMessages.invalidToken);
  });

  it('logs out of every device at once', async () => {
    const member = await createMember(t.app);
    const first = await login(t.app, member);
    const second = await login(t.app, member);
    const response = await call(t.app, {
      method: 'POST',
      url: '/api/auth/logout-all',
      token: first.token,
    });
    expect(response.statusCode).toBe(204);
    for (const token of [first.token, second.token, member.token]) {
      expectError(await me(t.app, token), 401, ErrorMessages.invalidToken);
    }
    const rows = await t.app.db
      .selectFrom('sessions')
      .select(['user_agent', 'revoked_at'])
      .where('user_id', '=', member.user._id)
      .execute();
    expect(rows).toHaveLength(3);
    expect(rows.every((row) => row.revoked_at !== null)).toBe(true);
    expect(rows.filter((row) => row.user_agent === 'Test Browser')).toHaveLength(2);
  });

  it('refuses tokens without an expiry or without a session', async () => {
    const member = await createMember(t.app);
    const sign = createSigner({ key: t.config.jwtSecret ?? '', algorithm: 'HS256' });
    const sid = sessionIdOf(member.token);
    const noExpiry = sign({ username: member.user.username, sub: member.user._id, sid });
    const noSession = createSigner({ key: t.config.jwtSecret ?? '', expiresIn: 60_000 })({
      username: member.user.username,
      sub: member.user._id,
    });
    for (const token of [noExpiry, noSession]) {
      expectError(await me(t.app, token), 401, ErrorMessages.invalidToken);
    }
  });

  it("answers 401 once the token's member is gone", async () => {
    const member = await createMember(t.app);
    const { token } = await login(t.app, member);
    await t.app.db.deleteFrom('users').where('id', '=', member.user._id).execute();
    // A fresh session, never checked before, so no cached answer stands in the way.
    expectError(await me(t.app, token), 401, ErrorMessages.invalidToken);
  });

  it('closes the event stream of a session when it is revoked', async () => {
    const member = await t.member();
    const stream = await t.connect(member);
    expect(stream.status).toBe(200);
    await stream.next((message) => message.event === 'ready');
    await call(t.app, {
      method: 'POST',
      url: '/api/auth/logout',
      headers: { cookie: member.session.cookie },
    });
    await t.app.services.relay.drain();
    await stream.ended;
    expect(stream.messages.map((m) => m.event)).toContain('sessions.revoked');
  });

  it("lists the member's devices, this one marked, and ends one or all the others", async () => {
    const member = await createMember(t.app);
    const phone = await login(t.app, member);
    const laptop = await login(t.app, member);
    const list = async (token: string) =>
      bodyOf(
        sessionListSchema,
        await call(t.app, { method: 'GET', url: '/api/auth/sessions', token }),
        200,
      ).sessions;

    const seen = await list(laptop.token);
    expect(seen).toHaveLength(3);
    expect(seen.filter((s) => s.current).map((s) => s.id)).toEqual([sessionIdOf(laptop.token)]);
    expect(seen.filter((s) => s.userAgent === 'Test Browser')).toHaveLength(2);
    for (const session of seen) expect(session._id).toBe(session.id);

    const end = (token: string, id: string) =>
      call(t.app, { method: 'DELETE', url: `/api/auth/sessions/${id}`, token });
    expect((await end(laptop.token, sessionIdOf(phone.token))).statusCode).toBe(204);
    expectError(await me(t.app, phone.token), 401, ErrorMessages.invalidToken);
    expectError(await end(laptop.token, sessionIdOf(phone.token)), 404, SESSION_NOT_FOUND);
    // Another member's session is not this member's to end.
    const stranger = await createMember(t.app);
    expectError(await end(laptop.token, sessionIdOf(stranger.token)), 404, SESSION_NOT_FOUND);
    expect((await me(t.app, stranger.token)).statusCode).toBe(200);

    const others = await call(t.app, {
      method: 'POST',
      url: '/api/auth/logout-others',
      token: laptop.token,
    });
    expect(others.statusCode).toBe(204);
    expectError(await me(t.app, member.token), 401, ErrorMessages.invalidToken);
    expect((await list(laptop.token)).map((s) => s.id)).toEqual([sessionIdOf(laptop.token)]);

    // Ending this very session is a logout.
    const self = await end(laptop.token, sessionIdOf(laptop.token));
    expect(self.statusCode).toBe(204);
    expect(self.cookies.find((c) => c.name === 'perch_session')?.value).toBe('');
    expectError(await me(t.app, laptop.token), 401, ErrorMessages.invalidToken);
  });

  it.runIf(testDatabaseKind() === 'sqlite')(
    'reaches the session cache of another process sharing the database',
    async () => {
      const other = await buildApp(testConfig(t.config.dataDir), { logger: false });
      await other.ready();
      try {
        const member = await createMember(t.app);
        const { token } = await login(t.app, member);
        // The other process checks (and caches) the session first.
        expect((await me(other, token)).statusCode).toBe(200);
        await call(t.app, { method: 'POST', url: '/api/auth/logout', token });
        const deadline = Date.now() + 5_000;
        let status = 200;
        while (status === 200 && Date.now() < deadline) {
          await new Promise((resolve) => setTimeout(resolve, 50));
          status = (await me(other, token)).statusCode;
        }
        expect(status).toBe(401);
      } finally {
        await other.close();
      }
    },
  );
});
