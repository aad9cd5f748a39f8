import { PostgresAdapter, sql, type Kysely } from 'kysely';

/**
 * An index of the three character sequences (trigrams) of every member's username, first and last
 * name, so that member search finds a substring without reading every member.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  if (db.getExecutor().adapter instanceof PostgresAdapter) await upPostgres(db);
  else await upSqlite(db);
}

/**
 * An FTS5 table over users (external content: it keeps only the index and reads names from users
 * by rowid). Triggers keep it current; profile edits are its only updates, so counter updates do
 * not touch it. Users has no INTEGER PRIMARY KEY, so its rowid is implicit: the backup API copies
 * pages and VACUUM keeps rowids here, but after anything that renumbers them,
 * `INSERT INTO users_search(users_search) VALUES ('rebuild')` builds the index again.
 * SQLite runs migrations outside a transaction, so every step may run twice.
 */
async function upSqlite(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE VIRTUAL TABLE IF NOT EXISTS users_search USING fts5(
      username, first_name, last_name,
      content = 'users', content_rowid = 'rowid', tokenize = 'trigram'
    )
  `.execute(db);
  await sql`
    CREATE TRIGGER IF NOT EXISTS users_search_insert AFTER INSERT ON users BEGIN
      INSERT INTO users_search (rowid, username, first_name, last_name)
      VALUES (new.rowid, new.username, new.first_name, new.last_name);
    END
  `.execute(db);
  // An external-content index forgets a row by being told exactly what it indexed.
  await sql`
    CREATE TRIGGER IF NOT EXISTS users_search_delete AFTER DELETE ON users BEGIN
      INSERT INTO users_search (users_search, rowid, username, first_name, last_name)
      VALUES ('delete', old.rowid, old.username, old.first_name, old.last_name);
    END
  `.execute(db);
  await sql`
    CREATE TRIGGER IF NOT EXISTS users_search_update
    AFTER UPDATE OF username, first_name, last_name ON users
    WHEN old.username IS NOT new.username
      OR old.first_name IS NOT new.first_name
      OR old.last_name IS NOT new.last_name
    BEGIN
      INSERT INTO users_search (users_search, rowid, username, first_name, last_name)
      VALUES ('delete', old.rowid, old.username, old.first_name, old.last_name);
      INSERT INTO users_search (rowid, username, first_name, last_name)
      VALUES (new.rowid, new.username, new.first_name, new.last_name);
    END
  `.execute(db);
  await sql`INSERT INTO users_search (users_search) VALUES ('rebuild')`.execute(db);
}

const INDEX_SQL =
  'CREATE INDEX IF NOT EXISTS users_search_trgm_idx ON users USING gin ' +
  '(lower(username) gin_trgm_ops, lower(first_name) gin_trgm_ops, lower(last_name) gin_trgm_ops)';

/**
 * A GIN index of pg_trgm trigrams on the lower-cased names, which the search's
 * `lower(column) LIKE '%text%'` uses as it is. pg_trgm ships with PostgreSQL (contrib) and
 * database owners may create it (a trusted extension since PostgreSQL 13). Where it cannot be
 * created, search still works by reading every member: the migration says so and goes on.
 */
async function upPostgres(db: Kysely<unknown>): Promise<void> {
  // Migrations run in one transaction on PostgreSQL; a failed statement would end it.
  await sql`SAVEPOINT member_search_extension`.execute(db);
  try {
    await sql`CREATE EXTENSION IF NOT EXISTS pg_trgm`.execute(db);
  } catch (error) {
    await sql`ROLLBACK TO SAVEPOINT member_search_extension`.execute(db);
    const reason = error instanceof Error ? error.message : String(error);
    console.warn(
      `perch: member search will read every member, as the pg_trgm extension could not be ` +
        `created (${reason}). Once it can be, run: CREATE EXTENSION pg_trgm; ${INDEX_SQL};`,
    );
    return;
  }
  await sql`RELEASE SAVEPOINT member_search_extension`.execute(db);
  await sql.raw(INDEX_SQL).execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  if (db.getExecutor().adapter instanceof PostgresAdapter) {
    // The extension stays: it may have been there before, and other objects may use it.
    await sql`DROP INDEX IF EXISTS users_search_trgm_idx`.execute(db);
    return;
  }
  for (const trigger of ['users_search_insert', 'users_search_delete', 'users_search_update']) {
    await sql`DROP TRIGGER IF EXISTS ${sql.id(trigger)}`.execute(db);
  }
  await sql`DROP TABLE IF EXISTS users_search`.execute(db);
}
