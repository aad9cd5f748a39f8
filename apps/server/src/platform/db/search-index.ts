import { CompiledQuery, type DatabaseConnection } from 'kysely';

/**
 * The statements that index the waiting posts, for a raw SQLite connection (the benchmark's
 * loader). CROSS JOIN keeps the waiting list the outer loop: without statistics for it, SQLite
 * read every post.
 */
export const INDEX_WAITING_POSTS_SQL = [
  `insert into posts_search (rowid, content)
   select p.rowid, p.content from posts_search_waiting w cross join posts p on p.rowid = w.post_rowid`,
  'delete from posts_search_waiting',
] as const;
const [INDEX_WAITING, FORGET_WAITING] = INDEX_WAITING_POSTS_SQL.map((text) =>
  CompiledQuery.raw(text),
) as [CompiledQuery, CompiledQuery];
const WAITING_LIST_MADE = CompiledQuery.raw(
  "select 1 from sqlite_schema where type = 'table' and name = 'posts_search_waiting'",
);

/**
 * SQLite: indexes for search the posts inserted in a transaction (noted by the insert trigger of
 * migration 0021), all at once, so that FTS5 writes one segment for them. The writer's driver runs
 * it before each COMMIT, whichever code inserted them; until the migration has made the list
 * (a file being migrated), there is nothing to index. PostgreSQL indexes a post as it is written.
 */
export function createWaitingPostsIndexer() {
  let listMade = false;
  return async function indexWaitingPosts(connection: DatabaseConnection): Promise<void> {
    if (!listMade) {
      listMade = (await connection.executeQuery(WAITING_LIST_MADE)).rows.length > 0;
      if (!listMade) return;
    }
    await connection.executeQuery(INDEX_WAITING);
    await connection.executeQuery(FORGET_WAITING);
  };
}
