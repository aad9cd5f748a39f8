import { setTimeout as sleep } from 'node:timers/promises';
import { ErrorMessages, type DomainEvent } from '@perch/contract';
import { CompiledQuery, type ControlledTransaction, type Kysely } from 'kysely';
import type { Database } from '../db/schema';
import { isPostgres } from '../db/dialect';
import { executeCompiled } from '../db/compiled';
import { withStatementsLent } from '../db/direct-statements';
import { AppError } from '../../lib/errors';
import { appendEvents } from './outbox.repository';

type Db = Kysely<Database>;

/** What a write's work gets to say what happened; the events are stored only if it commits. */
export interface EventRecorder {
  record: (event: DomainEvent) => void;
}

export type TransactionWork<T> = (trx: Db, events: EventRecorder) => Promise<T>;

/**
 * Runs work in a transaction and stores the events it recorded in the outbox in that same
 * transaction: an acknowledged write always has its events, a rolled-back one never does.
 */
export async function runRecorded<T>(
  trx: Db,
  work: TransactionWork<T>,
): Promise<{ result: T; lastId: number | null }> {
  const { result, lastId } = await runKeepingEvents(trx, work);
  return { result, lastId };
}

/** As runRecorded, answering the events recorded too (for afterCommit). */
async function runKeepingEvents<T>(
  trx: Db,
  work: TransactionWork<T>,
): Promise<{ result: T; lastId: number | null; events: DomainEvent[] }> {
  const recorded: DomainEvent[] = [];
  const result = await work(trx, { record: (event) => recorded.push(event) });
  const lastId = recorded.length > 0 ? await appendEvents(trx, recorded, Date.now()) : null;
  return { result, lastId, events: recorded };
}

export type Transact = <T>(work: TransactionWork<T>) => Promise<T>;

/**
 * Hears the events a transaction recorded once it committed, before its write is answered: this
 * process's views then never answer a write's author with what the write changed.
 */
export type AfterCommit = (events: readonly DomainEvent[]) => void;

/** Runs of a PostgreSQL transaction that lost to a deadlock or a serialization failure. */
export const TRANSACTION_ATTEMPTS = 5;
/** The wait before the second run; it doubles for each later one, jittered. */
const RETRY_BACKOFF_MS = 4;

/**
 * True when PostgreSQL rolled the transaction back only because it ran beside others: it was
 * chosen to break a deadlock (40P01) or could not be serialised (40001). Run again, it succeeds.
 */
export function isTransactionConflict(error: unknown): boolean {
  const code = typeof error === 'object' && error !== null && 'code' in error ? error.code : null;
  return code === '40P01' || code === '40001';
}

/**
 * Runs `run` (a whole transaction) again after a conflict, up to TRANSACTION_ATTEMPTS times, each
 * after a short random wait so that the transactions that collided do not collide again. When the
 * last run conflicts too the write is answered 503, a busy database, not 500.
 */
export async function retryingConflicts<T>(run: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await run();
    } catch (error) {
      if (!isTransactionConflict(error)) throw error;
      if (attempt >= TRANSACTION_ATTEMPTS) {
        const busy = new AppError(503, ErrorMessages.databaseBusy);
        busy.cause = error;
        throw busy;
      }
      await sleep(RETRY_BACKOFF_MS * 2 ** (attempt - 1) * (0.5 + Math.random()));
    }
  }
}

/**
 * A transact function that tells `committed` the newest event id after each commit with events,
 * and `afterCommit` the events themselves. On SQLite, concurrent writes share transactions
 * (createGroupCommit below); PostgreSQL runs them side by side, each in its own, and runs one
 * again when it lost to a deadlock or a serialization failure (retryingConflicts). The work must
 * therefore be safe to run again: everything it does in the database is rolled back, and the
 * events a failed run recorded are dropped with it (each run records into a list of its own).
 */
export function createTransact(
  db: Db,
  committed: (lastId: number) => void,
  afterCommit: AfterCommit = () => undefined,
): Transact {
  if (!isPostgres(db)) return createGroupCommit(db, committed, afterCommit);
  return async (work) => {
    const { result, lastId, events } = await retryingConflicts(() =>
      db.transaction().execute((trx) => runKeepingEvents(trx, work)),
    );
    if (lastId !== null) {
      afterCommit(events);
      committed(lastId);
    }
    return result;
  };
}

/** Writes run in one transaction at most: bounds how long one COMMIT keeps the others waiting. */
const MAX_BATCH = 64;
const SAVEPOINT = 'write';
/** Rows changed since the connection opened, counting those changed by triggers. */
const TOTAL_CHANGES = CompiledQuery.raw('select total_changes() as changes');

interface Waiting {
  work: TransactionWork<unknown>;
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
}

async function totalChanges(trx: Db): Promise<number> {
  const { rows } = await executeCompiled<{ changes: number }>(trx, TOTAL_CHANGES);
  return rows[0]?.changes ?? 0;
}

