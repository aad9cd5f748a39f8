import { sql, type Kysely } from 'kysely';

/**
 * Post search on SQLite: an FTS5 index of posts' content (external content: the index only, text
 * read from posts by rowid), words split by Unicode rules with accents removed, and prefix indexes
 * of two and three characters so that `ba*` and `bak*` read one list. Triggers keep it in step
 * with every insert, delete and change of content, in the write's own transaction; counter updates
 * do not touch it. Rowids of posts are kept by VACUUM and backups; after anything that renumbers
 * them, `INSERT INTO posts_search(posts_search) VALUES ('rebuild')` builds it again (and, since
 * migration 0021, `DELETE FROM posts_search_waiting` then, as the rebuild indexed those posts too).
 */
export async function upPostSearchSqlite(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE VIRTUAL TABLE IF NOT EXISTS posts_search USING fts5(
      content,
      content = 'posts', content_rowid = 'rowid',
      tokenize = 'unicode61 remove_diacritics 2', prefix = '2 3'
    )
  `.execute(db);
  await sql`
    CREATE TRIGGER IF NOT EXISTS posts_search_insert AFTER INSERT ON posts BEGIN
      INSERT INTO posts_search (rowid, content) VALUES (new.rowid, new.content);
    END
  `.execute(db);
  await sql`
    CREATE TRIGGER IF NOT EXISTS posts_search_delete AFTER DELETE ON posts BEGIN
      INSERT INTO posts_search (posts_search, rowid, content) VALUES ('delete', old.rowid, old.content);
    END
  `.execute(db);
  await sql`
    CREATE TRIGGER IF NOT EXISTS posts_search_update AFTER UPDATE OF content ON posts
    WHEN old.content IS NOT new.content
    BEGIN
      INSERT INTO posts_search (posts_search, rowid, content) VALUES ('delete', old.rowid, old.content);
      INSERT INTO posts_search (rowid, content) VALUES (new.rowid, new.content);
    END
  `.execute(db);
  await sql`INSERT INTO posts_search (posts_search) VALUES ('rebuild')`.execute(db);
  await sql`INSERT INTO posts_search (posts_search) VALUES ('optimize')`.execute(db);
}

/**
 * Post search on PostgreSQL: a generated tsvector of the content with accents removed (the
 * `simple` configuration: no stemming, no stop words, so every word is found as written) and a
 * GIN index of it. `perch_unaccent` wraps the unaccent extension in the immutable function a
 * generated column needs; where the extension cannot be created it leaves text as it is (accents
 * then count) and the migration says so.
 */
export async function upPostSearchPostgres(db: Kysely<unknown>): Promise<void> {
  const schema = await unaccentSchema(db);
  if (schema) {
    await sql`
      CREATE OR REPLACE FUNCTION perch_unaccent(text) RETURNS text
      LANGUAGE sql IMMUTABLE PARALLEL SAFE STRICT
      AS ${sql.lit(`SELECT ${quoteIdent(schema)}.unaccent('${schema.replace(/'/g, "''")}.unaccent'::regdictionary, $1)`)}
    `.execute(db);
  } else {
    await sql`
      CREATE OR REPLACE FUNCTION perch_unaccent(text) RETURNS text
      LANGUAGE sql IMMUTABLE PARALLEL SAFE STRICT AS 'SELECT $1'
    `.execute(db);
  }
  await sql`
    ALTER TABLE posts ADD COLUMN IF NOT EXISTS search_vector tsvector
    GENERATED ALWAYS AS (to_tsvector('simple'::regconfig, perch_unaccent(content))) STORED
  `.execute(db);
  await sql`CREATE INDEX IF NOT EXISTS posts_search_idx ON posts USING gin (search_vector)`.execute(
    db,
  );
}

function quoteIdent(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}

/** The schema the unaccent extension lives in, creating it if need be; null if it cannot be. */
async function unaccentSchema(db: Kysely<unknown>): Promise<string | null> {
  // Migrations run in one transaction on PostgreSQL; a failed statement would end it.
  await sql`SAVEPOINT post_search_extension`.execute(db);
  try {
    await sql`CREATE EXTENSION IF NOT EXISTS unaccent`.execute(db);
  } catch (error) {
    await sql`ROLLBACK TO SAVEPOINT post_search_extension`.execute(db);
    const reason = error instanceof Error ? error.message : String(error);
    console.warn(
      `perch: post search will tell accented letters apart, as the unaccent extension could not ` +
        `be created (${reason}).`,
    );
    return null;
  }
  await sql`RELEASE SAVEPOINT post_search_extension`.execute(db);
  const { rows } = await sql<{ schema: string }>`
    SELECT n.nspname AS schema FROM pg_extension e
    JOIN pg_namespace n ON n.oid = e.extnamespace WHERE e.extname = 'unaccent'
  `.execute(db);
  return rows[0]?.schema ?? null;
}
