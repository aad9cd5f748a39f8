import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { AccountErrors, ErrorMessages } from '@perch/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mediaDirOf } from '../../src/app/app';
import { newId } from '../../src/lib/ids';
import { drain, lastOutboxId, outboxAfter } from '../events/event-helpers';
import { createMember, type Member } from '../factories';
import { call, createTestApp, type TestApp } from '../helpers';
import {
  MINIMAL,
  addComment,
  bookmark,
  createPost,
  downvote,
  expectError,
  fetchPost,
  follow,
  getPost,
  getUser,
  like,
  pngImage,
  upvote,
  uploadImage,
} from '../social/social-helpers';
import {
  NOTHING_LEFT,
  NO_MISMATCH,
  NO_ORPHANS,
  counterMismatches,
  deleteAccount,
  deleteOwnAccount,
  login,
  me,
  orphanRows,
  rowsOfMember,
  uploadBytes,
} from './account-helpers';

const DEMO_URL = '/media/demo/account-test.svg';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
  // A demo image as the seed leaves them: a file under media/demo that a post already shows.
  const demoDir = path.join(mediaDirOf(t.config), 'demo');
  mkdirSync(demoDir, { recursive: true });
  writeFileSync(
    path.join(demoDir, 'account-test.svg'),
    '<svg xmlns="http://www.w3.org/2000/svg"/>',
  );
});
afterAll(async () => {
  await t.close();
});

const fileOf = (url: string) =>
  path.join(mediaDirOf(t.config), ...url.slice('/media/'.length).split('/'));
const thumbnailOf = (url: string) => fileOf(url.replace(/\.(\w+)$/, '.thumb.$1'));

async function ok(response: Promise<{ statusCode: number; body: string }>, status = 201) {
  const answer = await response;
  expect(answer.statusCode, answer.body).toBe(status);
}

async function setAvatar(member: Member, avatarURL: string) {
  await ok(
    call(t.app, {
      method: 'POST',
      url: '/api/users/edit',
      token: member.token,
      payload: { userData: { firstName: 'Gone', lastName: 'Soon', avatarURL } },
    }),
    200,
  );
}

const unreadOf = async (userId: string) =>
  (
    await t.app.db
      .selectFrom('notifications')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('recipient_id', '=', userId)
      .where('read_at', 'is', null)
      .executeTakeFirstOrThrow()
  ).n;