/**
 * Group commit for SQLite, which takes one writer at a time: the writes that arrive while a
 * transaction runs wait, then run together in the next one. Each is answered only after the shared
 * COMMIT, so an acknowledged write is stored, and its events with it. One COMMIT (and one write of
 * the pages they share to the log) serves the whole batch instead of one per write.
 *
 * A write that throws must leave nothing behind. Writes refuse almost always before they change
 * anything (a double like, a post gone), so a batch first runs without savepoints: a savepoint
 * copies every page it is the first to change to a journal of its own. Only a write that throws
 * after changing rows, or with an error not the app's own, spoils the batch: it is rolled back
 * and run again with a savepoint for each write, where the one that throws is rolled back alone.
 */
function createGroupCommit(
  db: Db,
  committed: (lastId: number) => void,
  afterCommit: AfterCommit,
): Transact {
  const queue: Waiting[] = [];
  let draining = false;

  /** Answers every write of a batch once its transaction has ended; never throws. */
  async function runBatch(batch: Waiting[]): Promise<void> {
    let outcome: Outcome;
    try {
      const together = await runTogether(batch);
      outcome = together === 'spoiled' ? await runInSavepoints(batch) : together;
    } catch (error) {
      for (const waiting of batch) waiting.reject(error);
      return;
    }
    if (outcome.lastId !== null) {
      afterCommit(outcome.events);
      committed(outcome.lastId);
    }
    for (const answer of outcome.answers) answer();
  }

  async function drain(): Promise<void> {
    try {
      while (queue.length > 0) await runBatch(queue.splice(0, MAX_BATCH));
    } finally {
      draining = false;
    }
  }

  /** The batch's writes one after another; 'spoiled' (rolled back) when one throws after changes. */
  function runTogether(batch: Waiting[]): Promise<Outcome | 'spoiled'> {
    return inTransaction(db, async (trx, outcome) => {
      let changes = await totalChanges(trx);
      for (const [index, { work, resolve, reject }] of batch.entries()) {
        try {
          stored(outcome, await runKeepingEvents(trx, work), resolve);
          if (index < batch.length - 1) changes = await totalChanges(trx);
        } catch (error) {
          if (!(error instanceof AppError) || (await totalChanges(trx)) !== changes) {
            return 'spoiled';
          }
          refused(outcome, error, reject);
        }
      }
      return outcome;
    });
  }

  /** The batch's writes each in a savepoint, rolled back alone when it throws. */
  function runInSavepoints(batch: Waiting[]): Promise<Outcome> {
    return inTransaction(db, async (trx, outcome) => {
      for (const { work, resolve, reject } of batch) {
        const inSavepoint = await trx.savepoint(SAVEPOINT).execute();
        try {
          const recorded = await runKeepingEvents(inSavepoint, work);
          await inSavepoint.releaseSavepoint(SAVEPOINT).execute();
          stored(outcome, recorded, resolve);
        } catch (error) {
          await inSavepoint.rollbackToSavepoint(SAVEPOINT).execute();
          await inSavepoint.releaseSavepoint(SAVEPOINT).execute();
          refused(outcome, error, reject);
        }
      }
      return outcome;
    });
  }

  return <T>(work: TransactionWork<T>): Promise<T> =>
    new Promise<T>((resolve, reject) => {
      queue.push({ work, resolve: resolve as (value: unknown) => void, reject });
      // better-sqlite3 answers synchronously, so a transaction ends before the event loop reads
      // the next request: starting after the loop's I/O turn lets the writes it reads join.
      if (!draining) {
        draining = true;
        setImmediate(() => void drain());
      }
    });
}

/** What a batch's transaction leaves to do after its COMMIT: answer each write, announce events. */
interface Outcome {
  answers: (() => void)[];
  lastId: number | null;
  /** The events of the writes stored, in their order. */
  events: DomainEvent[];
}

/** A write done: answered with its result after the COMMIT, its newest event announced. */
function stored(
  outcome: Outcome,
  recorded: { result: unknown; lastId: number | null; events: readonly DomainEvent[] },
  resolve: Waiting['resolve'],
): void {
  outcome.answers.push(() => {
    resolve(recorded.result);
  });
  if (recorded.lastId !== null) outcome.lastId = recorded.lastId;
  outcome.events.push(...recorded.events);
}

/** A write that threw and left nothing: answered with its error after the COMMIT. */
function refused(outcome: Outcome, error: unknown, reject: Waiting['reject']): void {
  outcome.answers.push(() => {
    reject(error);
  });
}

/**
 * Runs `run` in a transaction, committed when it answers an outcome and rolled back when it
 * answers 'spoiled' or throws (the error is passed on).
 */
async function inTransaction<Result extends Outcome | 'spoiled'>(
  db: Db,
  run: (trx: ControlledTransaction<Database>, outcome: Outcome) => Promise<Result>,
): Promise<Result> {
  let trx: ControlledTransaction<Database> | null = null;
  try {
    const open = await db.startTransaction().execute();
    trx = open;
    // Its queries run the writer's statements directly while it is open (see direct-statements.ts).
    const outcome = await withStatementsLent(db, open, () =>
      run(open, { answers: [], lastId: null, events: [] }),
    );
    if (outcome === 'spoiled') {
      // An error may have ended the transaction already (SQLite rolls back at a full disk).
      await trx
        .rollback()
        .execute()
        .catch(() => undefined);
    } else {
      await trx.commit().execute();
    }
    return outcome;
  } catch (error) {
    await trx
      ?.rollback()
      .execute()
      .catch(() => undefined);
    throw error;
  }
}
