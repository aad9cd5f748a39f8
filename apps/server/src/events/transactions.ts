import type { DomainEvent } from '@perch/contract';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema';
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

/** A transact function that tells `committed` the newest event id after each commit with events. */
export function createTransact(db: Db, committed: (lastId: number) => void): Transact {
  return async (work) => {
    const { result, lastId } = await db.transaction().execute((trx) => runRecorded(trx, work));
    if (lastId !== null) committed(lastId);
    return result;
  };
}
