import type { DomainEvent, PublishedEvent } from '@perch/contract';
import type { Kysely } from 'kysely';
import { withRowLock } from '../db/dialect';
import { compiledCommand, compiledQuery } from '../db/compiled';
import type { Database } from '../db/schema';

type Db = Kysely<Database>;

// Most writes record one event: that insert is compiled once.
const oneEventInsert = compiledQuery((db: Db, type: string, payload: string, now: number) =>
  db.insertInto('outbox').values({ type, payload, created_at: now }).returning('id'),
);

/**
 * Appends events in the caller's transaction and answers the last id given. Ids must become
 * visible in order, so that a reader that saw id N has seen every committed id below it. SQLite
 * runs one write transaction at a time. On PostgreSQL a deferred trigger (migration 0018) gives
 * each event a newer id as its transaction commits, under a lock held to the end of the commit:
 * there the id answered is the one the insert took, which the committed event's id exceeds.
 */
export async function appendEvents(
  trx: Db,
  events: readonly DomainEvent[],
  now: number,
): Promise<number> {
  const [only] = events;
  if (events.length === 1 && only) {
    const [row] = await oneEventInsert(trx, only.type, JSON.stringify(only.payload), now);
    if (!row) throw new Error('the outbox answered no id');
    return row.id;
  }
  const rows = await trx
    .insertInto('outbox')
    .values(
      events.map((event) => ({
        type: event.type,
        payload: JSON.stringify(event.payload),
        created_at: now,
      })),
    )
    .returning('id')
    .execute();
  return Math.max(...rows.map((row) => row.id));
}

// The relay reads after every commit and each consumer batch reads too: compiled once.
const eventsAfter = compiledQuery((db: Db, afterId: number, limit: number) =>
  db.selectFrom('outbox').selectAll().where('id', '>', afterId).orderBy('id').limit(limit),
);

export async function listEventsAfter(
  db: Db,
  afterId: number,
  limit: number,
): Promise<PublishedEvent[]> {
  const rows = await eventsAfter(db, afterId, limit);
  return rows.map(
    (row) =>
      ({
        id: row.id,
        type: row.type,
        payload: JSON.parse(row.payload) as unknown,
        createdAt: row.created_at,
      }) as PublishedEvent,
  );
}

/**
 * The newest event's id, 0 when there never was one. Pruned events count: when pruning emptied
 * the outbox, streams and the relay stand where the last event left them, not at 0.
 */
export async function lastEventId(db: Db): Promise<number> {
  const row = await db
    .selectFrom('outbox')
    .select((eb) => eb.fn.max<number | null>('id').as('id'))
    .executeTakeFirst();
  return Math.max(row?.id ?? 0, await prunedUpTo(db));
}

// Where pruning has reached is kept beside the consumers' positions, under a name of its own.
const PRUNED = 'outbox-pruned';

/** Removes events older than `time`; a replay from before the newest removed one cannot be done. */
export async function deleteEventsBefore(db: Db, time: number): Promise<number> {
  const newest = await db
    .selectFrom('outbox')
    .select((eb) => eb.fn.max<number | null>('id').as('id'))
    .where('created_at', '<', time)
    .executeTakeFirst();
  const upTo = newest?.id ?? null;
  if (upTo === null) return 0;
  await db
    .insertInto('event_consumers')
    .values({ name: PRUNED, last_id: upTo })
    .onConflict((oc) => oc.column('name').doUpdateSet({ last_id: upTo }))
    .execute();
  const result = await db.deleteFrom('outbox').where('id', '<=', upTo).executeTakeFirst();
  return Number(result.numDeletedRows);
}

/** The newest event id pruning removed, 0 when none. */
export async function prunedUpTo(db: Db): Promise<number> {
  const row = await db
    .selectFrom('event_consumers')
    .select('last_id')
    .where('name', '=', PRUNED)
    .executeTakeFirst();
  return row?.last_id ?? 0;
}

// Each consumer batch claims and advances its position: compiled once, as the relay's read.
const consumerInsert = compiledCommand((db: Db, name: string) =>
  db
    .insertInto('event_consumers')
    .values({ name, last_id: 0 })
    .onConflict((oc) => oc.column('name').doNothing()),
);

/** PostgreSQL skips a row another process holds; on SQLite the claim's insert holds the one lock. */
const consumerPosition = compiledQuery((db: Db, name: string) =>
  withRowLock(
    db,
    db.selectFrom('event_consumers').select('last_id').where('name', '=', name),
    (query) => query.forUpdate().skipLocked(),
  ),
);

const consumerAdvance = compiledCommand((db: Db, name: string, lastId: number) =>
  db.updateTable('event_consumers').set({ last_id: lastId }).where('name', '=', name),
);

/**
 * Takes a consumer's position for this transaction; null when another process holds it (it will
 * read on past what woke us). A consumer seen for the first time starts at the beginning.
 */
export async function claimConsumer(trx: Db, name: string): Promise<number | null> {
  await consumerInsert(trx, name);
  const [row] = await consumerPosition(trx, name);
  return row ? row.last_id : null;
}

export async function advanceConsumer(trx: Db, name: string, lastId: number): Promise<void> {
  await consumerAdvance(trx, name, lastId);
}
