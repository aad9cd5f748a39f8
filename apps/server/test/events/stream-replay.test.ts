import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { bookmark, createPost, follow, like } from '../social/social-helpers';
import { drain, lastOutboxId, outboxAfter } from './event-helpers';
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
let a: StreamMember;
let b: StreamMember;
let c: StreamMember;
beforeAll(async () => {
  s = await startStreamApp();
  [a, b, c] = [await s.member(), await s.member(), await s.member()];
  // B follows A, not C.
  expect((await follow(s.app, b.token, a.user._id)).statusCode).toBe(200);
  await drain(s.app);
});
afterEach(() => {
  closeAllStreams();
});
afterAll(async () => {
  closeAllStreams();
  await s.close();
});

const reconnect = (lastEventId: string) => s.connect(b, { 'last-event-id': lastEventId });

/** Each write, then its consumers, so that the outbox order is the order written here. */
async function step<T>(write: () => Promise<T>): Promise<T> {
  const answer = await write();
  if (typeof answer === 'object' && answer !== null && 'statusCode' in answer) {
    expect(answer.statusCode).toBeLessThan(300);
  }
  await drain(s.app);
  return answer;
}

/** A live stream's messages after `ready` up to the next marker: ids must only grow. */
async function replayed(stream: SseStream) {
  await settle(s, stream);
  const ids = stream.messages.slice(1).map((m) => m.id);
  expect(ids.every((id) => typeof id === 'number')).toBe(true);
  expect(ids).toEqual([...ids].sort((x, y) => (x ?? 0) - (y ?? 0)));
  expect(new Set(ids).size).toBe(ids.length);
  return received(stream);
}

