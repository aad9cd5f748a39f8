import type { DomainEventType, PublishedEvent } from '@perch/contract';
import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema';
import type { EventSignal } from '../infra/event-signal';
import { coalesce } from './coalesce';
import { runConsumer, type DurableConsumer } from './consumer';
import { lastEventId, listEventsAfter } from './outbox.repository';

type Db = Kysely<Database>;

/** Hears every committed event once in each process (streams, caches). */
export type EventListener = (events: readonly PublishedEvent[]) => void;

export interface RelayOptions {
  db: Db;
  signal: EventSignal;
  log: FastifyBaseLogger;
  /** Handlers that must see each event exactly once across all processes (notifications, media). */
  consumers: readonly DurableConsumer[];
  /** How often the outbox is read without a signal: the safety net for signals lost meanwhile. */
  pollIntervalMs?: number;
}

export interface Relay {
  /** Reads the outbox from its newest event on and starts listening for signals. */
  start: () => Promise<void>;
  /** Stops reading and waits for a read or consumer under way. */
  stop: () => Promise<void>;
  /** Call after a commit that recorded events: tells every process, this one at once. */
  committed: (lastId: number) => void;
  listen: (listener: EventListener) => () => void;
  /** The id of the newest event this process has handed to its listeners. */
  position: () => number;
  /** Reads and hands on whatever is new; resolves when done (tests, shutdown). */
  drain: () => Promise<void>;
}

const READ_BATCH = 500;
const DEFAULT_POLL_INTERVAL_MS = 1000;

/**
 * After commit, events reach handlers through here. Each process reads the outbox from where it
 * stands whenever a signal says there is more (from this process at once, from others through
 * the signal's transport) and on a slow timer; reads coalesce, so a burst of writes costs one
 * read. The outbox stays the source of truth: a lost signal only delays delivery.
 */
export function createRelay(options: RelayOptions): Relay {
  const { db, signal, log } = options;
  const listeners = new Set<EventListener>();
  let cursor = 0;
  let running = false;
  const isRunning = () => running;
  let timer: NodeJS.Timeout | null = null;
  const unsubscribe: (() => void)[] = [];
  // Consumers whose last run failed: each read runs them again, new events or not.
  const failed = new Set<string>();

  /** Hands on what is new; answers the types seen, so that only the consumers of those wake. */
  async function readNew(seen: Set<DomainEventType>): Promise<void> {
    for (;;) {
      const events = await listEventsAfter(db, cursor, READ_BATCH);
      if (events.length === 0) return;
      cursor = events[events.length - 1]?.id ?? cursor;
      for (const event of events) seen.add(event.type);
      for (const listener of listeners) {
        try {
          listener(events);
        } catch (error) {
          log.error({ err: error }, 'event listener failed');
        }
      }
      if (events.length < READ_BATCH) return;
    }
  }

  const consumerRuns = new Map(
    options.consumers.map((consumer) => [
      consumer,
      coalesce(async () => {
        const ok = await runConsumer(db, consumer, { log, committed: relay.committed });
        if (ok) failed.delete(consumer.name);
        else failed.add(consumer.name);
      }, isRunning),
    ]),
  );

  function kickConsumers(types: ReadonlySet<DomainEventType> | 'all'): void {
    for (const [consumer, runs] of consumerRuns) {
      const wanted =
        types === 'all' ||
        failed.has(consumer.name) ||
        [...consumer.types].some((type) => types.has(type));
      if (wanted) void runs.run();
    }
  }

  const reads = coalesce(async () => {
    const seen = new Set<DomainEventType>();
    try {
      await readNew(seen);
    } catch (error) {
      log.error({ err: error }, 'could not read the outbox');
      return;
    }
    if (seen.size > 0 || failed.size > 0) kickConsumers(seen);
  }, isRunning);

  const wake = (): Promise<void> => (running ? reads.run() : Promise.resolve());
  const consumersIdle = () => Promise.all([...consumerRuns.values()].map((runs) => runs.idle()));

  function schedulePoll(): void {
    const interval = options.pollIntervalMs ?? DEFAULT_POLL_INTERVAL_MS;
    timer = setTimeout(() => {
      void wake().finally(() => {
        if (running) schedulePoll();
      });
    }, interval);
    timer.unref();
  }

  const relay: Relay = {
    async start() {
      cursor = await lastEventId(db);
      running = true;
      unsubscribe.push(signal.subscribe(() => void wake()));
      unsubscribe.push(signal.onReconnect(() => void wake()));
      schedulePoll();
      // Consumers may have fallen behind while no process ran.
      kickConsumers('all');
    },
    async stop() {
      running = false;
      if (timer) clearTimeout(timer);
      for (const off of unsubscribe.splice(0)) off();
      await reads.idle();
      await consumersIdle();
    },
    committed(lastId) {
      signal.notify(lastId);
    },
    listen(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    position: () => cursor,
    async drain() {
      await wake();
      await consumersIdle();
      await wake();
    },
  };
  return relay;
}
