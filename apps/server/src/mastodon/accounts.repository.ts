import type { Kysely } from 'kysely';
import type { Database } from '../platform/db/schema';

type Db = Kysely<Database>;

/** When each of these members last posted (ms); members who never did are left out. */
export async function lastPostTimes(
  db: Db,
  userIds: readonly string[],
): Promise<Map<string, number>> {
  if (userIds.length === 0) return new Map();
  const rows = await db
    .selectFrom('posts')
    .select(['user_id', (eb) => eb.fn.max<number | string>('created_at').as('last')])
    .where('user_id', 'in', userIds)
    .groupBy('user_id')
    .execute();
  return new Map(rows.map((row) => [row.user_id, Number(row.last)]));
}
