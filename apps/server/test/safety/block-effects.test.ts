import { ErrorMessages, postSchema, type Post } from '@perch/contract';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { drain, lastOutboxId, outboxAfter, writtenAfter } from '../events/event-helpers';
import type { Member } from '../factories';
import { call, createTestApp, type TestApp } from '../helpers';
import { groupsOf, unreadOf } from '../notifications/notification-helpers';
import {
  addComment,
  bookmark,
  commentRequest,
  createMembers,
  createPost,
  dislike,
  expectError,
  fetchPost,
  follow,
  getPost,
  idsOf,
  like,
  upvote,
  walk,
} from '../social/social-helpers';
import {
  block,
  bookmarkIdsOf,
  commentIdsOf,
  embeddedCommentIds,
  followCounterMismatches,
  followRowsBetween,
  postIdsAt,
  unblock,
  usersAt,
} from './safety-helpers';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

const settle = async (app: FastifyInstance) => {
  await drain(app);
  await app.services.timelines.idle();
};

/** Reads Home once, which starts the member's timeline, and waits until it is built. */
async function startTimeline(member: Member): Promise<void> {
  await postIdsAt(t.app, '/api/posts/feed', member);
  await settle(t.app);
}

const timelineAuthors = async (member: Member) =>
  (
    await t.app.db
      .selectFrom('home_timeline_entries')
      .select('author_id')
      .where('user_id', '=', member.user._id)
      .execute()
  ).map((row) => row.author_id);

describe('blocking', () => {
  it('ends the follows both ways, keeps counters equal to rows and empties both Homes of the other', async () => {
    const [blocker, blocked, third] = await createMembers(t.app, 3);
    for (const [a, b] of [
      [blocker, blocked],
      [blocked, blocker],
      [third, blocker],
      [third, blocked],
    ] as const) {
      expect((await follow(t.app, a.token, b.user._id)).statusCode).toBe(200);
    }
    await startTimeline(blocker);
    await startTimeline(blocked);
    await createPost(t.app, blocked.token, 'before the block, by the blocked member');
    await createPost(t.app, blocker.token, 'before the block, by the blocker');
    await settle(t.app);
    expect(await timelineAuthors(blocker)).toContain(blocked.user._id);
    expect(await timelineAuthors(blocked)).toContain(blocker.user._id);

    const before = await lastOutboxId(t.app);
    await block(t.app, blocker, blocked);
    await settle(t.app);

    expect(await followRowsBetween(t.app, blocker.user._id, blocked.user._id)).toEqual([]);
    expect(await followCounterMismatches(t.app)).toEqual([]);
    expect(await timelineAuthors(blocker)).not.toContain(blocked.user._id);
    expect(await timelineAuthors(blocked)).not.toContain(blocker.user._id);
    const events = (await writtenAfter(t.app, before)).filter((e) => e.type.startsWith('member.'));
    expect(events.map((e) => e.type).sort()).toEqual([
      'member.blocked',
      'member.unfollowed',
      'member.unfollowed',
    ]);
    // The third member's follows are untouched.
    const counts = await t.app.db
      .selectFrom('users')
      .select(['id', 'followers_count', 'following_count'])
      .where('id', 'in', [blocker.user._id, blocked.user._id, third.user._id])
      .execute();
    const byId = new Map(counts.map((row) => [row.id, row]));
    expect(byId.get(third.user._id)?.following_count).toBe(2);
    expect(byId.get(blocker.user._id)).toMatchObject({ followers_count: 1, following_count: 0 });
    expect(byId.get(blocked.user._id)).toMatchObject({ followers_count: 1, following_count: 0 });

    // Home, read either way, shows nothing of the other.
    const blockerPosts = await postIdsAt(
      t.app,
      '/api/posts/user/' + blocker.user.username,
      blocker,
    );
    const blockedPosts = await postIdsAt(
      t.app,
      '/api/posts/user/' + blocked.user.username,
      blocked,
    );
    for (const sort of ['latest', 'trending', 'oldest']) {
      const home = await postIdsAt(t.app, '/api/posts/feed', blocker, { sort });
      expect(home).toEqual(expect.not.arrayContaining(blockedPosts));
      const theirs = await postIdsAt(t.app, '/api/posts/feed', blocked, { sort });
      expect(theirs).toEqual(expect.not.arrayContaining(blockerPosts));
    }
  });

  it('removes the notifications between the two and tells each their unread count', async () => {
    const [blocker, blocked] = await createMembers(t.app, 2);
    const mine = await createPost(t.app, blocker.token, 'the blocker writes');
    const theirs = await createPost(t.app, blocked.token, 'the blocked writes');
    await like(t.app, blocked.token, mine._id);
    await addComment(t.app, blocked.token, mine._id, 'a comment');
    await follow(t.app, blocked.token, blocker.user._id);
    await like(t.app, blocker.token, theirs._id);
    expect(await unreadOf(t.app, blocker)).toBe(3);
    expect(await unreadOf(t.app, blocked)).toBe(1);

    const before = await lastOutboxId(t.app);
    await block(t.app, blocker, blocked);
    await drain(t.app);
    expect(await unreadOf(t.app, blocker)).toBe(0);
    expect(await unreadOf(t.app, blocked)).toBe(0);
    expect(await groupsOf(t.app, blocker)).toEqual([]);
    expect(await groupsOf(t.app, blocked)).toEqual([]);
    const rows = await t.app.db
      .selectFrom('notifications')
      .select('id')
      .where('recipient_id', 'in', [blocker.user._id, blocked.user._id])
      .execute();
    expect(rows).toEqual([]);
    const told = (await outboxAfter(t.app, before))
      .filter((e) => e.type === 'notifications.changed')
      .map((e) => e.payload);
    expect(told).toEqual(
      expect.arrayContaining([
        { userId: blocker.user._id, unreadCount: 0 },
        { userId: blocked.user._id, unreadCount: 0 },
      ]),
    );
  });
});

