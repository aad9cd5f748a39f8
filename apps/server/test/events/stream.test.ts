import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { SESSION_COOKIE } from '../../src/app/plugins/auth.plugin';
import { call } from '../helpers';
import { bookmark, createPost, follow, like } from '../social/social-helpers';
import { drain, lastOutboxId, until } from './event-helpers';
import { closeAllStreams, type SseStream } from './sse-client';
import {
  isEvent,
  readyOf,
  received,
  settle,
  startStreamApp,
  type StreamApp,
  type StreamMember,
} from './stream-helpers';

let s: StreamApp;
beforeAll(async () => {
  s = await startStreamApp();
});
afterEach(() => {
  closeAllStreams();
});
afterAll(async () => {
  closeAllStreams();
  await s.close();
});

async function expectRefused(stream: SseStream, status: number): Promise<void> {
  expect(stream.status).toBe(status);
  expect(stream.headers['content-type']).toMatch(/^application\/json/);
  await stream.ended;
  const body = JSON.parse(stream.text()) as { errors: unknown };
  expect(Object.keys(body)).toEqual(['errors']);
  expect(Array.isArray(body.errors) && body.errors.length > 0).toBe(true);
  expect(stream.messages).toEqual([]);
}

describe('opening the stream', () => {
  it('login sets an HttpOnly, SameSite=Strict session cookie for /api', async () => {
    const { session } = await s.member();
    expect(session.cookie).toMatch(new RegExp(`^${SESSION_COOKIE}=[^;]+$`));
    const attributes = session.setCookie.split(';').map((part) => part.trim().toLowerCase());
    expect(attributes).toContain('httponly');
    expect(attributes).toContain('samesite=strict');
    expect(attributes).toContain('path=/api');
  });

  it('refuses without a cookie or token, and with a bad cookie', async () => {
    await expectRefused(await s.connect(), 401);
    await expectRefused(await s.connect(null, { cookie: `${SESSION_COOKIE}=not-a-token` }), 401);
    await expectRefused(await s.connect(null, { authorization: 'not-a-token' }), 401);
  });

  it('starts with ready: where the stream stands and the unread count', async () => {
    const [a, b] = [await s.member(), await s.member()];
    const post = await createPost(s.app, b.token, 'liked before the stream');
    expect((await like(s.app, a.token, post._id)).statusCode).toBe(201);
    await drain(s.app);
    const stream = await s.connect(b);
    const ready = await readyOf(stream);
    expect(ready.data).toEqual({ unreadCount: 1 });
    expect(ready.id).toBe(await lastOutboxId(s.app));
    expect(stream.headers['cache-control']).toMatch(/no-store/);
  });

  it('accepts the token in the Authorization header too', async () => {
    const b = await s.member();
    const ready = await readyOf(await s.connect(null, { authorization: `Bearer ${b.token}` }));
    expect(ready.data).toEqual({ unreadCount: 0 });
  });

  it('POST /api/auth/session sets the cookie for a session begun with a token', async () => {
    const b = await s.member();
    expectStatus(await call(s.app, { method: 'POST', url: '/api/auth/session' }), 401);
    const response = await call(s.app, {
      method: 'POST',
      url: '/api/auth/session',
      token: b.token,
    });
    expectStatus(response, 204);
    const setCookie = String(response.headers['set-cookie']);
    expect(setCookie).toContain(`${SESSION_COOKIE}=${b.token};`);
    expect(setCookie).toMatch(/HttpOnly/i);
    const cookie = setCookie.split(';')[0] ?? '';
    expect((await readyOf(await s.connect(null, { cookie }))).event).toBe('ready');
  });
});

function expectStatus(response: { statusCode: number; body: string }, status: number): void {
  expect(response.statusCode, response.body).toBe(status);
}

