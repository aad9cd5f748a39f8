import type { DomainEvent } from '@perch/contract';
import type { ControlledTransaction, Kysely } from 'kysely';
import type { Database } from '../db/schema';
import { isPostgres } from '../db/dialect';
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
  const recorded: DomainEvent[] = [];
  const result = await work(trx, { record: (event) => recorded.push(event) });
  const lastId = recorded.length > 0 ? await appendEvents(trx, recorded, Date.now()) : null;
  return { result, lastId };
}

export type Transact = <T>(work: TransactionWork<T>) => Promise<T>;

/**
 * A transact function that tells `committed` the newest event id after each commit with events.
 * On SQLite, concurrent writes share transactions (createGroupCommit below); PostgreSQL runs them
 * side by side, each in its own.
 */
export function createTransact(db: Db, committed: (lastId: number) => void): Transact {
  if (!isPostgres(db)) return createGroupCommit(db, committed);
  return async (work) => {
    const { result, lastId } = await db.transaction().execute((trx) => runRecorded(trx, work));
    if (lastId !== null) committed(lastId);
    return result;
  };
}

/** Writes run in one transaction at most: bounds how long one COMMIT keeps the others waiting. */
const MAX_BATCH = 64;
const SAVEPOINT = 'write';

interface Waiting {
  work: TransactionWork<unknown>;
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
}

/**
 * Group commit for SQLite, which takes one writer at a time: the writes that arrive while a
 * transaction runs wait, then run together in the next one, each in a savepoint of its own (a
 * write that throws is rolled back alone and answers its error). Each is answered only after the
 * shared COMMIT, so an acknowledged write is stored, and its events with it. One COMMIT (and one
 * write of the pages they share to the log) serves the whole batch instead of one per write.
 */
function createGroupCommit(db: Db, committed: (lastId: number) => void): Transact {
  const queue: Waiting[] = [];
  let draining = false;

  /** Runs a batch; never throws: a failure of the transaction itself answers every write. */
  async function runBatch(batch: Waiting[]): Promise<void> {
    // Each write's answer, given once the batch has committed.
    const answers: (() => void)[] = [];
    let lastId: number | null = null;
    let trx: ControlledTransaction<Database> | null = null;
    try {
      trx = await db.startTransaction().execute();
      for (const { work, resolve, reject } of batch) {
        const inSavepoint = await trx.savepoint(SAVEPOINT).execute();
        try {
          const recorded = await runRecorded(inSavepoint, work);
          await inSavepoint.releaseSavepoint(SAVEPOINT).execute();
          answers.push(() => {
            resolve(recorded.result);
          });
          if (recorded.lastId !== null) lastId = recorded.lastId;
        } catch (error) {
          await inSavepoint.rollbackToSavepoint(SAVEPOINT).execute();
          await inSavepoint.releaseSavepoint(SAVEPOINT).execute();
          answers.push(() => {
            reject(error);
          });
        }
      }
      await trx.commit().execute();
    } catch (error) {
      await trx
        ?.rollback()
        .execute()
        .catch(() => undefined);
      for (const waiting of batch) waiting.reject(error);
      return;
    }
    if (lastId !== null) committed(lastId);
    for (const answer of answers) answer();
  }

  async function drain(): Promise<void> {
    try {
      while (queue.length > 0) await runBatch(queue.splice(0, MAX_BATCH));
    } finally {
      draining = false;
    }
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
