import type { PublishedEvent } from '@perch/contract';
import type { FastifyBaseLogger } from 'fastify';
import { describe, expect, it } from 'vitest';
import { createStreamHub, type StreamClient, type StreamRelations } from './stream-hub';

const NO_ONE: StreamRelations = { blocking: new Set(), blockedBy: new Set(), muting: new Set() };
const log = { error: () => undefined } as unknown as FastifyBaseLogger;

let nextId = 0;
const liked = (postAuthorId: string, userId = 'liker'): PublishedEvent => {
  nextId += 1;
  return {
    id: nextId,
    createdAt: Date.now(),
    type: 'post.liked',
    payload: { postId: `post-${nextId}`, postAuthorId, userId, likeCount: 1 },
  };
};

interface Received {
  events: readonly PublishedEvent[];
  frames: Uint8Array;
}

function client(viewerId: string, into: Received[]): StreamClient {
  return {
    viewerId,
    send: (events, frames) => into.push({ events, frames }),
    close: () => undefined,
  };
}

const hubWith = (relations: Record<string, StreamRelations> = {}, batchMs = 30) =>
  createStreamHub({
    followersAmong: () => Promise.resolve(new Set()),
    followeesAmong: () => Promise.resolve(new Set()),
    relationsOf: (viewerId) => Promise.resolve(relations[viewerId] ?? NO_ONE),
    log,
    batchMs,
  });

const until = async (done: () => boolean) => {
  for (let waited = 0; !done(); waited += 5) {
    if (waited > 2000) throw new Error('not delivered within 2 s');
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
};

describe('the stream hub', () => {
  it('sends the events committed close together in one write per stream, one copy for all', async () => {
    const hub = hubWith();
    const [a, b] = [[], []] as [Received[], Received[]];
    hub.add(client('a', a));
    hub.add(client('b', b));
    const first = liked('author');
    hub.deliver([first]);
    await until(() => a.length === 1 && b.length === 1);
    // The hub was quiet: the first event left at once. The next ones wait for the batch.
    const rest = [liked('author'), liked('author'), liked('author')];
    for (const event of rest) hub.deliver([event]);
    await until(() => a.length === 2 && b.length === 2);
    expect(a.map((write) => write.events.map((event) => event.id))).toEqual([
      [first.id],
      rest.map((event) => event.id),
    ]);
    expect(a[1]?.frames).toBe(b[1]?.frames);
    expect(a[1]?.events).toBe(b[1]?.events);
    expect(
      Buffer.from(a[1]?.frames ?? [])
        .toString()
        .match(/^id: /gm),
    ).toHaveLength(3);
  });

  it('leaves out, per stream, the events about members it blocks, is blocked by or mutes', async () => {
    const hub = hubWith({
      blocker: { ...NO_ONE, blocking: new Set(['x']) },
      blocked: { ...NO_ONE, blockedBy: new Set(['x']) },
      muter: { ...NO_ONE, muting: new Set(['x']) },
    });
    const received: Record<string, Received[]> = {};
    for (const id of ['blocker', 'blocked', 'muter', 'other']) {
      received[id] = [];
      hub.add(client(id, received[id]));
    }
    const events = [liked('x'), liked('y'), liked('y', 'x')];
    hub.deliver(events);
    await until(() => (received.other?.length ?? 0) === 1);
    const ids = (id: string) => received[id]?.flatMap((write) => write.events.map((e) => e.id));
    expect(ids('other')).toEqual(events.map((event) => event.id));
    for (const id of ['blocker', 'blocked', 'muter']) expect(ids(id), id).toEqual([events[1]?.id]);
    // Those who see the same events share one copy.
    expect(received.blocker?.[0]?.events).toBe(received.muter?.[0]?.events);
  });
});
