import {
  ErrorMessages,
  MEDIA_URL_RULE,
  loginResponseSchema,
  userPageSchema,
  userResponseSchema,
  userSchema,
  type User,
} from '@perch/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMember, type Member } from '../factories';
import { call, createTestApp, type TestApp } from '../helpers';
import {
  bodyOf,
  countsOf,
  createMembers,
  createPost,
  expectError,
  fetchPost,
  follow,
  getUser,
  idsOf,
  uploadImage,
  walk,
  withQuery,
} from './social-helpers';

let t: TestApp;
let ada: Member;
let zephyr: Member;
let wren: Member;
beforeAll(async () => {
  t = await createTestApp();
  ada = await createMember(t.app, { firstName: 'Ada', lastName: 'Lovelace' });
  zephyr = await createMember(t.app, {
    username: `Kestrel_${process.pid}`,
    firstName: 'Zephyrine',
    lastName: 'Quillfeather',
  });
  wren = await createMember(t.app, {
    username: `wren_${process.pid}`,
    firstName: 'Bartholomew',
    lastName: 'Ashdown',
  });
});
afterAll(async () => {
  await t.close();
});

const edit = (token: string | undefined, userData: unknown) =>
  call(t.app, { method: 'POST', url: '/api/users/edit', token, payload: { userData } });

const names = (member: Member) => ({
  firstName: member.user.firstName,
  lastName: member.user.lastName,
});

const search = async (q: string | undefined, limit = 50) =>
  bodyOf(
    userPageSchema,
    await call(t.app, { method: 'GET', url: withQuery('/api/users', { q, limit }) }),
    200,
  );

describe('GET /api/users/{username}', () => {
  it('answers the member whatever the case of the name, without private fields', async () => {
    for (const name of [zephyr.user.username, zephyr.user.username.toUpperCase()]) {
      const response = await call(t.app, { method: 'GET', url: `/api/users/${name}` });
      const { user } = bodyOf(userResponseSchema, response, 200);
      expect(user).toMatchObject({
        _id: zephyr.user._id,
        username: zephyr.user.username,
        firstName: 'Zephyrine',
        lastName: 'Quillfeather',
        bio: '',
        avatarURL: null,
      });
      expect(user.email).toBeUndefined();
      expect(response.body).not.toMatch(/password|scrypt/i);
    }
  });

  it('answers 404 for an unknown member', async () => {
    const response = await call(t.app, { method: 'GET', url: '/api/users/nobody_at_all' });
    expectError(response, 404, ErrorMessages.userNotFound);
  });

  it("never shows another member's email or any password", async () => {
    await createPost(t.app, zephyr.token, 'visible to all');
    await follow(t.app, ada.token, zephyr.user._id);
    const responses = await Promise.all(
      [
        `/api/users/${zephyr.user.username}`,
        '/api/users',
        '/api/users?q=zeph',
        '/api/users/suggestions',
        '/api/posts',
        `/api/posts/user/${zephyr.user.username}`,
      ].map((url) => call(t.app, { method: 'GET', url, token: wren.token })),
    );
    responses.push(
      await call(t.app, {
        method: 'POST',
        url: `/api/users/follow/${zephyr.user._id}`,
        token: wren.token,
      }),
    );
    for (const response of responses) {
      expect(response.statusCode, response.body).toBeLessThan(300);
      for (const member of [ada, zephyr]) expect(response.body).not.toContain(member.user.email);
      expect(response.body).not.toMatch(/password|scrypt/i);
    }
  });
});