describe('across a block', () => {
  let blocker: Member;
  let blocked: Member;
  let third: Member;
  let blockerPost: Post;
  let blockedPost: Post;
  let thirdPost: Post;
  let blockerComment: string;
  let blockedComment: string;
  const word = `zebrafish${String(process.pid)}`;
  const tag = `safetytag${String(process.pid)}`;

  beforeAll(async () => {
    [blocker, blocked, third] = await createMembers(t.app, 3);
    blockerPost = await createPost(t.app, blocker.token, `${word} by the blocker #${tag}`);
    blockedPost = await createPost(t.app, blocked.token, `${word} by the blocked #${tag}`);
    thirdPost = await createPost(t.app, third.token, `${word} by the third #${tag}`);
    blockerComment = (await addComment(t.app, blocker.token, thirdPost._id, 'blocker says'))._id;
    blockedComment = (await addComment(t.app, blocked.token, thirdPost._id, 'blocked says'))._id;
    // Marks made before the block stay as rows, but the lists no longer show them.
    await like(t.app, blocker.token, blockedPost._id);
    await bookmark(t.app, blocker.token, blockedPost._id);
    await like(t.app, blocked.token, blockerPost._id);
    await bookmark(t.app, blocked.token, blockerPost._id);
    await block(t.app, blocker, blocked);
    await settle(t.app);
  });

  const sides = () =>
    [
      { viewer: blocker, other: blocked, otherPost: blockedPost, otherComment: blockedComment },
      { viewer: blocked, other: blocker, otherPost: blockerPost, otherComment: blockerComment },
    ] as const;

  it('keeps the other member’s posts out of every list, either way, every sort', async () => {
    for (const { viewer, otherPost } of sides()) {
      for (const sort of ['latest', 'oldest', 'trending']) {
        for (const url of ['/api/posts', '/api/posts/explore', '/api/posts/feed']) {
          expect(await postIdsAt(t.app, url, viewer, { sort }), `${url} ${sort}`).not.toContain(
            otherPost._id,
          );
        }
        expect(await postIdsAt(t.app, '/api/posts/liked', viewer, { sort })).toEqual([]);
      }
      expect(await bookmarkIdsOf(t.app, viewer)).toEqual([]);
      for (const sort of ['latest', 'top']) {
        const found = await postIdsAt(t.app, '/api/search/posts', viewer, { q: word, sort });
        expect(found).toContain(thirdPost._id);
        expect(found).not.toContain(otherPost._id);
      }
      const tagged = await postIdsAt(t.app, `/api/tags/${tag}`, viewer);
      expect(tagged).toContain(thirdPost._id);
      expect(tagged).not.toContain(otherPost._id);
    }
  });

  it('still shows everything to anonymous readers and to others', async () => {
    const all = await postIdsAt(t.app, '/api/posts', undefined);
    expect(all).toEqual(expect.arrayContaining([blockerPost._id, blockedPost._id]));
    const found = await postIdsAt(t.app, '/api/search/posts', third, { q: word });
    expect(found).toEqual(expect.arrayContaining([blockerPost._id, blockedPost._id]));
    expect(await commentIdsOf(t.app, thirdPost._id, undefined)).toEqual([
      blockerComment,
      blockedComment,
    ]);
    expect((await fetchPost(t.app, blockedPost._id))._id).toBe(blockedPost._id);
  });

  it('answers 404 for the other member’s page, posts, comments and post', async () => {
    for (const { viewer, other, otherPost } of sides()) {
      expectError(
        await call(t.app, {
          method: 'GET',
          url: `/api/posts/user/${other.user.username}`,
          token: viewer.token,
        }),
        404,
        ErrorMessages.userNotFound,
      );
      expectError(
        await getPost(t.app, otherPost._id, viewer.token),
        404,
        ErrorMessages.postNotFound,
      );
      expect(await commentIdsOf(t.app, otherPost._id, viewer)).toBeNull();
    }
    // The blocker may still open the blocked member's profile (to unblock), not the reverse.
    expect(
      (
        await call(t.app, {
          method: 'GET',
          url: `/api/users/${blocked.user.username}`,
          token: blocker.token,
        })
      ).statusCode,
    ).toBe(200);
  });

  it('hides the other member’s comments, in lists and embedded in posts', async () => {
    for (const { viewer, otherComment } of sides()) {
      const listed = await commentIdsOf(t.app, thirdPost._id, viewer);
      expect(listed).toHaveLength(1);
      expect(listed).not.toContain(otherComment);
      const embedded = embeddedCommentIds(await fetchPost(t.app, thirdPost._id, viewer.token));
      expect(embedded).toHaveLength(1);
      expect(embedded).not.toContain(otherComment);
    }
  });

  it('leaves each out of the other’s member search and who-to-follow', async () => {
    for (const { viewer, other } of sides()) {
      const found = await usersAt(t.app, '/api/users', viewer, { q: 'member_', limit: 50 });
      expect(idsOf(found)).toContain(third.user._id);
      expect(idsOf(found)).not.toContain(other.user._id);
      const suggested = await usersAt(t.app, '/api/users/suggestions', viewer, { limit: 50 });
      expect(idsOf(suggested)).toContain(third.user._id);
      expect(idsOf(suggested)).not.toContain(other.user._id);
    }
    expect(idsOf(await usersAt(t.app, '/api/users', third, { q: 'member_', limit: 50 }))).toEqual(
      expect.arrayContaining([blocker.user._id, blocked.user._id]),
    );
  });

  it('refuses follow, like, dislike, bookmark, comment and vote with 404, changing nothing', async () => {
    const likesBefore = await t.app.db.selectFrom('likes').selectAll().execute();
    for (const { viewer, other, otherPost, otherComment } of sides()) {
      expectError(
        await follow(t.app, viewer.token, other.user._id),
        404,
        ErrorMessages.userNotFound,
      );
      for (const write of [like, dislike, bookmark]) {
        expectError(
          await write(t.app, viewer.token, otherPost._id),
          404,
          ErrorMessages.postNotFound,
        );
      }
      expectError(
        await commentRequest(t.app, viewer.token, otherPost._id, 'hello'),
        404,
        ErrorMessages.postNotFound,
      );
      expectError(
        await upvote(t.app, viewer.token, thirdPost._id, otherComment),
        404,
        ErrorMessages.commentNotFound,
      );
    }
    expect(await t.app.db.selectFrom('likes').selectAll().execute()).toEqual(likesBefore);
    expect(await followRowsBetween(t.app, blocker.user._id, blocked.user._id)).toEqual([]);
  });

  it('lets a mention across a block tell no one', async () => {
    await createPost(t.app, blocked.token, `hello @${blocker.user.username}`);
    await createPost(t.app, blocker.token, `hello @${blocked.user.username}`);
    await addComment(t.app, blocked.token, thirdPost._id, `look @${blocker.user.username}`);
    await drain(t.app);
    expect(await unreadOf(t.app, blocker)).toBe(0);
    expect(await unreadOf(t.app, blocked)).toBe(0);
  });

  it('ends with unblock: the lists and calls work again', async () => {
    const [a, b] = await createMembers(t.app, 2);
    const post = await createPost(t.app, b.token, 'visible again');
    await block(t.app, a, b);
    expect(await postIdsAt(t.app, '/api/posts', a)).not.toContain(post._id);
    await unblock(t.app, a, b);
    expect(await postIdsAt(t.app, '/api/posts', a)).toContain(post._id);
    expect((await follow(t.app, b.token, a.user._id)).statusCode).toBe(200);
    expect((await like(t.app, a.token, post._id)).statusCode).toBe(201);
  });
});

describe('pages across hidden members', () => {
  it('stay full and in order, without gaps or repeats', async () => {
    const [viewer, kept, hidden] = await createMembers(t.app, 3);
    const expected: string[] = [];
    for (let i = 0; i < 7; i += 1) {
      await createPost(t.app, hidden.token, `hidden ${String(i)}`);
      expected.push((await createPost(t.app, kept.token, `kept ${String(i)}`))._id);
      await createPost(t.app, hidden.token, `hidden again ${String(i)}`);
    }
    await block(t.app, viewer, hidden);
    const { items } = await walk(t.app, '/api/posts', 'posts', postSchema, {
      token: viewer.token,
      limit: 3,
    });
    const ids = idsOf(items);
    expect(new Set(ids).size).toBe(ids.length);
    const ofThese = items.filter((post) =>
      [kept.user._id, hidden.user._id].includes(post.author._id),
    );
    expect(idsOf(ofThese)).toEqual([...expected].reverse());
  });
});
