import {
  EMBEDDED_COMMENTS_MAX,
  ErrorMessages,
  FOLLOWING_LIMIT_REACHED,
  FOLLOWING_MAX,
  PROFILE_RELATIONS_MAX,
  followResponseSchema,
  loginResponseSchema,
  postMutationResponseSchema,
  postPageSchema,
  postResponseSchema,
  userPageSchema,
  userResponseSchema,
  type User,
} from '@perch/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Member } from '../factories';
import { call, createTestApp, type TestApp } from '../helpers';
import {
  insertComments,
  insertFollowees,
  insertFollowers,
  insertLikes,
  insertMembers,
} from './bulk';
import {
  MINIMAL,
  bodyOf,
  bookmark,
  createMembers,
  createPost,
  expectError,
  follow,
  like,
  unfollow,
  upvote,
  addComment,
} from './social-helpers';

let t: TestApp;
let author: Member;
let viewer: Member;
let other: Member;
beforeAll(async () => {
  t = await createTestApp();
  [author, viewer, other] = await createMembers(t.app, 3);
});
afterAll(async () => {
  await t.close();
});

const get = (url: string, headers: Record<string, string> = {}, token?: string) =>
  call(t.app, { method: 'GET', url, headers, token });

async function sessionCookieOf(member: Member): Promise<string> {
  const response = await call(t.app, {
    method: 'POST',
    url: '/api/auth/login',
    payload: { username: member.user.username, password: member.password },
  });
  const cookie = response.cookies.find((c) => c.name === 'perch_session');
  if (!cookie) throw new Error('login set no session cookie');
  return `perch_session=${cookie.value}`;
}

async function profileOf(username: string, headers: Record<string, string> = {}) {
  return bodyOf(userResponseSchema, await get(`/api/users/${username}`, headers), 200).user;
}

const usernames = (users: readonly { username: string }[] | undefined) =>
  (users ?? []).map((user) => user.username);

describe('ids', () => {
  it('gives every record both _id and id', async () => {
    const post = await createPost(t.app, author.token, 'two names for one id');
    await like(t.app, viewer.token, post._id);
    const comment = await addComment(t.app, other.token, post._id, 'hello');
    const answer = bodyOf(
      postResponseSchema,
      await get(`/api/posts/${post._id}`, {}, viewer.token),
      200,
    );
    const records = [
      answer.post,
      answer.post.author,
      ...answer.post.likes.likedBy,
      ...(answer.post.comments ?? []),
      comment,
      await profileOf(author.user.username),
    ];
    expect(records.length).toBe(6);
    for (const record of records) expect(record.id).toBe(record._id);
  });
});

describe('the session cookie on open reads', () => {
  it('personalises reads that send no token, and never authorises a write', async () => {
    const post = await createPost(t.app, author.token, 'liked through a cookie');
    await like(t.app, viewer.token, post._id);
    const cookie = await sessionCookieOf(viewer);

    const page = bodyOf(postPageSchema, await get('/api/posts', { cookie }), 200);
    const seen = page.posts.find((p) => p._id === post._id);
    expect(seen?.likedByViewer).toBe(true);
    expect(usernames(seen?.likes.likedBy)).toEqual([viewer.user.username]);

    const anonymous = bodyOf(postPageSchema, await get('/api/posts'), 200);
    expect(anonymous.posts.find((p) => p._id === post._id)?.likes.likedBy).toEqual([]);

    const write = await call(t.app, {
      method: 'POST',
      url: `/api/posts/dislike/${post._id}`,
      headers: { cookie },
    });
    expectError(write, 401, ErrorMessages.invalidToken);
  });

  it('ignores a bad or expired cookie on reads, but refuses a bad token in the header', async () => {
    const { sid } = t.app.jwt.decode<{ sid: string }>(viewer.token) ?? { sid: '' };
    const expired = t.app.jwt.sign(
      { username: viewer.user.username, sid },
      { sub: viewer.user._id, expiresIn: -10 },
    );
    for (const value of ['garbage', expired]) {
      const response = await get('/api/posts', { cookie: `perch_session=${value}` });
      expect(response.statusCode, response.body).toBe(200);
    }
    const cookie = await sessionCookieOf(viewer);
    expectError(
      await get('/api/posts', { cookie, authorization: 'garbage' }),
      401,
      ErrorMessages.invalidToken,
    );
  });

  it('ends with the browser session: login, signup and a renewal set no expiry', async () => {
    const login = await call(t.app, {
      method: 'POST',
      url: '/api/auth/login',
      payload: { username: viewer.user.username, password: viewer.password },
    });
    const signup = await call(t.app, {
      method: 'POST',
      url: '/api/auth/signup',
      payload: {
        firstName: 'Shared',
        lastName: 'Computer',
        email: 'shared.computer@example.com',
        username: 'shared_computer',
        password: 'a long enough password',
        confirmPassword: 'a long enough password',
      },
    });
    const renewal = await call(t.app, {
      method: 'POST',
      url: '/api/auth/session',
      token: viewer.token,
    });
    for (const response of [login, signup, renewal]) {
      const header = String(response.headers['set-cookie']);
      expect(header).toMatch(/^perch_session=[^;]+;/);
      expect(header).not.toMatch(/max-age|expires/i);
      expect(header).toMatch(/HttpOnly/i);
      expect(header).toMatch(/SameSite=Strict/i);
    }
  });

  it('ends with logout, which clears the cookie', async () => {
    const response = await call(t.app, { method: 'POST', url: '/api/auth/logout' });
    expect(response.statusCode).toBe(204);
    const cleared = response.cookies.find((c) => c.name === 'perch_session');
    expect(cleared?.value).toBe('');
    expect(cleared?.path).toBe('/api');
  });
});

