import { STREAM_READY, STREAM_RESET, type PublishedEvent } from '@perch/contract';
import type { Kysely } from 'kysely';
import type { Viewer } from '../../lib/viewer';
import type { Database } from '../db/schema';
import { lastEventId, listEventsAfter, prunedUpTo } from './outbox.repository';
import type { Relay } from './relay';
import { frameOf, type SseWriter } from './sse';
import type { StreamHub } from './stream-hub';

type Db = Kysely<Database>;

export interface EventStreamsDeps {
  db: Db;
  hub: StreamHub;
  relay: Pick<Relay, 'position'>;
  unreadCount: (viewer: Viewer) => Promise<number>;
  /** A reconnect that missed more than this many events is told to refetch instead. */
  replayLimit: number;
}

/**
 * A member's live stream: `ready` first, then what they missed since Last-Event-ID (from the
 * outbox), then events as they are committed, without gaps or repeats between the two.
 */
export function createEventStreams({ db, hub, relay, unreadCount, replayLimit }: EventStreamsDeps) {
  /** Events after `lastId` this member may see; null when they are no longer all kept. */
  async function missedSince(viewer: Viewer, lastId: number): Promise<PublishedEvent[] | null> {
    // Gone from the outbox, or an id this outbox never gave (another database, a restore).
    if (lastId < (await prunedUpTo(db)) || lastId > (await lastEventId(db))) return null;
    const missed = await listEventsAfter(db, lastId, replayLimit + 1);
    if (missed.length > replayLimit) return null;
    return hub.visibleTo(viewer.id, missed);
  }

  return {
    async open(viewer: Viewer, lastEventId: number | null, sse: SseWriter): Promise<void> {
      // Live events are held back until the replay is out, then sent past where it ended.
      let held: PublishedEvent[] | null = [];
      let sentUpTo = lastEventId ?? relay.position();
      const send = (event: PublishedEvent) => {
        if (event.id <= sentUpTo) return;
        sentUpTo = event.id;
        sse.sendFrame(frameOf(event));
      };
      const remove = hub.add({
        viewerId: viewer.id,
        sessionId: viewer.sessionId,
        send: (events, frames) => {
          if (held) held.push(...events);
          else if ((events[0]?.id ?? 0) > sentUpTo) {
            // The usual case: the whole delivery is new to this stream, in one write.
            sentUpTo = events.at(-1)?.id ?? sentUpTo;
            sse.sendFrames(frames);
          } else for (const event of events) send(event);
        },
        close: () => {
          sse.close();
        },
      });
      sse.onClose(remove);

      const ready = { unreadCount: await unreadCount(viewer) };
      if (lastEventId === null) {
        sse.send({ id: sentUpTo, event: STREAM_READY, data: ready });
      } else {
        const missed = await missedSince(viewer, lastEventId);
        sse.send({ event: STREAM_READY, data: ready });
        if (missed === null) {
          sentUpTo = relay.position();
          sse.send({ id: sentUpTo, event: STREAM_RESET, data: {} });
        } else {
          for (const event of missed) send(event);
        }
      }
      const pending = held;
      held = null;
      for (const event of pending) send(event);
    },
  };
}

export type EventStreams = ReturnType<typeof createEventStreams>;
