import type { DomainEvent, DomainEventType, PublishedEvent } from '@perch/contract';
import type { FastifyBaseLogger } from 'fastify';
import { sql, type Kysely } from 'kysely';
import { isForeignKeyViolation } from '../db/dialect';
import { withStatementsLent } from '../db/direct-statements';
import type { Database } from '../db/schema';
import { advanceConsumer, claimConsumer, listEventsAfter } from './outbox.repository';
import { retryingConflicts, runRecorded, type EventRecorder } from './transactions';

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
// Events handled alone, each in a savepoint: PostgreSQL keeps up to 64 subtransactions of a
// transaction in shared memory; more make every snapshot taken meanwhile look them up on disk.
const ALONE_BATCH = 60;
// After this many failures in a row the consumer goes one event at a time, then skips the one
// that keeps failing, so that one bad event cannot stop every later one.
const SINGLE_AFTER_FAILURES = 3;
const SKIP_AFTER_FAILURES = 6;

const failures = new WeakMap<DurableConsumer, number>();

type Outcome = 'busy' | 'idle' | 'more';

/** How a batch hands its events to the consumer. */
interface BatchMode {
  size: number;
  /** Moves past the events without handling them (one that kept failing). */
  skip: boolean;
  /** Each event in a savepoint of its own, one naming a vanished row dropped alone. */
  alone: boolean;
  log: FastifyBaseLogger;
}

/**
 * Hands the consumer each event alone, in a savepoint: an event whose writes name a row deleted
 * since the consumer read it (a foreign key violated: a post, comment or member deleted while the
 * batch ran) is rolled back alone and counted done, as its handler would skip it had it seen the
 * deletion. Its recorded events are dropped with it.
 */
async function handleEachAlone(
  trx: Db,
  consumer: DurableConsumer,
  events: readonly PublishedEvent[],
  recorder: EventRecorder,
  log: FastifyBaseLogger,
): Promise<void> {
  for (const event of events) {
    let recorded: DomainEvent[] = [];
    await sql`savepoint consumer_event`.execute(trx);
    try {
      await consumer.handle(trx, [event], { record: (next) => recorded.push(next) });
    } catch (error) {
      if (!isForeignKeyViolation(error)) throw error;
      await sql`rollback to savepoint consumer_event`.execute(trx);
      log.debug({ consumer: consumer.name, eventId: event.id }, 'event names a vanished row');
      recorded = [];
    }
    await sql`release savepoint consumer_event`.execute(trx);
    for (const next of recorded) recorder.record(next);
  }
}

async function runBatch(
  db: Db,
  consumer: DurableConsumer,
  { size, skip, alone, log }: BatchMode,
): Promise<{ outcome: Outcome; lastId: number | null }> {
  const handleNext = async (trx: Db, recorder: EventRecorder): Promise<Outcome> => {
    const position = await claimConsumer(trx, consumer.name);
    if (position === null) return 'busy';
    const events = await listEventsAfter(trx, position, size);
    const last = events[events.length - 1];
    if (!last) return 'idle';
    if (alone) await handleEachAlone(trx, consumer, events, recorder, log);
    else if (!skip) await consumer.handle(trx, events, recorder);
    await advanceConsumer(trx, consumer.name, last.id);
    return events.length === size ? 'more' : 'idle';
  };
  // The transaction holds the writer's connection: its statements run directly meanwhile. Lost to
  // a deadlock on PostgreSQL, it runs again (each run records its events afresh).
  const { result, lastId } = await retryingConflicts(() =>
    db
      .transaction()
      .execute((trx) => withStatementsLent(db, trx, () => runRecorded(trx, handleNext))),
  );
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
  // Set for the batch after one that named a row deleted while it ran (see handleEachAlone).
  let alone = false;
  for (;;) {
    const failed = failures.get(consumer) ?? 0;
    const skip = failed >= SKIP_AFTER_FAILURES;
    const size = failed >= SINGLE_AFTER_FAILURES ? 1 : alone ? ALONE_BATCH : BATCH;
    try {
      const { outcome, lastId } = await runBatch(db, consumer, { size, skip, alone, log });
      if (skip) log.error({ consumer: consumer.name }, 'skipped an event that kept failing');
      failures.delete(consumer);
      alone = false;
      if (lastId !== null) committed(lastId);
      if (outcome !== 'more') return true;
    } catch (error) {
      if (!alone && !skip && isForeignKeyViolation(error)) {
        // A deletion committed while the batch ran: nothing failed, the batch runs again at once.
        log.debug({ consumer: consumer.name }, 'a row vanished under the batch; running it again');
        alone = true;
        continue;
      }
      failures.set(consumer, failed + 1);
      log.error({ err: error, consumer: consumer.name }, 'event consumer failed; will retry');
      return false;
    }
  }
}