describe('DELETE /api/users/me', () => {
  it('needs a signed-in member, the password and the username', async () => {
    const member = await createMember(t.app);
    expectError(
      await deleteAccount(t.app, undefined, { password: 'x', username: 'y' }),
      401,
      ErrorMessages.invalidToken,
    );
    expectError(
      await deleteAccount(t.app, member.token, {
        password: 'not my password',
        username: member.user.username,
      }),
      400,
      AccountErrors.wrongPassword,
    );
    expectError(
      await deleteAccount(t.app, member.token, {
        password: member.password,
        username: `${member.user.username}x`,
      }),
      400,
      AccountErrors.wrongUsername,
    );
    expectError(
      await deleteAccount(t.app, member.token, { password: member.password }),
      400,
      AccountErrors.wrongUsername,
    );
    expectError(
      await deleteAccount(t.app, member.token, { username: member.user.username }),
      400,
      'Password is required.',
    );
    expect((await me(t.app, member.token)).statusCode).toBe(200);
    expect((await getUser(t.app, member.user.username)).username).toBe(member.user.username);
  });

  it('removes the member and everything of theirs, keeping every other count right', async () => {
    const [m, a, b, c] = [
      await createMember(t.app),
      await createMember(t.app),
      await createMember(t.app),
      await createMember(t.app),
    ];
    const second = (await login(t.app, m.user.username, m.password)).json<{
      encodedToken: string;
    }>().encodedToken;
    // A demo post by someone else makes the demo image usable, as the seed does.
    const demoPostId = newId();
    await t.app.db
      .insertInto('posts')
      .values({
        id: demoPostId,
        user_id: c.user._id,
        content: 'demo',
        entities: null,
        media_url: DEMO_URL,
        created_at: Date.now(),
        updated_at: Date.now(),
      })
      .execute();
    await t.app.db
      .insertInto('post_media')
      .values({ post_id: demoPostId, position: 0, url: DEMO_URL })
      .execute();
    await t.app.db
      .updateTable('users')
      .set({ posts_count: 1 })
      .where('id', '=', c.user._id)
      .execute();

    // Follows both ways, and one between others.
    for (const [who, whom] of [
      [m, a],
      [m, b],
      [a, m],
      [c, m],
      [a, b],
    ] as const) {
      await ok(follow(t.app, who.token, whom.user._id, MINIMAL), 200);
    }

    // A block and a mute each way (with members the test does not otherwise involve, so that
    // nothing above is hidden); they go with the account.
    const blocker = await createMember(t.app);
    const blocked = await createMember(t.app);
    for (const [who, action, whom] of [
      [m, 'block', blocked],
      [blocker, 'block', m],
      [m, 'mute', blocker],
      [blocked, 'mute', m],
    ] as const) {
      const url = `/api/users/${action}/${whom.user._id}`;
      await ok(call(t.app, { method: 'POST', url, token: who.token }), 204);
    }

    // Images: the member's own, one they share with a post of a's, one a uploaded but not posted.
    const own1 = await uploadImage(t.app, m.token);
    const own2 = await uploadImage(t.app, m.token);
    const avatar = await uploadImage(t.app, m.token, 'avatar');
    const sharedBytes = pngImage();
    const shared = await uploadBytes(t.app, m.token, sharedBytes);
    expect(await uploadBytes(t.app, a.token, sharedBytes)).toBe(shared);
    const pendingBytes = pngImage();
    const pending = await uploadBytes(t.app, m.token, pendingBytes);
    expect(await uploadBytes(t.app, a.token, pendingBytes)).toBe(pending);
    await setAvatar(m, avatar);

    const p1 = await createPost(t.app, m.token, `#alpha #beta hello @${a.user.username}`, own1);
    const p2 = await createPost(t.app, m.token, '#beta on a demo picture', DEMO_URL);
    const p3 = await createPost(t.app, m.token, 'shared picture', shared);
    const p4 = await createPost(t.app, m.token, '#gamma pending picture', pending);
    const p5 = await createPost(t.app, m.token, '#Gamma again', own2);
    const a1 = await createPost(t.app, a.token, `#beta from a, hi @${m.user.username}`);
    const a2 = await createPost(t.app, a.token, 'the same picture', shared);
    const b1 = await createPost(t.app, b.token, 'b writes #delta');

    // The member's doings on others' posts.
    await ok(like(t.app, m.token, a1._id, MINIMAL));
    await ok(like(t.app, m.token, b1._id, MINIMAL));
    await ok(like(t.app, m.token, p1._id, MINIMAL));
    const mOnA1 = await addComment(t.app, m.token, a1._id, `#alpha by m for @${b.user.username}`);
    const mOnB1 = await addComment(t.app, m.token, b1._id, 'm on b1');
    const mOnP1 = await addComment(t.app, m.token, p1._id, 'm on own post');
    const aOnB1 = await addComment(t.app, a.token, b1._id, 'a on b1');
    const cOnB1 = await addComment(t.app, c.token, b1._id, 'c on b1');
    await ok(upvote(t.app, m.token, b1._id, aOnB1._id, MINIMAL));
    await ok(downvote(t.app, m.token, b1._id, cOnB1._id, MINIMAL));
    await ok(upvote(t.app, b.token, b1._id, cOnB1._id, MINIMAL));
    await ok(bookmark(t.app, m.token, a1._id, MINIMAL), 200);
    await ok(bookmark(t.app, m.token, p2._id, MINIMAL), 200);

    // Others' doings on the member's posts and comments.
    await ok(like(t.app, a.token, p1._id, MINIMAL));
    await ok(like(t.app, b.token, p1._id, MINIMAL));
    await ok(like(t.app, c.token, p4._id, MINIMAL));
    const cOnP1 = await addComment(t.app, c.token, p1._id, `c on p1 for @${b.user.username}`);
    await addComment(t.app, a.token, p2._id, '#epsilon a on p2');
    await ok(upvote(t.app, a.token, p1._id, cOnP1._id, MINIMAL));
    await ok(upvote(t.app, b.token, a1._id, mOnA1._id, MINIMAL));
    await ok(bookmark(t.app, b.token, p1._id, MINIMAL), 200);
    await ok(bookmark(t.app, a.token, p4._id, MINIMAL), 200);

    // Home timelines: the member's own, and a's, which holds the member's posts.
    for (const member of [m, a]) {
      await ok(call(t.app, { method: 'GET', url: '/api/posts/feed', token: member.token }), 200);
    }
    await t.app.services.timelines.idle();
    await drain(t.app);
    // The cards of others' posts the member touched, read twice so that the cache keeps them.
    for (let i = 0; i < 2; i += 1) {
      await call(t.app, { method: 'GET', url: '/api/posts?limit=50', token: c.token });
    }

    const userId = m.user._id;
    const postIds = [p1, p2, p3, p4, p5].map((post) => post._id);
    const commentIds = [mOnA1, mOnB1, mOnP1].map((comment) => comment._id);
    const before = await rowsOfMember(t.app.db, userId, postIds, commentIds);
    for (const table of Object.keys(NOTHING_LEFT)) {
      expect(before[table], `${table} before the deletion`).toBeGreaterThan(0);
    }
    const unreadBefore = { a: await unreadOf(a.user._id), b: await unreadOf(b.user._id) };
    const since = await lastOutboxId(t.app);

    const response = await deleteAccount(t.app, m.token, {
      password: m.password,
      username: ` ${m.user.username.toUpperCase()} `,
    });
    expect(response.statusCode, response.body).toBe(204);
    expect(response.body).toBe('');
    expect(String(response.headers['set-cookie'])).toMatch(
      /perch_session=;.*Expires=Thu, 01 Jan 1970/,
    );
    await drain(t.app);

    expect(await rowsOfMember(t.app.db, userId, postIds, commentIds)).toEqual(NOTHING_LEFT);
    expect(await counterMismatches(t.app.db)).toEqual(NO_MISMATCH);
    expect(await orphanRows(t.app.db)).toEqual(NO_ORPHANS);

    // Counts as others see them, through the API (the card cache dropped what changed).
    expect(await fetchPost(t.app, a1._id, c.token)).toMatchObject({
      likes: { likeCount: 0 },
      commentCount: 0,
    });
    expect(await fetchPost(t.app, b1._id, c.token)).toMatchObject({
      likes: { likeCount: 0 },
      commentCount: 2,
    });
    const votes = await t.app.db
      .selectFrom('comments')
      .select(['id', 'upvote_count', 'downvote_count'])
      .where('id', 'in', [aOnB1._id, cOnB1._id])
      .orderBy('id')
      .execute();
    expect(
      Object.fromEntries(votes.map((v) => [v.id, [v.upvote_count, v.downvote_count]])),
    ).toEqual({ [aOnB1._id]: [0, 0], [cOnB1._id]: [1, 0] });
    expect(await getUser(t.app, a.user.username)).toMatchObject({
      followersCount: 0,
      followingCount: 1,
      postsCount: 2,
    });
    expect(await getUser(t.app, b.user.username)).toMatchObject({
      followersCount: 1,
      followingCount: 0,
    });
    expect(await getUser(t.app, c.user.username)).toMatchObject({ followingCount: 0 });
    const tags = await t.app.db.selectFrom('tags').selectAll().orderBy('name').execute();
    expect(tags).toEqual([
      { name: 'beta', post_count: 1 },
      { name: 'delta', post_count: 1 },
    ]);

    // Gone for everyone, and the old tokens with it.
    expectError(await getPost(t.app, p1._id), 404, ErrorMessages.postNotFound);
    expectError(
      await call(t.app, { method: 'GET', url: `/api/users/${m.user.username}` }),
      404,
      ErrorMessages.userNotFound,
    );
    for (const token of [m.token, second]) {
      expectError(await me(t.app, token), 401, ErrorMessages.invalidToken);
      expectError(
        await call(t.app, { method: 'POST', url: `/api/posts/like/${b1._id}`, token }),
        401,
        ErrorMessages.invalidToken,
      );
    }
    expectError(await login(t.app, m.user.username, m.password), 404, ErrorMessages.notRegistered);

    // Events: the deletion, the sessions it ended, and the unread counts it changed.
    const events = await outboxAfter(t.app, since);
    const deleted = events.find((event) => event.type === 'member.deleted');
    expect(deleted?.payload.userId).toBe(userId);
    expect([...(deleted?.payload.mediaURLs as string[])].sort()).toEqual(
      [own1, own2, avatar, shared, pending, DEMO_URL].sort(),
    );
    const revoked = events.find((event) => event.type === 'sessions.revoked');
    expect(revoked?.payload.sessionIds).toHaveLength(2);
    const told = new Map(
      events
        .filter((event) => event.type === 'notifications.changed')
        .map((event) => [event.payload.userId, event.payload.unreadCount]),
    );
    expect(told.get(a.user._id)).toBe(await unreadOf(a.user._id));
    expect(told.get(b.user._id)).toBe(await unreadOf(b.user._id));
    expect(await unreadOf(a.user._id)).toBeLessThan(unreadBefore.a);
    expect(await unreadOf(b.user._id)).toBeLessThan(unreadBefore.b);

    // Images only the member showed are gone; what others show or hold stays.
    for (const url of [own1, own2, avatar]) {
      expect(existsSync(fileOf(url)), url).toBe(false);
      expect(existsSync(thumbnailOf(url)), url).toBe(false);
    }
    for (const url of [shared, pending, DEMO_URL]) expect(existsSync(fileOf(url)), url).toBe(true);
    expect(await fetchPost(t.app, a2._id)).toMatchObject({ mediaURL: shared });
    const held = await t.app.db
      .selectFrom('media')
      .select('user_id')
      .where('url', '=', pending)
      .execute();
    expect(held).toEqual([{ user_id: a.user._id }]);

    // The name is free again.
    const again = await createMember(t.app, {
      username: m.user.username,
      email: `again-${m.user.email ?? 'x@example.com'}`,
    });
    expect(again.user.username).toBe(m.user.username);
    expect(again.user._id).not.toBe(userId);
    expect(again.user).toMatchObject({ followersCount: 0, followingCount: 0, postsCount: 0 });
  });

  it('answers 401 to a second deletion racing the first', async () => {
    const member = await createMember(t.app);
    await createPost(t.app, member.token, 'about to go');
    const answers = await Promise.all([
      deleteOwnAccount(t.app, member),
      deleteOwnAccount(t.app, member),
    ]);
    const statuses = answers.map((answer) => answer.statusCode).sort();
    expect(statuses).toEqual([204, 401]);
    expect(await counterMismatches(t.app.db)).toEqual(NO_MISMATCH);
  });
});
