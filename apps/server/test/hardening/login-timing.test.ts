import type { User } from '@perch/contract';
import { describe, expect, it } from 'vitest';
import { createAuthService, type PasswordHasher } from '../../src/modules/auth/auth.service';
import type { UserRow } from '../../src/platform/db/schema';
import { hashPassword, verifyPassword } from '../../src/lib/password';

/**
 * A login costs one password check whether or not the name exists: a login for an unknown name
 * (or for a member who cannot sign in) is checked against a dummy hash, so its answer takes as long.
 */
function authWith(rows: UserRow[]) {
  const checked: string[] = [];
  const passwords: PasswordHasher = {
    hash: hashPassword,
    verify: async (password, stored) => {
      checked.push(stored);
      return verifyPassword(password, stored);
    },
  };
  const auth = createAuthService({
    users: {
      recordByUsername: (username) => Promise.resolve(rows.find((r) => r.username === username)),
      recordById: (id) => Promise.resolve(rows.find((r) => r.id === id)),
      register: () => Promise.reject(new Error('not in this test')),
    },
    sessions: {
      open: () => Promise.resolve({ id: 'session', expiresAt: Date.now() + 60_000 }),
      revoke: () => Promise.resolve([]),
    },
    passwordHashCost: 1024,
    signToken: () => 'token',
    passwords,
  });
  return { auth, checked };
}

const row = (username: string, passwordHash: string): UserRow => ({
  id: `id-${username}`,
  username,
  first_name: 'A',
  last_name: 'B',
  email: `${username}@example.com`,
  password_hash: passwordHash,
  bio: '',
  avatar_url: null,
  followers_count: 0,
  following_count: 0,
  posts_count: 0,
  created_at: 0,
  updated_at: 0,
  public_profile: 1,
  noindex: 0,
  always_show_sensitive: 0,
});

const context = { userAgent: 'test' };

describe('login timing', () => {
  it('checks a password hash for unknown names and members who cannot sign in', async () => {
    const real = await hashPassword('right password', 1024);
    const { auth, checked } = authWith([row('member', real), row('demo', '!')]);

    await expect(auth.login({ username: 'nobody', password: 'x' }, context)).rejects.toMatchObject({
      statusCode: 404,
    });
    await expect(auth.login({ username: 'demo', password: 'x' }, context)).rejects.toMatchObject({
      statusCode: 401,
    });
    await expect(
      auth.login({ username: 'member', password: 'wrong' }, context),
    ).rejects.toMatchObject({
      statusCode: 401,
    });
    const answer: { foundUser: User } = await auth.login(
      { username: 'member', password: 'right password' },
      context,
    );
    expect(answer.foundUser.username).toBe('member');

    expect(checked).toHaveLength(4);
    // The dummy is a real scrypt hash of the same cost, made once.
    expect(checked[0]).toMatch(/^scrypt\$1024\$/);
    expect(checked[1]).toBe(checked[0]);
    expect(checked.slice(2)).toEqual([real, real]);
  });
});