describe('POST /api/users/edit', () => {
  it('changes the names, bio and avatar, and nothing else', async () => {
    const member = await createMember(t.app);
    const before = await getUser(t.app, member.user.username);
    const avatarURL = await uploadImage(t.app, member.token, 'avatar');
    const response = await edit(member.token, {
      firstName: 'Grace',
      lastName: 'Hopper',
      bio: 'Compilers 🐛',
      avatarURL,
      password: 'a brand new password',
      _id: 'another-id',
      email: 'hijack@example.com',
      followersCount: 1000,
      followingCount: 1000,
      postsCount: 1000,
      createdAt: '2001-01-01T00:00:00.000Z',
    });
    const { user } = bodyOf(userResponseSchema, response, 200);
    expect(user).toMatchObject({
      _id: member.user._id,
      username: member.user.username,
      firstName: 'Grace',
      lastName: 'Hopper',
      bio: 'Compilers 🐛',
      avatarURL,
      createdAt: member.user.createdAt,
    });
    expect(countsOf(user)).toEqual(countsOf(before));
    expect(countsOf(await getUser(t.app, member.user.username))).toEqual(countsOf(before));

    const row = await t.app.db
      .selectFrom('users')
      .select(['email', 'first_name'])
      .where('id', '=', member.user._id)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ email: member.user.email, first_name: 'Grace' });

    const login = await call(t.app, {
      method: 'POST',
      url: '/api/auth/login',
      payload: { username: member.user.username, password: member.password },
    });
    expect(bodyOf(loginResponseSchema, login, 200).foundUser.firstName).toBe('Grace');
    const newPassword = await call(t.app, {
      method: 'POST',
      url: '/api/auth/login',
      payload: { username: member.user.username, password: 'a brand new password' },
    });
    expect(newPassword.statusCode).toBe(401);
  });

  it('shows the new name and avatar on the member’s posts', async () => {
    const member = await createMember(t.app);
    const post = await createPost(t.app, member.token, 'before the rename');
    const avatarURL = await uploadImage(t.app, member.token, 'avatar');
    const changed = { firstName: 'Renamed', lastName: 'Person', avatarURL };
    expect((await edit(member.token, changed)).statusCode).toBe(200);
    expect((await fetchPost(t.app, post._id)).author).toMatchObject(changed);
  });

  it('accepts the member’s own username, refuses another with 404', async () => {
    const member = await createMember(t.app);
    const same = await edit(member.token, { ...names(member), username: member.user.username });
    expect(bodyOf(userResponseSchema, same, 200).user.username).toBe(member.user.username);
    const other = await edit(member.token, { ...names(member), username: 'someone_else' });
    expectError(other, 404, ErrorMessages.usernameImmutable);
    expect((await getUser(t.app, member.user.username)).username).toBe(member.user.username);
  });

  it('trims names and keeps a bio and avatar that are not sent', async () => {
    const member = await createMember(t.app);
    const avatarURL = await uploadImage(t.app, member.token, 'avatar');
    await edit(member.token, { ...names(member), bio: 'kept', avatarURL });
    const response = await edit(member.token, { firstName: '  Trim  ', lastName: ' Me ' });
    expect(bodyOf(userResponseSchema, response, 200).user).toMatchObject({
      firstName: 'Trim',
      lastName: 'Me',
      bio: 'kept',
      avatarURL,
    });
    const cleared = await edit(member.token, {
      firstName: 'Trim',
      lastName: 'Me',
      avatarURL: null,
    });
    expect(bodyOf(userResponseSchema, cleared, 200).user.avatarURL).toBeNull();
  });

  it.each([
    ['a blank first name', { firstName: '   ' }, 'First name is required.'],
    ['a missing last name', { lastName: undefined }, 'Last name is required.'],
    [
      'a 51 character name',
      { lastName: 'x'.repeat(51) },
      'Last name must be at most 50 characters.',
    ],
    ['a 301 character bio', { bio: 'b'.repeat(301) }, 'Bio must be at most 300 characters.'],
    ['an avatar from elsewhere', { avatarURL: 'https://evil.example/a.png' }, MEDIA_URL_RULE],
    ['an avatar never uploaded', { avatarURL: '/media/never-uploaded.png' }, MEDIA_URL_RULE],
  ])('answers 400 for %s and changes nothing', async (_label, change, message) => {
    const member = await createMember(t.app);
    const response = await edit(member.token, { ...names(member), bio: 'original', ...change });
    expect(response.statusCode, response.body).toBe(400);
    expect(response.json<{ errors: string[] }>().errors).toContain(message);
    const user = await getUser(t.app, member.user.username);
    expect(user).toMatchObject({ ...names(member), bio: '', avatarURL: null });
  });

  it('counts bio length in characters: 300 emoji are fine', async () => {
    const member = await createMember(t.app);
    const bio = '🦜'.repeat(300);
    const response = await edit(member.token, { ...names(member), bio });
    expect(bodyOf(userResponseSchema, response, 200).user.bio).toBe(bio);
  });

  it('answers 401 without a token', async () => {
    expectError(
      await edit(undefined, { firstName: 'A', lastName: 'B' }),
      401,
      ErrorMessages.invalidToken,
    );
  });
});

