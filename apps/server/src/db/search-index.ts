import { CompiledQuery, type Kysely } from 'kysely';
import { isPostgres } from './dialect';
import type { Database } from './schema';

/**
 * The statements of indexWaitingPosts, for a raw SQLite connection (the benchmark's loader). CROSS
 * JOIN keeps the waiting list the outer loop: without statistics for it, SQLite read every post.
 */
export const INDEX_WAITING_POSTS_SQL = [
  `insert into posts_search (rowid, content)
   select p.rowid, p.content from posts_search_waiting w cross join posts p on p.rowid = w.post_rowid`,
  'delete from posts_search_waiting',
] as const;
const [INDEX_WAITING, FORGET_WAITING] = INDEX_WAITING_POSTS_SQL.map((text) =>
  CompiledQuery.raw(text),
) as [CompiledQuery, CompiledQuery];

/**
 * SQLite: indexes for search the posts inserted in this transaction (noted by the insert trigger
 * of migration 0021), all at once, so that FTS5 writes one segment for them. Runs before every
 * write transaction's COMMIT that may have inserted posts. PostgreSQL indexes a post as it is
 * written.
 */
export async function indexWaitingPosts(db: Kysely<Database>): Promise<void> {
  if (isPostgres(db)) return;
  await db.executeQuery(INDEX_WAITING);
  await db.executeQuery(FORGET_WAITING);
}
