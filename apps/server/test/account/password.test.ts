import {
  AccountErrors,
  ErrorMessages,
  GUEST_CREDENTIALS,
  PASSWORD_MISMATCH,
} from '@perch/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMember, type Member } from '../factories';
import { createTestApp, type TestApp } from '../helpers';
import { expectError } from '../social/social-helpers';
import { changePassword, deleteOwnAccount, login, me } from './account-helpers';

const NEW_PASSWORD = 'a brand new secret';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

const change = (member: Member, body: Partial<Record<string, string>> = {}) =>
  changePassword(t.app, member.token, {
    currentPassword: member.password,
    newPassword: NEW_PASSWORD,
    confirmPassword: NEW_PASSWORD,
    ...body,
  });

const storedHash = async (member: Member) =>
  (
    await t.app.db
      .selectFrom('users')
      .select('password_hash')
      .where('id', '=', member.user._id)
      .executeTakeFirstOrThrow()
  ).password_hash;

describe('POST /api/auth/password', () => {
  it('needs a signed-in member', async () => {
    const response = await changePassword(t.app, undefined, {
      currentPassword: 'whatever1',
      newPassword: NEW_PASSWORD,
      confirmPassword: NEW_PASSWORD,
    });
    expectError(response, 401, ErrorMessages.invalidToken);
  });

  it('refuses a wrong current password, the same password, a mismatch and a short one', async () => {
    const member = await createMember(t.app);
    const before = await storedHash(member);
    expectError(
      await change(member, { currentPassword: 'not my password' }),
      400,
      AccountErrors.wrongPassword,
    );
    expectError(
      await change(member, { newPassword: member.password, confirmPassword: member.password }),
      400,
      AccountErrors.samePassword,
    );
    expectError(
      await change(member, { confirmPassword: 'something else' }),
      400,
      PASSWORD_MISMATCH,
    );
    expectError(
      await change(member, { newPassword: 'short', confirmPassword: 'short' }),
      400,
      'Password must be at least 8 characters.',
    );
    expectError(
      await change(member, { currentPassword: '' }),
      400,
      'Current password is required.',
    );
    // Nothing changed: the old password still signs in, every session still works.
    expect(await storedHash(member)).toBe(before);
    expect((await login(t.app, member.user.username, member.password)).statusCode).toBe(200);
    expect((await me(t.app, member.token)).statusCode).toBe(200);
  });

  it('keeps the shared guest account as it is, its password and the account itself', async () => {
    const guest = await createMember(t.app, {
      username: GUEST_CREDENTIALS.username,
      password: GUEST_CREDENTIALS.password,
      confirmPassword: GUEST_CREDENTIALS.password,
    });
    expectError(await change(guest), 403, AccountErrors.sharedGuest);
    expectError(await deleteOwnAccount(t.app, guest), 403, AccountErrors.sharedGuest);
    // A wrong password is told as such first: the refusal tells nothing to a stranger.
    expectError(
      await change(guest, { currentPassword: 'not the password' }),
      400,
      AccountErrors.wrongPassword,
    );
    expect((await login(t.app, guest.user.username, GUEST_CREDENTIALS.password)).statusCode).toBe(
      200,
    );
  });

  it('stores the new password and ends every other session, keeping this one', async () => {
    const member = await createMember(t.app);
    const other = (await login(t.app, member.user.username, member.password)).json<{
      encodedToken: string;
    }>().encodedToken;
    const third = (await login(t.app, member.user.username, member.password)).json<{
      encodedToken: string;
    }>().encodedToken;

    const response = await change(member);
    expect(response.statusCode, response.body).toBe(204);
    expect(response.body).toBe('');

    expect((await me(t.app, member.token)).statusCode).toBe(200);
    for (const token of [other, third]) {
      expectError(await me(t.app, token), 401, ErrorMessages.invalidToken);
    }
    expectError(
      await login(t.app, member.user.username, member.password),
      401,
      ErrorMessages.invalidCredentials,
    );
    const fresh = await login(t.app, member.user.username, NEW_PASSWORD);
    expect(fresh.statusCode, fresh.body).toBe(200);
    // Hashed like at signup: scrypt with the configured cost, never the password itself.
    const hash = await storedHash(member);
    expect(hash.startsWith(`scrypt$${t.config.passwordHashCost}$`)).toBe(true);
    expect(hash).not.toContain(NEW_PASSWORD);

    // The one session that changed it carries on, with the new password now the current one.
    expectError(await change(member), 400, AccountErrors.wrongPassword);
    const back = await change(member, {
      currentPassword: NEW_PASSWORD,
      newPassword: member.password,
      confirmPassword: member.password,
    });
    expect(back.statusCode, back.body).toBe(204);
  });

  it('lets one of two racing changes win', async () => {
    const member = await createMember(t.app);
    const answers = await Promise.all([
      change(member, { newPassword: 'first new password', confirmPassword: 'first new password' }),
      change(member, {
        newPassword: 'second new password',
        confirmPassword: 'second new password',
      }),
    ]);
    const statuses = answers.map((answer) => answer.statusCode).sort();
    // Both may win one after the other only if the second read the hash after the first wrote
    // it, and then its current password is wrong: one 204 and one 400, or the first of two.
    expect(statuses.filter((status) => status === 204)).toHaveLength(1);
    for (const answer of answers.filter((a) => a.statusCode !== 204)) {
      expectError(answer, 400, AccountErrors.wrongPassword);
    }
    const winner = answers.findIndex((answer) => answer.statusCode === 204);
    const password = winner === 0 ? 'first new password' : 'second new password';
    expect((await login(t.app, member.user.username, password)).statusCode).toBe(200);
  });
});

describe('password attempts', () => {
  it('are limited per member like logins (AUTH_RATE_LIMIT)', async () => {
    const limited = await createTestApp({ authRateLimitPerMinute: 3 });
    try {
      const member = await createMember(limited.app);
      const wrong = {
        currentPassword: 'not my password',
        newPassword: NEW_PASSWORD,
        confirmPassword: NEW_PASSWORD,
      };
      for (let i = 0; i < 3; i += 1) {
        expectError(
          await changePassword(limited.app, member.token, wrong),
          400,
          AccountErrors.wrongPassword,
        );
      }
      const blocked = await changePassword(limited.app, member.token, wrong);
      expect(blocked.statusCode, blocked.body).toBe(429);
      expect(blocked.json<{ errors: string[] }>().errors).toHaveLength(1);
      // Another member has an allowance of their own.
      const someoneElse = await createMember(limited.app);
      expectError(
        await changePassword(limited.app, someoneElse.token, wrong),
        400,
        AccountErrors.wrongPassword,
      );
    } finally {
      await limited.close();
    }
  });
});
