import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { loadSchemas } from '../../shared/lib/schemas';
import { FakeEventSource } from '../../test/fakeEventSource';
import type { LiveEvent } from '../../shared/live/liveEventTypes';
import { connectLiveEvents, LIVE_EVENTS_URL, type LiveHandlers } from './liveConnection';

/** Connects and waits until the first stream is open (after the schemas have loaded). */
async function connect(overrides: Partial<LiveHandlers> = {}) {
  FakeEventSource.instances = [];
  const received = {
    ready: [] as { unreadCount: number; resync: boolean }[],
    events: [] as LiveEvent[],
    resets: 0,
    cookieCalls: 0,
  };
  const connection = connectLiveEvents({
    createSource: (url) => new FakeEventSource(url),
    onReady: ({ unreadCount }, { resync }) => {
      received.ready.push({ unreadCount, resync });
    },
    onReset: () => {
      received.resets += 1;
    },
    onEvent: (event) => {
      received.events.push(event);
    },
    refreshCookie: () => {
      received.cookieCalls += 1;
      return Promise.resolve();
    },
    ...overrides,
  });
  // The connection asked for the same promise first, so it has opened its stream by now.
  await loadSchemas();
  return { connection, received };
}

beforeAll(async () => {
  await loadSchemas();
});

afterEach(() => {
  vi.useRealTimers();
});

describe('live connection', () => {
  it('opens /api/events and hands over ready, checked domain events and reset', async () => {
    const { received } = await connect();
    const source = FakeEventSource.current();
    expect(source.url).toBe(LIVE_EVENTS_URL);

    source.emit('ready', { unreadCount: 3 }, '41');
    source.emit('post.liked', { postId: 'p1', postAuthorId: 'u1', userId: 'u2', likeCount: 5 });
    source.emit('post.liked', { postId: 'p1' }); // not the contract's shape: ignored
    source.emit('post.liked', 'not json'); // ignored
    source.emit('reset');

    expect(received.ready).toEqual([{ unreadCount: 3, resync: false }]);
    expect(received.events).toEqual([
      {
        type: 'post.liked',
        payload: { postId: 'p1', postAuthorId: 'u1', userId: 'u2', likeCount: 5 },
      },
    ]);
    expect(received.resets).toBe(1);
  });

  it('leaves a dropped connection to the browser, which reconnects by itself', async () => {
    const { received } = await connect();
    const source = FakeEventSource.current();
    source.emit('ready', { unreadCount: 0 });

    source.drop();

    expect(FakeEventSource.instances).toHaveLength(1);
    expect(received.cookieCalls).toBe(0);
  });

  it('asks for the session cookie once when the stream is refused, then reopens it', async () => {
    vi.useFakeTimers();
    const { received } = await connect();
    const first = FakeEventSource.current();
    first.emit('ready', { unreadCount: 0 });

    first.fail(); // e.g. 401: the cookie is missing
    expect(received.cookieCalls).toBe(1);
    await vi.advanceTimersByTimeAsync(0);
    const second = FakeEventSource.current();
    expect(second).not.toBe(first);

    // Still refused: no second cookie call, but another try after a pause.
    second.fail();
    expect(received.cookieCalls).toBe(1);
    await vi.advanceTimersByTimeAsync(500);
    expect(FakeEventSource.open).toHaveLength(0);
    await vi.advanceTimersByTimeAsync(3_000);
    const third = FakeEventSource.current();

    // Events may have been missed while no stream was open, and no id says where to resume
    // from: the app is told to catch up.
    third.emit('ready', { unreadCount: 2 });
    expect(received.ready).toEqual([
      { unreadCount: 0, resync: false },
      { unreadCount: 2, resync: true },
    ]);
    expect(third.url).toBe(LIVE_EVENTS_URL);

    // Working again: a later refusal may ask for the cookie again.
    third.fail();
    expect(received.cookieCalls).toBe(2);
  });

  it('reopens from the last event received, so the server replays what was missed', async () => {
    const { received } = await connect();
    const first = FakeEventSource.current();
    first.emit('ready', { unreadCount: 0 }, '40');
    first.emit('bookmark.added', { userId: 'u1', postId: 'p1' }, '42');

    first.fail();
    await Promise.resolve();
    await Promise.resolve();
    const second = FakeEventSource.current();
    expect(second.url).toBe(`${LIVE_EVENTS_URL}?lastEventId=42`);

    second.emit('ready', { unreadCount: 1 }, '45');
    expect(received.ready.at(-1)).toEqual({ unreadCount: 1, resync: false });
  });

  it('reads the fields it needs and ignores any others', async () => {
    const { received } = await connect();
    const source = FakeEventSource.current();
    source.emit('post.deleted', { postId: 'p1', authorId: 'u1', mediaURL: '/media/a.webp' });
    source.emit('post.deleted', { postId: 'p2', authorId: 'u1' });
    source.emit('profile.edited', { userId: 'u1', previousAvatarURL: null, extra: 1 });

    expect(received.events).toEqual([
      { type: 'post.deleted', payload: { postId: 'p1', authorId: 'u1' } },
      { type: 'post.deleted', payload: { postId: 'p2', authorId: 'u1' } },
      { type: 'profile.edited', payload: { userId: 'u1' } },
    ]);
  });

  it('stops everything when closed', async () => {
    vi.useFakeTimers();
    const { connection, received } = await connect();
    const source = FakeEventSource.current();
    source.emit('ready', { unreadCount: 0 });

    connection.close();

    expect(source.readyState).toBe(FakeEventSource.CLOSED);
    source.onerror?.(new Event('error'));
    await vi.advanceTimersByTimeAsync(120_000);
    expect(FakeEventSource.instances).toHaveLength(1);
    expect(received.cookieCalls).toBe(0);
  });

  it('does nothing where the browser has no EventSource', () => {
    vi.stubGlobal('EventSource', undefined);
    const connection = connectLiveEvents({
      onReady: () => undefined,
      onReset: () => undefined,
      onEvent: () => undefined,
      refreshCookie: () => Promise.resolve(),
    });
    expect(() => {
      connection.close();
    }).not.toThrow();
  });
});
