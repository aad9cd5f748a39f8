import {
  audienceOf,
  membersInvolved,
  type EventAudience,
  type PublishedEvent,
} from '@perch/contract';
import type { FastifyBaseLogger } from 'fastify';
import { frameOf } from './sse';

/** One open event stream of one member. */
export interface StreamClient {
  viewerId: string;
  /** The session the stream was opened with: it ends when the session is revoked. */
  sessionId?: string;
  /**
   * Events of one delivery, in id order, and the same events as they go on the wire (bytes shared
   * by every stream that receives the same events).
   */
  send: (events: readonly PublishedEvent[], frames: Uint8Array) => void;
  /** Closes the stream (the client reconnects and replays); `reason` is logged. */
  close: (reason: string) => void;
}

/** Whom a member blocks, is blocked by and mutes (the read model's cached relations). */
export interface StreamRelations {
  blocking: ReadonlySet<string>;
  blockedBy: ReadonlySet<string>;
  muting: ReadonlySet<string>;
}

export interface StreamHubOptions {
  /** Of `candidateIds`, those who follow `authorId`. */
  followersAmong: (authorId: string, candidateIds: readonly string[]) => Promise<Set<string>>;
  /** Of `authorIds`, those whom `viewerId` follows. */
  followeesAmong: (viewerId: string, authorIds: readonly string[]) => Promise<Set<string>>;
  relationsOf: (viewerId: string) => Promise<StreamRelations>;
  log: FastifyBaseLogger;
  /**
   * Deliveries begin at most this far apart: the events committed in between go to each stream in
   * one write (see docs/decisions/0033-stream-fan-out.md). A quiet hub delivers at once.
   */
  batchMs?: number;
}

export interface StreamHub {
  add: (client: StreamClient) => () => void;
  /** Relay listener: hands the events to the open streams allowed to see them, in order. */
  deliver: (events: readonly PublishedEvent[]) => void;
  /** Of these events (a replay), those this member may see. */
  visibleTo: (viewerId: string, events: readonly PublishedEvent[]) => Promise<PublishedEvent[]>;
  /** Ends every stream (shutdown). */
  closeAll: (reason: string) => void;
  size: () => number;
}

export const STREAM_BATCH_MS = 50;
/**
 * Stream writes a busy hub allows itself per second: deliveries begin 1 ms apart per 20 open
 * streams (10 ms for 200, 50 ms for 1,000), so few streams hear events sooner and many cost
 * no more of the thread that answers requests.
 */
const WRITES_PER_SECOND = 20_000;
/** Streams written to before the hub lets waiting requests run. */
const WRITES_PER_SLICE = 250;

const yieldToRequests = () => new Promise<void>((resolve) => setImmediate(resolve));

const hides = (relations: StreamRelations, memberId: string): boolean =>
  relations.blocking.has(memberId) ||
  relations.blockedBy.has(memberId) ||
  relations.muting.has(memberId);

const isEmpty = (relations: StreamRelations): boolean =>
  relations.blocking.size === 0 && relations.blockedBy.size === 0 && relations.muting.size === 0;

interface EventFacts {
  audience: EventAudience;
  involved: readonly string[];
}

const factsOf = (events: readonly PublishedEvent[]): EventFacts[] =>
  events.map((event) => ({ audience: audienceOf(event), involved: membersInvolved(event) }));

/** What one batch needs to decide, for any member, which of its events they may see. */
interface BatchRules {
  events: readonly PublishedEvent[];
  /** Each event's audience and the members it involves, worked out once for all streams. */
  facts: readonly EventFacts[];
  /** By author, those of the open streams' members who follow them (followers-only events). */
  followers: Map<string, ReadonlySet<string>>;
  relations: Map<string, StreamRelations>;
}

/** Whether `viewerId` may see `event`, by its audience and then by blocks and mutes. */
function mayReceive(rules: BatchRules, viewerId: string, { audience, involved }: EventFacts) {
  if (audience.kind === 'owner') return audience.userId === viewerId;
  if (audience.kind === 'followers' && audience.authorId !== viewerId) {
    if (rules.followers.get(audience.authorId)?.has(viewerId) !== true) return false;
  }
  const relations = rules.relations.get(viewerId);
  if (relations === undefined || isEmpty(relations)) return true;
  return !involved.some((memberId) => hides(relations, memberId));
}

/** The positions of the batch's events this member may see, or null for all of them. */
function visiblePositions(rules: BatchRules, viewerId: string): number[] | null {
  const positions: number[] = [];
  rules.facts.forEach((facts, index) => {
    if (mayReceive(rules, viewerId, facts)) positions.push(index);
  });
  return positions.length === rules.events.length ? null : positions;
}

/** The followers and relations a batch needs for the members of the open streams. */
async function rulesFor(
  options: StreamHubOptions,
  viewers: readonly string[],
  events: readonly PublishedEvent[],
): Promise<BatchRules> {
  const followers = new Map<string, ReadonlySet<string>>();
  for (const event of events) {
    const audience = audienceOf(event);
    if (audience.kind !== 'followers' || followers.has(audience.authorId)) continue;
    const candidates = viewers.filter((id) => id !== audience.authorId);
    followers.set(
      audience.authorId,
      candidates.length > 0
        ? await options.followersAmong(audience.authorId, candidates)
        : new Set(),
    );
  }
  const facts = factsOf(events);
  const relations = new Map<string, StreamRelations>();
  if (facts.some(({ involved }) => involved.length > 0)) {
    const read = await Promise.all(viewers.map((id) => options.relationsOf(id)));
    viewers.forEach((id, index) => {
      const found = read[index];
      if (found) relations.set(id, found);
    });
  }
  return { events, facts, followers, relations };
}

