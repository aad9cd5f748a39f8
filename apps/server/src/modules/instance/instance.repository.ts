import type { Kysely } from 'kysely';
import type { Database } from '../../platform/db/schema';

type Db = Kysely<Database>;

const DAY_MS = 24 * 60 * 60 * 1000;

/** The numbers the instance and NodeInfo documents publish. */
export interface InstanceCounts {
  members: number;
  /** Members who used a session within 30 days, and within 180. */
  activeMonth: number;
  activeHalfyear: number;
  posts: number;
  comments: number;
}

const countOf = (row: { n: number | string | bigint } | undefined) => Number(row?.n ?? 0);

async function activeSince(db: Db, since: number): Promise<number> {
  const row = await db
    .selectFrom('sessions')
    .select((eb) => eb.fn.count<number | string>('user_id').distinct().as('n'))
    .where('last_used_at', '>=', since)
    .executeTakeFirst();
  return countOf(row);
}

export async function readCounts(db: Db, now: number): Promise<InstanceCounts> {
  const count = (table: 'users' | 'posts' | 'comments') =>
    db
      .selectFrom(table)
      .select((eb) => eb.fn.countAll<number | string>().as('n'))
      .executeTakeFirst()
      .then(countOf);
  const [members, posts, comments, activeMonth, activeHalfyear] = await Promise.all([
    count('users'),
    count('posts'),
    count('comments'),
    activeSince(db, now - 30 * DAY_MS),
    activeSince(db, now - 180 * DAY_MS),
  ]);
  return { members, activeMonth, activeHalfyear, posts, comments };
}