describe("a post's embedded comments", () => {
  it('holds the first comments, oldest first, with commentCount the total', async () => {
    const post = await createPost(t.app, author.token, 'much discussed');
    const total = EMBEDDED_COMMENTS_MAX + 5;
    await insertComments(
      t.app,
      post._id,
      Array.from({ length: total }, (_, i) => (i % 2 === 0 ? other.user._id : viewer.user._id)),
    );
    const quiet = await createPost(t.app, author.token, 'nothing to say');

    const page = bodyOf(postPageSchema, await get('/api/posts'), 200);
    const discussed = page.posts.find((p) => p._id === post._id);
    expect(discussed?.commentCount).toBe(total);
    expect(discussed?.comments?.map((c) => c.text)).toEqual(
      Array.from({ length: EMBEDDED_COMMENTS_MAX }, (_, i) => `Comment ${i}`),
    );
    expect(discussed?.comments?.[0]?.username).toBe(other.user.username);
    expect(page.posts.find((p) => p._id === quiet._id)?.comments).toEqual([]);
  });

  it('holds all of a post with as many comments as are embedded, beside busier posts', async () => {
    const counts = { full: EMBEDDED_COMMENTS_MAX, over: EMBEDDED_COMMENTS_MAX + 1, one: 1 };
    const ids: Record<string, string> = {};
    for (const [name, count] of Object.entries(counts)) {
      ids[name] = (await createPost(t.app, author.token, `${name} thread`))._id;
      const commenters = Array.from({ length: count }, (_, i) =>
        i % 2 === 0 ? viewer.user._id : other.user._id,
      );
      await insertComments(t.app, ids[name], commenters, (i) => `${name} ${i}`);
    }

    const page = bodyOf(postPageSchema, await get('/api/posts'), 200);
    for (const [name, count] of Object.entries(counts)) {
      const embedded = page.posts.find((p) => p._id === ids[name])?.comments;
      const shown = Math.min(count, EMBEDDED_COMMENTS_MAX);
      expect(embedded?.map((c) => c.text)).toEqual(
        Array.from({ length: shown }, (_, i) => `${name} ${i}`),
      );
      expect(embedded?.every((c) => c.postId === ids[name])).toBe(true);
    }
  });

  it("shows the reader's own votes and is left out for a minimal reader", async () => {
    const post = await createPost(t.app, author.token, 'vote on my comments');
    const comment = await addComment(t.app, other.token, post._id, 'upvote me');
    await upvote(t.app, viewer.token, post._id, comment._id);

    const seen = bodyOf(
      postResponseSchema,
      await get(`/api/posts/${post._id}`, {}, viewer.token),
      200,
    ).post;
    expect(usernames(seen.comments?.[0]?.votes.upvotedBy)).toEqual([viewer.user.username]);

    const lean = await get(`/api/posts/${post._id}`, MINIMAL, viewer.token);
    expect(Object.keys(lean.json<{ post: object }>().post)).not.toContain('comments');
  });

  it('is in every post of a mutation answer, the new comment included', async () => {
    const post = await createPost(t.app, author.token, 'comment here');
    const response = await call(t.app, {
      method: 'POST',
      url: `/api/comments/add/${post._id}`,
      token: viewer.token,
      payload: { commentData: { text: 'first!' } },
    });
    expect(response.statusCode, response.body).toBe(201);
    const body = response.json<{ post: { comments: { text: string }[] }; posts: object[] }>();
    expect(body.post.comments.map((c) => c.text)).toEqual(['first!']);
    expect(body.posts.length).toBeGreaterThan(0);
    for (const listed of body.posts) expect(listed).toHaveProperty('comments');
  });
});

