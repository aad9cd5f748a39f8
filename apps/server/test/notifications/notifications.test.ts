import { notificationGroupSchema } from '@perch/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createTestApp, type TestApp } from '../helpers';
import { drain, nextMillisecond } from '../events/event-helpers';
import { actorIds, groupsOf, markAllRead, ok, pageOf, unreadOf } from './notification-helpers';
import {
  addComment,
  createMembers,
  createPost,
  deleteComment,
  deletePost,
  dislike,
  expectClientError,
  follow,
  like,
  unfollow,
  walk,
  withQuery,
} from '../social/social-helpers';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

describe('who is notified', () => {
  it('a like, a comment and a follow each notify the member they concern, newest first', async () => {
    const [a, b, c] = await createMembers(t.app, 3);
    const post = await createPost(t.app, b.token, 'a post by b');
    await ok(like(t.app, a.token, post._id), 201);
    expect(await unreadOf(t.app, b)).toBe(1);
    await nextMillisecond();
    const comment = await addComment(t.app, a.token, post._id, 'nice one');
    expect(await unreadOf(t.app, b)).toBe(2);
    await nextMillisecond();
    await ok(follow(t.app, c.token, b.user._id), 200);

    const page = await pageOf(t.app, b);
    expect(page.unreadCount).toBe(3);
    expect(page.nextCursor).toBeNull();
    const postRef = { _id: post._id, content: 'a post by b', mediaURL: null };
    expect(page.notifications).toMatchObject([
      { kind: 'follow', actorCount: 1, post: null, comment: null, read: false },
      {
        kind: 'comment',
        actorCount: 1,
        post: postRef,
        comment: { _id: comment._id, text: 'nice one' },
      },
      { kind: 'like', actorCount: 1, post: postRef, comment: null, read: false },
    ]);
    expect(page.notifications.map(actorIds)).toEqual([[c.user._id], [a.user._id], [a.user._id]]);
    expect(page.notifications[0]?.actors[0]).toMatchObject({
      username: c.user.username,
      firstName: c.user.firstName,
      lastName: c.user.lastName,
    });
    // Nobody else heard of it.
    expect(await groupsOf(t.app, a)).toEqual([]);
    expect(await groupsOf(t.app, c)).toEqual([]);
    expect(await unreadOf(t.app, c)).toBe(0);
  });

  it('never for one’s own like or comment', async () => {
    const [b] = await createMembers(t.app, 1);
    const post = await createPost(t.app, b.token, 'talking to myself');
    await ok(like(t.app, b.token, post._id), 201);
    await addComment(t.app, b.token, post._id, 'me again');
    expect(await groupsOf(t.app, b)).toEqual([]);
    expect(await unreadOf(t.app, b)).toBe(0);
  });
});

describe('grouping', () => {
  it('likes of one post form one group naming the newest three, with an excerpt of the post', async () => {
    const [b, ...likers] = await createMembers(t.app, 5);
    const content = `${'word '.repeat(100)}end`;
    const post = await createPost(t.app, b.token, content);
    for (const liker of likers) {
      await ok(like(t.app, liker.token, post._id), 201);
      await drain(t.app);
      await nextMillisecond();
    }
    const [group, ...rest] = await groupsOf(t.app, b);
    expect(rest).toEqual([]);
    expect(group).toMatchObject({ kind: 'like', actorCount: 4, read: false, comment: null });
    const newestFirst = likers.map((m) => m.user._id).reverse();
    expect(actorIds(group)).toEqual(newestFirst.slice(0, 3));
    expect(group?.post?._id).toBe(post._id);
    // A long post is cut to its first 280 characters.
    expect(group?.post?.content).toBe(`${content.slice(0, 280).trimEnd()}…`);
    expect(await unreadOf(t.app, b)).toBe(4);
  });

  it('follows form one group; each comment is a group of its own, with its text', async () => {
    const [b, f1, f2, c1, c2] = await createMembers(t.app, 5);
    const post = await createPost(t.app, b.token, 'comment here');
    await ok(follow(t.app, f1.token, b.user._id), 200);
    await drain(t.app);
    await ok(follow(t.app, f2.token, b.user._id), 200);
    await nextMillisecond();
    const first = await addComment(t.app, c1.token, post._id, 'first comment');
    await nextMillisecond();
    const second = await addComment(t.app, c2.token, post._id, 'second comment');
    const groups = await groupsOf(t.app, b);
    expect(groups.map((g) => g.kind)).toEqual(['comment', 'comment', 'follow']);
    expect(groups.map((g) => g.comment)).toEqual([
      { _id: second._id, id: second._id, text: 'second comment' },
      { _id: first._id, id: first._id, text: 'first comment' },
      null,
    ]);
    expect(groups.map(actorIds)).toEqual([
      [c2.user._id],
      [c1.user._id],
      [f2.user._id, f1.user._id],
    ]);
    expect(groups.map((g) => g.actorCount)).toEqual([1, 1, 2]);
    expect(groups[2]?.post).toBeNull();
    expect(new Set(groups.map((g) => g.id)).size).toBe(3);
  });
});