describe('reconnecting with Last-Event-ID', () => {
  it('replays exactly the missed events the member may see, in order, then goes on live', async () => {
    const bPost = await createPost(s.app, b.token, 'b writes');
    const aPost = await createPost(s.app, a.token, 'a writes');
    await drain(s.app);
    const first = await s.connect(b);
    await readyOf(first);
    expect((await like(s.app, c.token, bPost._id)).statusCode).toBe(201);
    const seen = await first.next(isEvent('notifications.changed'));
    const lastId = seen.id ?? -1;
    first.close();

    await step(() => like(s.app, a.token, bPost._id));
    await step(() => bookmark(s.app, a.token, bPost._id));
    const created = await step(() => createPost(s.app, a.token, 'while b was away'));
    const cPost = await step(() => createPost(s.app, c.token, 'b does not follow c'));
    await step(() => bookmark(s.app, b.token, aPost._id));
    await step(() => like(s.app, c.token, aPost._id));
    const missedIds = (await outboxAfter(s.app, lastId)).map((e) => e.id);

    const stream = await reconnect(String(lastId));
    const ready = await readyOf(stream);
    expect(ready.id).toBeUndefined();
    expect(ready.data).toEqual({ unreadCount: 2 });
    const expected = [
      [
        'post.liked',
        { postId: bPost._id, postAuthorId: b.user._id, userId: a.user._id, likeCount: 2 },
      ],
      ['notifications.changed', { userId: b.user._id, unreadCount: 2 }],
      ['post.created', { postId: created._id, authorId: a.user._id }],
      ['bookmark.added', { userId: b.user._id, postId: aPost._id }],
      [
        'post.liked',
        { postId: aPost._id, postAuthorId: a.user._id, userId: c.user._id, likeCount: 1 },
      ],
    ];
    expect(await replayed(stream)).toEqual(expected);
    // Each is the stored event, under its id; what B may not see was left out (A's bookmark,
    // C's post, A's notification count).
    const ids = stream.messages.slice(1, -1).map((m) => m.id ?? -1);
    expect(ids.every((id) => missedIds.includes(id))).toBe(true);
    expect(missedIds.length).toBe(ids.length + 3);
    expect(JSON.stringify(stream.messages)).not.toContain(cPost._id);

    // And it goes on live, with no repeat of what was replayed.
    expect((await like(s.app, a.token, aPost._id)).statusCode).toBe(201);
    await stream.next(isEvent('post.liked', { userId: a.user._id, postId: aPost._id }));
    expect(await replayed(stream)).toEqual([
      ...expected,
      [
        'post.liked',
        { postId: aPost._id, postAuthorId: a.user._id, userId: a.user._id, likeCount: 2 },
      ],
    ]);
  });

  it('loses and repeats nothing of what is written while it reconnects', async () => {
    const likers = [];
    for (let i = 0; i < 8; i += 1) likers.push(await s.member());
    for (let round = 0; round < 3; round += 1) {
      const post = await createPost(s.app, b.token, `round ${round}`);
      await drain(s.app);
      const since = await lastOutboxId(s.app);
      const half = likers.length / 2;
      const before = Promise.all(likers.slice(0, half).map((m) => like(s.app, m.token, post._id)));
      const stream = await reconnect(String(since));
      const after = Promise.all(likers.slice(half).map((m) => like(s.app, m.token, post._id)));
      await Promise.all([before, after]);
      await drain(s.app);
      await readyOf(stream);
      const events = await replayed(stream);
      const stored = (await outboxAfter(s.app, since)).filter((e) => e.type !== 'profile.edited');
      expect(stream.messages.slice(1, -1).map((m) => m.id)).toEqual(stored.map((e) => e.id));
      expect(events).toEqual(stored.map((e) => [e.type, e.payload]));
      expect(events.filter(([type]) => type === 'post.liked')).toHaveLength(likers.length);
    }
  });

  it('replays nothing when nothing was missed', async () => {
    await drain(s.app);
    const stream = await reconnect(String(await lastOutboxId(s.app)));
    await readyOf(stream);
    expect(await replayed(stream)).toEqual([]);
  });

  it('the lastEventId query parameter works like the header', async () => {
    await drain(s.app);
    const since = await lastOutboxId(s.app);
    const post = await createPost(s.app, c.token, 'query replay');
    expect((await like(s.app, a.token, post._id)).statusCode).toBe(201);
    await drain(s.app);
    const stream = await s.connect(b, {}, `lastEventId=${since}`);
    await readyOf(stream);
    expect(await replayed(stream)).toEqual([
      [
        'post.liked',
        { postId: post._id, postAuthorId: c.user._id, userId: a.user._id, likeCount: 1 },
      ],
    ]);
  });

  it('refuses a malformed Last-Event-ID with 400', async () => {
    for (const value of ['abc', '-1', '1.5', '1e3', ' 7x', '1234567890123456']) {
      const stream = await reconnect(value);
      expect(stream.status, value).toBe(400);
      await stream.ended;
      const body = JSON.parse(stream.text()) as { errors: string[] };
      expect(body.errors.length).toBeGreaterThan(0);
      expect(stream.messages).toEqual([]);
    }
    const query = await s.connect(b, {}, 'lastEventId=nope');
    expect(query.status).toBe(400);
  });

  it('answers reset for an id beyond any event, then goes on live', async () => {
    await drain(s.app);
    const stream = await reconnect(String((await lastOutboxId(s.app)) + 1000));
    await readyOf(stream);
    const reset = await stream.next();
    expect(reset.event).toBe('reset');
    expect(reset.data).toEqual({});
    expect(reset.id).toBe(await lastOutboxId(s.app));
    expect(await replayed(stream)).toEqual([['reset', {}]]);
  });

  it('answers reset for an id older than what pruning kept, and replays from its edge', async () => {
    await drain(s.app);
    const edge = await lastOutboxId(s.app);
    const newer = await createPost(s.app, a.token, 'after the pruning edge');
    await drain(s.app);
    // Everything up to the edge is two days old now.
    await s.app.db.updateTable('outbox').set({ created_at: 0 }).where('id', '<=', edge).execute();
    expect(await s.app.services.jobs.pruneOutbox()).toBeGreaterThan(0);
    expect(
      await s.app.db.selectFrom('outbox').select('id').where('id', '<=', edge).execute(),
    ).toEqual([]);

    const stale = await reconnect(String(edge - 1));
    await readyOf(stale);
    const reset = await stale.next();
    expect(reset.event).toBe('reset');
    expect(reset.id).toBe(await lastOutboxId(s.app));

    // From the edge itself, everything after is still kept.
    const fresh = await reconnect(String(edge));
    await readyOf(fresh);
    expect(await replayed(fresh)).toEqual([
      ['post.created', { postId: newer._id, authorId: a.user._id }],
    ]);
  });

  it('after pruning emptied the outbox, a stream that had the newest event resumes without reset', async () => {
    await createPost(s.app, a.token, 'the last word before a quiet spell');
    await drain(s.app);
    const newest = await lastOutboxId(s.app);
    await s.app.db.updateTable('outbox').set({ created_at: 0 }).execute();
    await s.app.services.jobs.pruneOutbox();
    expect(await s.app.db.selectFrom('outbox').select('id').execute()).toEqual([]);

    const stream = await reconnect(String(newest));
    await readyOf(stream);
    expect(await replayed(stream)).toEqual([]);
    // One that missed the last event cannot be replayed to any more.
    const behind = await reconnect(String(newest - 1));
    await readyOf(behind);
    expect((await behind.next()).event).toBe('reset');
  });
});