describe("the viewer's own record", () => {
  it('lists everyone they follow, their followers and their newest bookmarks', async () => {
    const [me, a, b, fan] = await createMembers(t.app, 4);
    await follow(t.app, me.token, a.user._id);
    await follow(t.app, me.token, b.user._id);
    await follow(t.app, fan.token, me.user._id);
    const first = await createPost(t.app, a.token, 'saved first');
    const second = await createPost(t.app, b.token, 'saved second');
    await bookmark(t.app, me.token, first._id);
    await bookmark(t.app, me.token, second._id);

    const response = await call(t.app, {
      method: 'POST',
      url: '/api/auth/login',
      payload: { username: me.user.username, password: me.password },
    });
    const { foundUser } = bodyOf(loginResponseSchema, response, 200);
    expect(usernames(foundUser.following).sort()).toEqual(
      [a.user.username, b.user.username].sort(),
    );
    const stubOf = (member: Member) => ({
      _id: member.user._id,
      id: member.user._id,
      username: member.user.username,
      firstName: member.user.firstName,
      lastName: member.user.lastName,
      avatarURL: null,
    });
    expect(foundUser.following).toContainEqual(stubOf(a));
    expect(foundUser.followers).toEqual([stubOf(fan)]);
    expect(usernames(foundUser.followers)).toEqual([fan.user.username]);
    expect(foundUser.bookmarks).toEqual([second._id, first._id]);
    expect(foundUser.followingCount).toBe(2);

    const me2 = bodyOf(userResponseSchema, await get('/api/auth/me', {}, me.token), 200).user;
    expect(me2.bookmarks).toEqual(foundUser.bookmarks);
    expect(usernames(me2.following).sort()).toEqual(usernames(foundUser.following).sort());
  });

  it('is what follow and unfollow answer, beside the profile of the member followed', async () => {
    const [me, target, fan] = await createMembers(t.app, 3);
    await follow(t.app, fan.token, target.user._id);
    const followed = bodyOf(
      followResponseSchema,
      await follow(t.app, me.token, target.user._id),
      200,
    );
    expect(usernames(followed.user.following)).toEqual([target.user.username]);
    // The reader comes first among the followers, whatever the order of the rest.
    expect(usernames(followed.followUser.followers)).toEqual([me.user.username, fan.user.username]);
    expect(followed.followUser.followersCount).toBe(2);

    const left = bodyOf(
      followResponseSchema,
      await unfollow(t.app, me.token, target.user._id),
      200,
    );
    expect(left.user.following).toEqual([]);
    expect(usernames(left.followUser.followers)).toEqual([fan.user.username]);

    const lean = await follow(t.app, me.token, target.user._id, MINIMAL);
    const body = lean.json<{ user: User; followUser: User }>();
    for (const key of ['followers', 'following', 'bookmarks']) {
      expect(Object.keys(body.user)).not.toContain(key);
      expect(Object.keys(body.followUser)).not.toContain(key);
    }
  });
});