describe('taking back', () => {
  it('an unlike removes the like’s unread notification; a read one stays', async () => {
    const [a, b] = await createMembers(t.app, 2);
    const post = await createPost(t.app, b.token, 'fickle');
    await ok(like(t.app, a.token, post._id), 201);
    expect(await unreadOf(t.app, b)).toBe(1);
    await ok(dislike(t.app, a.token, post._id), 201);
    expect(await groupsOf(t.app, b)).toEqual([]);
    expect(await unreadOf(t.app, b)).toBe(0);

    await ok(like(t.app, a.token, post._id), 201);
    await markAllRead(t.app, b);
    await ok(dislike(t.app, a.token, post._id), 201);
    const groups = await groupsOf(t.app, b);
    expect(groups).toMatchObject([{ kind: 'like', read: true, actorCount: 1 }]);
    expect(actorIds(groups[0])).toEqual([a.user._id]);
    expect(await unreadOf(t.app, b)).toBe(0);
  });

  it('an unfollow removes the follow’s unread notification; a read one stays', async () => {
    const [a, b, c] = await createMembers(t.app, 3);
    await ok(follow(t.app, a.token, b.user._id), 200);
    await ok(follow(t.app, c.token, b.user._id), 200);
    expect(await unreadOf(t.app, b)).toBe(2);
    await ok(unfollow(t.app, a.token, b.user._id), 200);
    const groups = await groupsOf(t.app, b);
    expect(groups).toMatchObject([{ kind: 'follow', read: false, actorCount: 1 }]);
    expect(actorIds(groups[0])).toEqual([c.user._id]);
    expect(await unreadOf(t.app, b)).toBe(1);

    await markAllRead(t.app, b);
    await ok(unfollow(t.app, c.token, b.user._id), 200);
    expect(await groupsOf(t.app, b)).toMatchObject([{ kind: 'follow', read: true, actorCount: 1 }]);
  });

  it('deleting a post or a comment removes its notifications', async () => {
    const [a, b, c] = await createMembers(t.app, 3);
    const doomed = await createPost(t.app, b.token, 'soon gone');
    const kept = await createPost(t.app, b.token, 'stays');
    await ok(like(t.app, a.token, doomed._id), 201);
    await addComment(t.app, a.token, doomed._id, 'on the doomed post');
    await ok(follow(t.app, c.token, b.user._id), 200);
    await nextMillisecond();
    const comment = await addComment(t.app, c.token, kept._id, 'soon deleted');
    await nextMillisecond();
    await ok(like(t.app, c.token, kept._id), 201);
    expect(await unreadOf(t.app, b)).toBe(5);

    await ok(deletePost(t.app, b.token, doomed._id), 201);
    expect((await groupsOf(t.app, b)).map((g) => g.kind)).toEqual(['like', 'comment', 'follow']);
    expect(await unreadOf(t.app, b)).toBe(3);

    await ok(deleteComment(t.app, c.token, kept._id, comment._id), 201);
    const groups = await groupsOf(t.app, b);
    expect(groups.map((g) => g.kind)).toEqual(['like', 'follow']);
    expect(groups[0]?.post?._id).toBe(kept._id);
    expect(await unreadOf(t.app, b)).toBe(2);
  });
});

