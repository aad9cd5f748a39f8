import { audienceOf, type PublishedEvent } from '@perch/contract';
import type { FastifyBaseLogger } from 'fastify';

/** One open event stream of one member. */
export interface StreamClient {
  viewerId: string;
  /** The session the stream was opened with: it ends when the session is revoked. */
  sessionId?: string;
  send: (event: PublishedEvent) => void;
  /** Closes the stream (the client reconnects and replays); `reason` is logged. */
  close: (reason: string) => void;
}

export interface StreamHubOptions {
  /** Of `candidateIds`, those who follow `authorId`. */
  followersAmong: (authorId: string, candidateIds: readonly string[]) => Promise<Set<string>>;
  /** Of `authorIds`, those whom `viewerId` follows. */
  followeesAmong: (viewerId: string, authorIds: readonly string[]) => Promise<Set<string>>;
  log: FastifyBaseLogger;
}

export interface StreamHub {
  add: (client: StreamClient) => () => void;
  /** Relay listener: hands each event to the open streams allowed to see it, in order. */
  deliver: (events: readonly PublishedEvent[]) => void;
  /** Of these events (a replay), those this member may see. */
  visibleTo: (viewerId: string, events: readonly PublishedEvent[]) => Promise<PublishedEvent[]>;
  /** Ends every stream (shutdown). */
  closeAll: (reason: string) => void;
  size: () => number;
}

/**
 * The open event streams of this process, by member. Who may see what is decided by the event's
 * audience (see audienceOf in the contract): public changes go to everyone, a new post to its
 * author's followers, bookmarks and notifications only to their owner.
 */
export function createStreamHub(options: StreamHubOptions): StreamHub {
  const byViewer = new Map<string, Set<StreamClient>>();
  const all = new Set<StreamClient>();
  // Deliveries run one batch after another so every stream sees events in id order.
  let queue: Promise<void> = Promise.resolve();

  const closeSessions = (sessionIds: readonly string[], reason: string) => {
    const ended = new Set(sessionIds);
    for (const client of [...all]) {
      if (client.sessionId !== undefined && ended.has(client.sessionId)) client.close(reason);
    }
  };

  const sendTo = (viewerId: string, event: PublishedEvent) => {
    for (const client of byViewer.get(viewerId) ?? []) client.send(event);
  };

  async function deliverOne(event: PublishedEvent): Promise<void> {
    const audience = audienceOf(event);
    if (audience.kind === 'public') {
      for (const client of all) client.send(event);
    } else if (audience.kind === 'owner') {
      sendTo(audience.userId, event);
      // Told first, then cut off: a stream must not outlive the session that opened it.
      if (event.type === 'sessions.revoked') closeSessions(event.payload.sessionIds, 'revoked');
    } else {
      const candidates = [...byViewer.keys()].filter((id) => id !== audience.authorId);
      const followers =
        candidates.length > 0
          ? await options.followersAmong(audience.authorId, candidates)
          : new Set<string>();
      sendTo(audience.authorId, event);
      for (const id of followers) sendTo(id, event);
    }
  }

  return {
    add(client) {
      all.add(client);
      let own = byViewer.get(client.viewerId);
      if (!own) byViewer.set(client.viewerId, (own = new Set()));
      own.add(client);
      return () => {
        all.delete(client);
        own.delete(client);
        if (own.size === 0) byViewer.delete(client.viewerId);
      };
    },

    deliver(events) {
      if (all.size === 0) return;
      queue = queue.then(async () => {
        for (const event of events) {
          try {
            await deliverOne(event);
          } catch (error) {
            options.log.error({ err: error, eventId: event.id }, 'could not deliver an event');
          }
        }
      });
    },

    async visibleTo(viewerId, events) {
      const authors = new Set<string>();
      for (const event of events) {
        const audience = audienceOf(event);
        if (audience.kind === 'followers' && audience.authorId !== viewerId) {
          authors.add(audience.authorId);
        }
      }
      const followed =
        authors.size > 0 ? await options.followeesAmong(viewerId, [...authors]) : new Set();
      return events.filter((event) => {
        const audience = audienceOf(event);
        if (audience.kind === 'public') return true;
        if (audience.kind === 'owner') return audience.userId === viewerId;
        return audience.authorId === viewerId || followed.has(audience.authorId);
      });
    },

    closeAll(reason) {
      for (const client of [...all]) client.close(reason);
    },

    size: () => all.size,
  };
}
