import type { DomainEventType, PublishedEvent } from '@perch/contract';
import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import { withStatementsLent } from '../db/direct-statements';
import type { Database } from '../db/schema';
import { advanceConsumer, claimConsumer, listEventsAfter } from './outbox.repository';
import { runRecorded, type EventRecorder } from './transactions';

type Db = Kysely<Database>;

/**
 * A handler that sees each event exactly once across every process: it runs in a transaction
 * that also moves its position in the outbox, so its writes and its progress commit together.
 * Events it records are stored in that transaction too.
 */
export interface DurableConsumer {
  name: string;
  /** The event types it acts on: it is woken only when one of them is new. */
  types: ReadonlySet<DomainEventType>;
  handle: (trx: Db, events: readonly PublishedEvent[], recorder: EventRecorder) => Promise<void>;
}

const BATCH = 200;
// After this many failures in a row the consumer goes one event at a time, then skips the one
// that keeps failing, so that one bad event cannot stop every later one.
const SINGLE_AFTER_FAILURES = 3;
const SKIP_AFTER_FAILURES = 6;

const failures = new WeakMap<DurableConsumer, number>();

type Outcome = 'busy' | 'idle' | 'more';

async function runBatch(
  db: Db,
  consumer: DurableConsumer,
  batchSize: number,
  skip: boolean,
): Promise<{ outcome: Outcome; lastId: number | null }> {
  const handleNext = async (trx: Db, recorder: EventRecorder): Promise<Outcome> => {
    const position = await claimConsumer(trx, consumer.name);
    if (position === null) return 'busy';
    const events = await listEventsAfter(trx, position, batchSize);
    const last = events[events.length - 1];
    if (!last) return 'idle';
    if (!skip) await consumer.handle(trx, events, recorder);
    await advanceConsumer(trx, consumer.name, last.id);
    return events.length === batchSize ? 'more' : 'idle';
  };
  // The transaction holds the writer's connection: its statements run directly meanwhile.
  const { result, lastId } = await db
    .transaction()
    .execute((trx) => withStatementsLent(db, trx, () => runRecorded(trx, handleNext)));
  return { outcome: result, lastId };
}

export interface ConsumerRunContext {
  log: FastifyBaseLogger;
  committed: (lastId: number) => void;
}

/**
 * Hands the consumer everything new until it is up to date, another process has it, or it fails.
 * Answers false when it failed: the caller must run it again later, as no new event may come.
 */
export async function runConsumer(
  db: Db,
  consumer: DurableConsumer,
  { log, committed }: ConsumerRunContext,
): Promise<boolean> {
  for (;;) {
    const failed = failures.get(consumer) ?? 0;
    const skip = failed >= SKIP_AFTER_FAILURES;
    try {
      const { outcome, lastId } = await runBatch(
        db,
        consumer,
        failed >= SINGLE_AFTER_FAILURES ? 1 : BATCH,
        skip,
      );
      if (skip) log.error({ consumer: consumer.name }, 'skipped an event that kept failing');
      failures.delete(consumer);
      if (lastId !== null) committed(lastId);
      if (outcome !== 'more') return true;
    } catch (error) {
      failures.set(consumer, failed + 1);
      log.error({ err: error, consumer: consumer.name }, 'event consumer failed; will retry');
      return false;
    }
  }
}