describe('privacy', () => {
  it('a member sees only their own notifications; without a token there are none', async () => {
    const [a, b, c] = await createMembers(t.app, 3);
    const post = await createPost(t.app, b.token, 'for b only');
    await ok(like(t.app, a.token, post._id), 201);
    expect(await groupsOf(t.app, b)).toHaveLength(1);
    expect(await groupsOf(t.app, c)).toEqual([]);
    expect(await unreadOf(t.app, c)).toBe(0);
    for (const [method, url] of [
      ['GET', '/api/notifications'],
      ['GET', '/api/notifications/unread'],
      ['POST', '/api/notifications/read'],
    ] as const) {
      expectClientError(await call(t.app, { method, url }), 401);
      expectClientError(await call(t.app, { method, url, token: 'not-a-token' }), 401);
    }
    // The refused mark-as-read changed nothing.
    expect(await unreadOf(t.app, b)).toBe(1);
  });
});

describe('pages', () => {
  it('limit=2 walks every group once, in the order of one long page', async () => {
    const [a, e] = await createMembers(t.app, 2);
    const posts = [];
    for (const text of ['one', 'two', 'three']) posts.push(await createPost(t.app, e.token, text));
    for (const post of posts) await ok(like(t.app, a.token, post._id), 201);
    await addComment(t.app, a.token, posts[0]?._id ?? '', 'a comment');
    await ok(follow(t.app, a.token, e.user._id), 200);
    await drain(t.app);

    const all = (await pageOf(t.app, e, { limit: 50 })).notifications;
    expect(all).toHaveLength(5);
    const walked = await walk(
      t.app,
      '/api/notifications',
      'notifications',
      notificationGroupSchema,
      {
        token: e.token,
        limit: 2,
      },
    );
    expect(walked.pages).toBe(3);
    expect(walked.items.map((g) => g.id)).toEqual(all.map((g) => g.id));
    expect(new Set(walked.items.map((g) => g.id)).size).toBe(5);
    expect(walked.items.map((g) => g.kind).sort()).toEqual([
      'comment',
      'follow',
      'like',
      'like',
      'like',
    ]);
  });

  it('refuses a cursor it did not make', async () => {
    const [e] = await createMembers(t.app, 1);
    const wrongShape = Buffer.from(JSON.stringify(['x', 1])).toString('base64url');
    for (const cursor of ['not-a-cursor', wrongShape]) {
      const response = await call(t.app, {
        method: 'GET',
        url: withQuery('/api/notifications', { cursor }),
        token: e.token,
      });
      expectClientError(response, 400);
      expect(Object.keys(response.json<object>())).toEqual(['errors']);
    }
  });
});

describe('marking read', () => {
  it('reads everything; a later like starts a new unread group beside the read one', async () => {
    const [a, b, c, d] = await createMembers(t.app, 4);
    const post = await createPost(t.app, b.token, 'read me');
    await ok(like(t.app, a.token, post._id), 201);
    await ok(like(t.app, c.token, post._id), 201);
    await nextMillisecond();
    await ok(follow(t.app, a.token, b.user._id), 200);
    expect(await unreadOf(t.app, b)).toBe(3);

    await markAllRead(t.app, b);
    expect(await unreadOf(t.app, b)).toBe(0);
    const read = await pageOf(t.app, b);
    expect(read.unreadCount).toBe(0);
    expect(read.notifications.map((g) => [g.kind, g.read])).toEqual([
      ['follow', true],
      ['like', true],
    ]);

    await ok(like(t.app, d.token, post._id), 201);
    const page = await pageOf(t.app, b);
    expect(page.unreadCount).toBe(1);
    const likes = page.notifications.filter((g) => g.kind === 'like');
    expect(likes.map((g) => g.read)).toEqual([false, true]);
    expect(likes.map(actorIds)).toEqual([[d.user._id], [c.user._id, a.user._id]]);
    expect(likes.map((g) => g.actorCount)).toEqual([1, 2]);
    expect(likes[0]?.id).not.toBe(likes[1]?.id);
    // The read and the unread group of one post are apart on pages too.
    const walked = await walk(
      t.app,
      '/api/notifications',
      'notifications',
      notificationGroupSchema,
      {
        token: b.token,
        limit: 1,
      },
    );
    expect(walked.items.map((g) => g.id)).toEqual(page.notifications.map((g) => g.id));
    // Reading again when nothing is unread is harmless.
    await markAllRead(t.app, b);
    expect(await unreadOf(t.app, b)).toBe(0);
  });
});