/** Members who may see the same events of a batch share one encoded copy of them. */
function sharedCopies(events: readonly PublishedEvent[]) {
  const copies = new Map<string, { events: PublishedEvent[]; frames: Uint8Array }>();
  return (positions: number[] | null) => {
    const key = positions === null ? 'all' : positions.join(',');
    let copy = copies.get(key);
    if (copy === undefined) {
      const chosen =
        positions === null
          ? [...events]
          : positions.flatMap((at) => (events[at] === undefined ? [] : [events[at]]));
      // Encoded once here rather than by each stream's write.
      copy = { events: chosen, frames: Buffer.from(chosen.map(frameOf).join('')) };
      copies.set(key, copy);
    }
    return copy;
  };
}

/** Of these events (a replay), those the member may see. */
async function visibleToViewer(
  options: StreamHubOptions,
  viewerId: string,
  events: readonly PublishedEvent[],
): Promise<PublishedEvent[]> {
  const authors = new Set<string>();
  for (const event of events) {
    const audience = audienceOf(event);
    if (audience.kind === 'followers' && audience.authorId !== viewerId) {
      authors.add(audience.authorId);
    }
  }
  const followed =
    authors.size > 0 ? await options.followeesAmong(viewerId, [...authors]) : new Set<string>();
  const followers = new Map<string, ReadonlySet<string>>();
  for (const author of followed) followers.set(author, new Set([viewerId]));
  const relations = new Map([[viewerId, await options.relationsOf(viewerId)]]);
  const rules = { events, facts: factsOf(events), followers, relations };
  return events.filter((_, index) => {
    const facts = rules.facts[index];
    return facts !== undefined && mayReceive(rules, viewerId, facts);
  });
}

/**
 * The open event streams of this process, by member. Who may see what is decided by the event's
 * audience (see audienceOf in the contract: public changes go to everyone, a new post to its
 * author's followers, bookmarks and notifications only to their owner) and then by the blocks
 * and mutes of the members it involves (membersInvolved), as lists decide.
 *
 * Events are delivered in batches: each stream gets one write per batch, and the members who may
 * see the same events (most of them) share one encoded copy.
 */
export function createStreamHub(options: StreamHubOptions): StreamHub {
  const batchMs = options.batchMs ?? STREAM_BATCH_MS;
  const byViewer = new Map<string, Set<StreamClient>>();
  const all = new Set<StreamClient>();
  // Batches run one after another so every stream sees events in id order.
  let queue: Promise<void> = Promise.resolve();
  let pending: PublishedEvent[] = [];
  let scheduled = false;
  let lastDeliveryAt = -Infinity;

  const closeSessions = (sessionIds: readonly string[], reason: string) => {
    const ended = new Set(sessionIds);
    for (const client of [...all]) {
      if (client.sessionId !== undefined && ended.has(client.sessionId)) client.close(reason);
    }
  };

  async function deliverBatch(events: readonly PublishedEvent[]): Promise<void> {
    // Streams opened after this began start past these events (see event-stream.ts).
    const viewers = [...byViewer.keys()];
    const rules = await rulesFor(options, viewers, events);
    const copyOf = sharedCopies(events);
    let written = 0;
    for (const viewerId of viewers) {
      const clients = byViewer.get(viewerId);
      if (clients === undefined) continue;
      const positions = visiblePositions(rules, viewerId);
      if (positions?.length === 0) continue;
      const copy = copyOf(positions);
      for (const client of [...clients]) client.send(copy.events, copy.frames);
      written += clients.size;
      if (written >= WRITES_PER_SLICE) {
        written = 0;
        await yieldToRequests();
      }
    }
    // Told first, then cut off: a stream must not outlive the session that opened it.
    for (const event of events) {
      if (event.type === 'sessions.revoked') closeSessions(event.payload.sessionIds, 'revoked');
    }
  }

  const flush = () => {
    scheduled = false;
    lastDeliveryAt = performance.now();
    const events = pending;
    pending = [];
    queue = queue.then(() =>
      deliverBatch(events).catch((error: unknown) => {
        const eventIds = events.map((event) => event.id);
        options.log.error({ err: error, eventIds }, 'could not deliver events');
      }),
    );
  };

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
      if (all.size === 0 || events.length === 0) return;
      for (const event of events) pending.push(event);
      if (scheduled) return;
      scheduled = true;
      const spacing = Math.min(batchMs, (all.size / WRITES_PER_SECOND) * 1000);
      const wait = lastDeliveryAt + spacing - performance.now();
      if (wait <= 0) setImmediate(flush);
      else setTimeout(flush, wait);
    },

    visibleTo: (viewerId, events) => visibleToViewer(options, viewerId, events),

    closeAll(reason) {
      for (const client of [...all]) client.close(reason);
    },

    size: () => all.size,
  };
}
