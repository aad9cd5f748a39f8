import { PostgresAdapter, sql, type Kysely } from 'kysely';

/**
 * SQLite: new posts enter the search index once per transaction instead of one at a time.
 *
 * FTS5 keeps what it is given in memory until the transaction commits, but writes it out as a
 * segment of its own whenever a savepoint opens, and SQLite opens one around every statement that
 * may fail halfway (an insert that fires a trigger, a row inserted with several). A batch of the
 * group commit therefore wrote one segment a post, and merged them again later: under `perf`, 7% of
 * the main thread while posting. The insert trigger now notes the post's rowid in
 * `posts_search_waiting`, and the writer's driver indexes a transaction's waiting posts just before
 * its COMMIT (db/search-index.ts): readers, who see committed rows only, never find a post unindexed.
 * A post deleted or edited while it waits is dropped from the list or left to be indexed as it is
 * then. PostgreSQL's index is a generated column and is unchanged.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  if (db.getExecutor().adapter instanceof PostgresAdapter) return;
  await sql`CREATE TABLE posts_search_waiting (post_rowid INTEGER PRIMARY KEY)`.execute(db);
  await dropTriggers(db);
  await sql`
    CREATE TRIGGER posts_search_insert AFTER INSERT ON posts BEGIN
      INSERT INTO posts_search_waiting (post_rowid) VALUES (new.rowid);
    END
  `.execute(db);
  await sql`
    CREATE TRIGGER posts_search_delete AFTER DELETE ON posts BEGIN
      INSERT INTO posts_search (posts_search, rowid, content)
        SELECT 'delete', old.rowid, old.content
        WHERE NOT EXISTS (SELECT 1 FROM posts_search_waiting WHERE post_rowid = old.rowid);
      DELETE FROM posts_search_waiting WHERE post_rowid = old.rowid;
    END
  `.execute(db);
  await sql`
    CREATE TRIGGER posts_search_update AFTER UPDATE OF content ON posts
    WHEN old.content IS NOT new.content
      AND NOT EXISTS (SELECT 1 FROM posts_search_waiting WHERE post_rowid = old.rowid)
    BEGIN
      INSERT INTO posts_search (posts_search, rowid, content) VALUES ('delete', old.rowid, old.content);
      INSERT INTO posts_search (rowid, content) VALUES (new.rowid, new.content);
    END
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  if (db.getExecutor().adapter instanceof PostgresAdapter) return;
  await sql`
    INSERT INTO posts_search (rowid, content)
    SELECT p.rowid, p.content FROM posts_search_waiting w JOIN posts p ON p.rowid = w.post_rowid
  `.execute(db);
  await dropTriggers(db);
  await sql`DROP TABLE posts_search_waiting`.execute(db);
  await sql`
    CREATE TRIGGER posts_search_insert AFTER INSERT ON posts BEGIN
      INSERT INTO posts_search (rowid, content) VALUES (new.rowid, new.content);
    END
  `.execute(db);
  await sql`
    CREATE TRIGGER posts_search_delete AFTER DELETE ON posts BEGIN
      INSERT INTO posts_search (posts_search, rowid, content) VALUES ('delete', old.rowid, old.content);
    END
  `.execute(db);
  await sql`
    CREATE TRIGGER posts_search_update AFTER UPDATE OF content ON posts
    WHEN old.content IS NOT new.content
    BEGIN
      INSERT INTO posts_search (posts_search, rowid, content) VALUES ('delete', old.rowid, old.content);
      INSERT INTO posts_search (rowid, content) VALUES (new.rowid, new.content);
    END
  `.execute(db);
}

async function dropTriggers(db: Kysely<unknown>): Promise<void> {
  for (const name of ['posts_search_insert', 'posts_search_delete', 'posts_search_update']) {
    await sql`DROP TRIGGER IF EXISTS ${sql.id(name)}`.execute(db);
  }
}