describe('profiles and lists', () => {
  it("lists a profile's first followers, with the reader first when they follow", async () => {
    const [star] = await createMembers(t.app, 1);
    const crowd = await insertMembers(t.app, PROFILE_RELATIONS_MAX + 20);
    // Joined after the crowd: past the first PROFILE_RELATIONS_MAX in join order.
    const [fan] = await createMembers(t.app, 1);
    await insertFollowers(t.app, star.user._id, crowd);
    await insertFollowees(t.app, star.user._id, crowd.slice(0, 3));
    await follow(t.app, fan.token, star.user._id);
    const cookie = await sessionCookieOf(fan);

    const seen = await profileOf(star.user.username, { cookie });
    expect(seen.followersCount).toBe(crowd.length + 1);
    expect(seen.followers).toHaveLength(PROFILE_RELATIONS_MAX);
    expect(seen.followers?.[0]?.username).toBe(fan.user.username);
    expect(new Set(seen.followers?.map((u) => u._id)).size).toBe(PROFILE_RELATIONS_MAX);
    expect(seen.following?.map((u) => u._id)).toEqual(crowd.slice(0, 3));
    expect(seen.following).toHaveLength(seen.followingCount);

    const anonymous = await profileOf(star.user.username);
    expect(anonymous.followers).toHaveLength(PROFILE_RELATIONS_MAX);
    expect(usernames(anonymous.followers)).not.toContain(fan.user.username);
    // The first of them in id order, each list read as one joined value.
    const firstInIdOrder = [...crowd].sort().slice(0, PROFILE_RELATIONS_MAX);
    expect(anonymous.followers?.map((u) => u._id)).toEqual(firstInIdOrder);
    expect(seen.followers?.slice(1).map((u) => u._id)).toEqual(firstInIdOrder.slice(0, -1));
  });

  it('shows a listed member as they are now, right after they edit their profile', async () => {
    const [star, fan] = await createMembers(t.app, 2);
    await follow(t.app, fan.token, star.user._id);
    await follow(t.app, star.token, fan.user._id);
    const stubIn = async (list: 'followers' | 'following') =>
      (await profileOf(star.user.username))[list]?.find((u) => u._id === fan.user._id);
    // Read twice: the second read answers from what the first kept.
    for (let read = 0; read < 2; read += 1) {
      expect((await stubIn('followers'))?.firstName).toBe(fan.user.firstName);
    }

    const edited = await call(t.app, {
      method: 'POST',
      url: '/api/users/edit',
      token: fan.token,
      payload: { userData: { firstName: 'Renamed', lastName: 'Fan' } },
    });
    expect(edited.statusCode).toBe(200);
    for (const list of ['followers', 'following'] as const) {
      expect(await stubIn(list)).toMatchObject({ firstName: 'Renamed', lastName: 'Fan' });
    }
    const own = bodyOf(userResponseSchema, await get('/api/auth/me', {}, star.token), 200).user;
    expect(own.followers?.find((u) => u._id === fan.user._id)?.firstName).toBe('Renamed');
  });

  it('puts at most the reader in the arrays of listed members', async () => {
    const [me, followed, fan, stranger] = await createMembers(t.app, 4);
    await follow(t.app, me.token, followed.user._id);
    await follow(t.app, fan.token, me.user._id);
    const cookie = await sessionCookieOf(me);
    const names = [followed, fan, stranger].map((m) => m.user.username);

    const [f, n, s] = await Promise.all(
      names.map(async (name) => {
        const page = bodyOf(userPageSchema, await get(`/api/users?q=${name}`, { cookie }), 200);
        return page.users.find((user) => user.username === name);
      }),
    );
    expect(usernames(f?.followers)).toEqual([me.user.username]);
    expect(f?.following).toEqual([]);
    expect(n?.followers).toEqual([]);
    expect(usernames(n?.following)).toEqual([me.user.username]);
    expect([s?.followers, s?.following]).toEqual([[], []]);
  });
});

describe('the following limit', () => {
  it(`refuses a follow past ${FOLLOWING_MAX} with a 400, and lists all of them`, async () => {
    const [me, one] = await createMembers(t.app, 2);
    const many = await insertMembers(t.app, FOLLOWING_MAX);
    await insertFollowees(t.app, me.user._id, many);

    expectError(await follow(t.app, me.token, one.user._id), 400, FOLLOWING_LIMIT_REACHED);
    const own = bodyOf(userResponseSchema, await get('/api/auth/me', {}, me.token), 200).user;
    expect(own.followingCount).toBe(FOLLOWING_MAX);
    expect(own.following).toHaveLength(FOLLOWING_MAX);
    expect((await profileOf(one.user.username)).followersCount).toBe(0);

    await unfollow(t.app, me.token, many[0] ?? '');
    const followed = bodyOf(followResponseSchema, await follow(t.app, me.token, one.user._id), 200);
    expect(followed.user.followingCount).toBe(FOLLOWING_MAX);
  });
});

describe('payload bounds', () => {
  it('keeps answers small for a member with 20,000 followers and a post with 500 comments', async () => {
    const [star] = await createMembers(t.app, 1);
    const crowd = await insertMembers(t.app, 20_000);
    await insertFollowers(t.app, star.user._id, crowd);
    const post = await createPost(t.app, star.token, 'a popular post');
    await insertComments(t.app, post._id, crowd.slice(0, 500));
    await insertLikes(t.app, post._id, crowd.slice(0, 5000));
    const cookie = await sessionCookieOf(viewer);

    const profile = await get(`/api/users/${star.user.username}`, { cookie });
    const single = await get(`/api/posts/${post._id}`, { cookie });
    const page = await get(`/api/posts/user/${star.user.username}`, { cookie });
    const sizes = {
      profile: profile.rawPayload.length,
      post: single.rawPayload.length,
      page: page.rawPayload.length,
    };
    // The bounds docs/api.md's "Where Perch differs from the original mock API" states for these answers.
    expect(sizes.profile).toBeLessThan(200 * 1024);
    expect(sizes.post).toBeLessThan(16 * 1024);
    expect(sizes.page).toBeLessThan(64 * 1024);
    const shown = bodyOf(postResponseSchema, single, 200).post;
    expect(shown.likes.likeCount).toBe(5000);
    expect(shown.commentCount).toBe(500);
    expect(shown.comments?.map((c) => c.text)).toEqual(
      Array.from({ length: EMBEDDED_COMMENTS_MAX }, (_, i) => `Comment ${i}`),
    );
    const mutation = await like(t.app, viewer.token, post._id);
    expect(bodyOf(postMutationResponseSchema, mutation, 201).post.likes.likedBy).toHaveLength(1);
  }, 60_000);
});
