import { sql, type ExpressionBuilder, type Kysely } from 'kysely';
import { compiledQuery } from '../../platform/db/compiled';
import { sqlBoolean } from '../../platform/db/dialect';
import type { Database, UserRow } from '../../platform/db/schema';

type Db = Kysely<Database>;

/** Blocks and mutes share one shape: a member (user_id) keeping another (target_id) away. */
export type SafetyTableName = 'blocks' | 'mutes';

/** How a member stands to the viewer: 'blocking' (viewer blocked them), 'blocked_by', 'muting'. */
export interface RelationRow {
  kind: 'blocking' | 'blocked_by' | 'muting';
  member_id: string;
}

/**
 * Everyone the viewer keeps away or is kept away from, in one query (three index ranges): the
 * members they block, those who block them, those they mute.
 */
export const relationsOf = compiledQuery((db: Db, viewerId: string) =>
  db
    .selectFrom('blocks')
    .select([sql<RelationRow['kind']>`'blocking'`.as('kind'), 'target_id as member_id'])
    .where('user_id', '=', viewerId)
    .unionAll(
      db
        .selectFrom('blocks')
        .select([sql<RelationRow['kind']>`'blocked_by'`.as('kind'), 'user_id as member_id'])
        .where('target_id', '=', viewerId),
    )
    .unionAll(
      db
        .selectFrom('mutes')
        .select([sql<RelationRow['kind']>`'muting'`.as('kind'), 'target_id as member_id'])
        .where('user_id', '=', viewerId),
    ),
);

const blocks = (eb: ExpressionBuilder<Database, never>, blocker: string, blocked: string) =>
  eb.exists(
    eb
      .selectFrom('blocks')
      .select(sql`1`.as('one'))
      .where('user_id', '=', blocker)
      .where('target_id', '=', blocked),
  );

/**
 * Two EXISTS, each one key of the primary key: SQLite answered in 3.4 µs, against 7.7 µs for
 * the same test as one OR (a multi-index OR of two cursors), on every like, comment and vote.
 */
const blockEitherWay = compiledQuery((db: Db, a: string, b: string) =>
  db.selectNoFrom((eb) => eb.or([blocks(eb, a, b), blocks(eb, b, a)]).as('blocked')),
);

/** Whether either member blocks the other. */
export async function blockBetween(db: Db, a: string, b: string): Promise<boolean> {
  const [row] = await blockEitherWay(db, a, b);
  return sqlBoolean(row?.blocked);
}

/** Whether `recipientId` mutes `actorId`. */
const muteOf = compiledQuery((db: Db, recipientId: string, actorId: string) =>
  db
    .selectFrom('mutes')
    .select('user_id')
    .where('user_id', '=', recipientId)
    .where('target_id', '=', actorId)
    .limit(1),
);

export async function mutes(db: Db, recipientId: string, actorId: string): Promise<boolean> {
  return (await muteOf(db, recipientId, actorId)).length > 0;
}

/** true when the row is new (blocking or muting twice is one row). */
export async function insertRow(
  db: Db,
  table: SafetyTableName,
  userId: string,
  targetId: string,
  at: number,
): Promise<boolean> {
  const result = await db
    .insertInto(table)
    .values({ user_id: userId, target_id: targetId, created_at: at })
    .onConflict((oc) => oc.columns(['user_id', 'target_id']).doNothing())
    .executeTakeFirst();
  return (result.numInsertedOrUpdatedRows ?? 0n) > 0n;
}

/** true when there was a row to remove. */
export async function deleteRow(
  db: Db,
  table: SafetyTableName,
  userId: string,
  targetId: string,
): Promise<boolean> {
  const result = await db
    .deleteFrom(table)
    .where('user_id', '=', userId)
    .where('target_id', '=', targetId)
    .executeTakeFirst();
  return result.numDeletedRows > 0n;
}

export type ListedTargetRow = UserRow & { listed_at: number };

/** A page of the members the member blocks or mutes, newest first; keyset [created_at, id]. */
export function listTargets(
  db: Db,
  table: SafetyTableName,
  query: { userId: string; after: readonly [number, string] | null; limit: number },
): Promise<ListedTargetRow[]> {
  let builder = db
    .selectFrom(`${table} as s`)
    .innerJoin('users as u', 'u.id', 's.target_id')
    .selectAll('u')
    .select('s.created_at as listed_at')
    .where('s.user_id', '=', query.userId);
  const after = query.after;
  if (after) {
    builder = builder.where((eb) =>
      eb(eb.refTuple('s.created_at', 's.target_id'), '<', eb.tuple(...after)),
    );
  }
  return builder
    .orderBy('s.created_at', 'desc')
    .orderBy('s.target_id', 'desc')
    .limit(query.limit + 1)
    .execute();
}