describe('GET /api/users?q=', () => {
  const matches = (user: User, q: string) =>
    [user.username, user.firstName, user.lastName].some((field) =>
      field.toLowerCase().includes(q.toLowerCase()),
    );

  it.each([
    ['a first name in another case', 'zEPHYR'],
    ['a last name in capitals', 'QUILLFEATHER'],
    ['a username in lower case', 'kestrel'],
    ['a substring in the middle', 'illfeat'],
  ])('finds members by %s', async (_label, q) => {
    const { users } = await search(q);
    expect(idsOf(users)).toContain(zephyr.user._id);
    for (const user of users) expect(matches(user, q), user.username).toBe(true);
    expect(idsOf(users)).not.toContain(wren.user._id);
  });

  it('answers an empty list when nothing matches, and treats wildcards literally', async () => {
    for (const q of ['zzz', '%', 'a%e', '\\']) {
      expect(await search(q), q).toEqual({ users: [], nextCursor: null });
    }
  });

  it('lists every member without q, page by page', async () => {
    const total = (await t.app.db.selectFrom('users').select('id').execute()).length;
    const all = await walk(t.app, '/api/users', 'users', userSchema, { limit: 3 });
    expect(new Set(idsOf(all.items)).size).toBe(total);
    expect(all.items).toHaveLength(total);
    const matching = await walk(t.app, '/api/users', 'users', userSchema, {
      limit: 1,
      query: { q: 'o' },
    });
    expect(new Set(idsOf(matching.items)).size).toBe(matching.items.length);
    expect(idsOf(matching.items)).toEqual(expect.arrayContaining([ada.user._id, wren.user._id]));
  });

  it('refuses a search text over 100 characters', async () => {
    const response = await call(t.app, {
      method: 'GET',
      url: withQuery('/api/users', { q: 'q'.repeat(101) }),
    });
    expectError(response, 400, 'Search text must be at most 100 characters.');
  });
});

describe('GET /api/users/suggestions', () => {
  it('suggests members the viewer does not follow, most followed first', async () => {
    const [viewer, followed, popular] = await createMembers(t.app, 3);
    await follow(t.app, viewer.token, followed.user._id);
    for (const fan of [ada, zephyr, wren]) await follow(t.app, fan.token, popular.user._id);

    const { items } = await walk(t.app, '/api/users/suggestions', 'users', userSchema, {
      token: viewer.token,
      limit: 2,
    });
    const ids = idsOf(items);
    expect(ids).not.toContain(viewer.user._id);
    expect(ids).not.toContain(followed.user._id);
    expect(ids).toEqual(expect.arrayContaining([popular.user._id, ada.user._id]));
    expect(new Set(ids).size).toBe(ids.length);
    const counts = items.map((user) => user.followersCount);
    expect(counts).toEqual([...counts].sort((a, b) => b - a));
    expect(ids[0]).toBe(popular.user._id);
    for (const user of items) expect(user.followedByViewer ?? false).toBe(false);
  });

  it('answers 401 without a token', async () => {
    const response = await call(t.app, { method: 'GET', url: '/api/users/suggestions' });
    expectError(response, 401, ErrorMessages.invalidToken);
  });
});
