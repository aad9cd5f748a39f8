import type { Kysely } from 'kysely';
import type { Database, IdempotencyKeysTable } from '../../platform/db/schema';

type Db = Kysely<Database>;

/**
 * Takes the key for this member, or answers false when it is taken. On PostgreSQL an insert that
 * meets a key another transaction is writing waits for it, so the later of two racing requests
 * finds the row the earlier one committed.
 */
export async function claimKey(
  db: Db,
  userId: string,
  key: string,
  createdAt: number,
): Promise<boolean> {
  const result = await db
    .insertInto('idempotency_keys')
    .values({ user_id: userId, key, post_id: null, comment_id: null, created_at: createdAt })
    .onConflict((conflict) => conflict.columns(['user_id', 'key']).doNothing())
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
}

export function findKey(
  db: Db,
  userId: string,
  key: string,
): Promise<Pick<IdempotencyKeysTable, 'post_id' | 'comment_id'> | undefined> {
  return db
    .selectFrom('idempotency_keys')
    .select(['post_id', 'comment_id'])
    .where('user_id', '=', userId)
    .where('key', '=', key)
    .executeTakeFirst();
}

export async function attachToKey(
  db: Db,
  userId: string,
  key: string,
  made: { post_id: string } | { comment_id: string },
): Promise<void> {
  await db
    .updateTable('idempotency_keys')
    .set(made)
    .where('user_id', '=', userId)
    .where('key', '=', key)
    .execute();
}

/** Forgets keys older than `before`; answers how many. */
export async function pruneKeys(db: Db, before: number): Promise<number> {
  const result = await db
    .deleteFrom('idempotency_keys')
    .where('created_at', '<', before)
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}