describe('live events', () => {
  let a: StreamMember;
  let b: StreamMember;
  let c: StreamMember;
  beforeAll(async () => {
    [a, b, c] = [await s.member(), await s.member(), await s.member()];
  });

  it('the author sees a like of their post, then their new unread count', async () => {
    const post = await createPost(s.app, b.token, 'watch me');
    await drain(s.app);
    const stream = await s.connect(b);
    const ready = await readyOf(stream);
    expect((await like(s.app, a.token, post._id)).statusCode).toBe(201);
    const liked = await stream.next(isEvent('post.liked', { postId: post._id }));
    expect(liked.data).toEqual({
      postId: post._id,
      postAuthorId: b.user._id,
      userId: a.user._id,
      likeCount: 1,
    });
    expect(liked.id).toBeGreaterThan(ready.id ?? Infinity);
    const changed = await stream.next((m) => m.event === 'notifications.changed');
    expect(changed.data).toEqual({ userId: b.user._id, unreadCount: 1 });
    expect(changed.id).toBeGreaterThan(liked.id ?? Infinity);

    // Reading them all is heard too (by every stream of the member).
    expectStatus(
      await call(s.app, { method: 'POST', url: '/api/notifications/read', token: b.token }),
      200,
    );
    const read = await stream.next((m) => m.event === 'notifications.changed');
    expect(read.data).toEqual({ userId: b.user._id, unreadCount: 0 });
  });

  it('a follow', async () => {
    const stream = await s.connect(b);
    await readyOf(stream);
    expectStatus(await follow(s.app, a.token, b.user._id), 200);
    const followed = await stream.next(isEvent('member.followed'));
    expect(followed.data).toEqual({
      followerId: a.user._id,
      followeeId: b.user._id,
      followersCount: 1,
      followingCount: 1,
    });
    expect((await stream.next(isEvent('notifications.changed'))).data).toEqual({
      userId: b.user._id,
      unreadCount: 1,
    });
  });

  it('a new post reaches its author and their followers only', async () => {
    const [author, follower, stranger] = [await s.member(), await s.member(), await s.member()];
    const streams = [
      await s.connect(author),
      await s.connect(follower),
      await s.connect(stranger),
    ] as const;
    await Promise.all(streams.map(readyOf));
    const [own, following, notFollowing] = streams;

    const before = await createPost(s.app, author.token, 'before the follow');
    await own.next(isEvent('post.created', { postId: before._id }));
    await settle(s, following, notFollowing);
    expect(received(following)).toEqual([]);

    expectStatus(await follow(s.app, follower.token, author.user._id), 200);
    await following.next(isEvent('member.followed', { followeeId: author.user._id }));
    const after = await createPost(s.app, author.token, 'after the follow');
    const created = await following.next(isEvent('post.created'));
    expect(created.data).toEqual({ postId: after._id, authorId: author.user._id });
    await own.next(isEvent('post.created', { postId: after._id }));
    await settle(s, following, notFollowing);
    // The stranger saw the (public) follow, never a post.
    expect(received(notFollowing).map(([event]) => event)).toEqual(['member.followed']);
    expect(received(following).filter(([event]) => event === 'post.created')).toHaveLength(1);
  });

  it('bookmarks reach only their owner, in each of their tabs', async () => {
    const post = await createPost(s.app, c.token, 'bookmark me');
    await drain(s.app);
    const ofA = await s.connect(a);
    const [tab1, tab2] = [await s.connect(b), await s.connect(b)];
    await Promise.all([ofA, tab1, tab2].map(readyOf));

    expectStatus(await bookmark(s.app, a.token, post._id), 200);
    const own = await ofA.next(isEvent('bookmark.added'));
    expect(own.data).toEqual({ userId: a.user._id, postId: post._id });
    await settle(s, tab1, tab2);
    expect(received(tab1)).toEqual([]);
    expect(received(tab2)).toEqual([]);

    // B bookmarks elsewhere (another tab, another device): both of B's streams hear of it.
    expectStatus(await bookmark(s.app, b.token, post._id), 200);
    for (const tab of [tab1, tab2]) {
      const added = await tab.next(isEvent('bookmark.added'));
      expect(added.data).toEqual({ userId: b.user._id, postId: post._id });
    }
    await settle(s, ofA);
    expect(received(ofA)).toEqual([['bookmark.added', { userId: a.user._id, postId: post._id }]]);
  });
});

describe('closing', () => {
  it('a stream the client closes leaves the hub; one that stays gets on', async () => {
    const [a, b] = [await s.member(), await s.member()];
    closeAllStreams();
    await until(() => s.app.services.hub.size() === 0);
    const [gone, stays] = [await s.connect(b), await s.connect(b)];
    await Promise.all([readyOf(gone), readyOf(stays)]);
    expect(s.app.services.hub.size()).toBe(2);
    gone.close();
    await until(() => s.app.services.hub.size() === 1);
    const post = await createPost(s.app, b.token, 'still listening');
    expectStatus(await like(s.app, a.token, post._id), 201);
    await stays.next(isEvent('post.liked', { postId: post._id }));
  });
});

describe('logout', () => {
  it('answers 204 and clears the session cookie', async () => {
    const { session } = await s.member();
    const response = await s.app.inject({
      method: 'POST',
      url: '/api/auth/logout',
      headers: { cookie: session.cookie },
    });
    expectStatus(response, 204);
    const setCookie = String(response.headers['set-cookie']);
    expect(setCookie).toMatch(new RegExp(`^${SESSION_COOKIE}=;`));
    expect(setCookie).toMatch(/Path=\/api/i);
    expect(setCookie).toMatch(/Max-Age=0|Expires=Thu, 01 Jan 1970/i);
  });
});

describe('shutdown', () => {
  it('app.close() ends open streams and resolves promptly', async () => {
    const other = await startStreamApp();
    try {
      const stream = await other.connect(await other.member());
      await readyOf(stream);
      const started = Date.now();
      let timer: NodeJS.Timeout | undefined;
      const closed = await Promise.race([
        other.app.close().then(() => true),
        new Promise<false>((resolve) => {
          timer = setTimeout(() => {
            resolve(false);
          }, 5000);
        }),
      ]);
      clearTimeout(timer);
      expect(closed, 'app.close() did not resolve within 5 s').toBe(true);
      expect(Date.now() - started).toBeLessThan(3000);
      await stream.ended;
      expect(stream.isEnded()).toBe(true);
      // The stream ended cleanly after ready, without an error message.
      expect(stream.messages.map((m) => m.event)).toEqual(['ready']);
    } finally {
      closeAllStreams();
      await other.close();
    }
  });
});
