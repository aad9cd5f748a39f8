import { rmSync } from 'node:fs';
import SqliteDatabase from 'better-sqlite3';
import type { Kysely } from 'kysely';
import pg from 'pg';
import { closeDatabase, createDatabase } from '../../apps/server/src/platform/db/database';
import { migrateToLatest } from '../../apps/server/src/platform/db/migrate';
import { INDEX_WAITING_POSTS_SQL } from '../../apps/server/src/platform/db/search-index';
import type { Instance } from '../lib/instance';
import { postgresSink, sqliteSink, type Sink } from '../lib/sink';

/** A freshly migrated database without its secondary indexes, in a transaction, ready to load. */
export interface LoadTarget {
  sink: Sink;
  /** Names of the secondary indexes dropped, to be rebuilt by buildIndexes(). */
  indexes: string[];
  commit(): Promise<void>;
  buildIndexes(): Promise<void>;
  analyze(): Promise<void>;
  close(): Promise<void>;
}

export function prepareTarget(instance: Instance): Promise<LoadTarget> {
  return instance.kind === 'sqlite'
    ? prepareSqlite(instance)
    : preparePostgres(instance.databaseUrl ?? '');
}

async function prepareSqlite(instance: Instance): Promise<LoadTarget> {
  for (const suffix of ['', '-wal', '-shm', '-journal']) {
    rmSync(instance.sqliteFile + suffix, { force: true });
  }
  const handle = createDatabase({ kind: 'sqlite', filename: instance.sqliteFile });
  await migrateToLatest(handle.db as Kysely<unknown>);
  await closeDatabase(handle);

  const db = new SqliteDatabase(instance.sqliteFile);
  db.pragma('journal_mode = OFF');
  db.pragma('synchronous = OFF');
  db.pragma('foreign_keys = OFF');
  db.pragma('cache_size = -524288');
  db.pragma('temp_store = MEMORY');
  db.pragma('threads = 2');
  // Secondary indexes (every index with its own CREATE statement) are built once, after the load.
  const indexes = db
    .prepare(
      "SELECT name, sql FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL ORDER BY rowid",
    )
    .all() as { name: string; sql: string }[];
  for (const { name } of indexes) db.exec(`DROP INDEX "${name}"`);
  db.exec('BEGIN');
  return {
    sink: sqliteSink(db),
    indexes: indexes.map((index) => index.name),
    async commit() {
      db.exec('COMMIT');
      db.exec('BEGIN');
      return Promise.resolve();
    },
    async buildIndexes() {
      db.exec('COMMIT');
      for (const { sql } of indexes) db.exec(sql);
      // The posts loaded wait to be indexed for search, as a write transaction's do.
      for (const statement of INDEX_WAITING_POSTS_SQL) db.exec(statement);
      // One segment per term, as a server's search-tidy job keeps it over time.
      db.exec("INSERT INTO posts_search (posts_search) VALUES ('optimize')");
      return Promise.resolve();
    },
    async analyze() {
      db.exec('ANALYZE');
      return Promise.resolve();
    },
    async close() {
      db.pragma('journal_mode = WAL');
      db.close();
      return Promise.resolve();
    },
  };
}

async function connectPostgres(url: string): Promise<pg.Client> {
  const first = new pg.Client({ connectionString: url });
  try {
    await first.connect();
    return first;
  } catch (error) {
    if ((error as { code?: string }).code !== '3D000') throw error;
  }
  // The database does not exist yet: create it from the server's maintenance database.
  const target = new URL(url);
  const name = decodeURIComponent(target.pathname.slice(1));
  target.pathname = '/postgres';
  const admin = new pg.Client({ connectionString: target.toString() });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE "${name.replace(/"/g, '""')}"`);
  } finally {
    await admin.end();
  }
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  return client;
}

async function preparePostgres(url: string): Promise<LoadTarget> {
  const setup = await connectPostgres(url);
  await setup.query('DROP SCHEMA IF EXISTS public CASCADE');
  await setup.query('CREATE SCHEMA public');
  await setup.end();

  const handle = createDatabase({ kind: 'postgres', url });
  await migrateToLatest(handle.db as Kysely<unknown>);
  await closeDatabase(handle);

  const client = await connectPostgres(url);
  const indexes = (
    await client.query<{ indexname: string; indexdef: string }>(
      `SELECT i.indexname, i.indexdef FROM pg_indexes i
       WHERE i.schemaname = 'public'
         AND NOT EXISTS (SELECT 1 FROM pg_constraint c WHERE c.conname = i.indexname)`,
    )
  ).rows;
  for (const { indexname } of indexes) await client.query(`DROP INDEX "${indexname}"`);
  // Rows go in parent-first order; skip the per-row foreign key triggers during the load.
  try {
    await client.query("SET session_replication_role = 'replica'");
  } catch {
    // Not a superuser: keep the checks.
  }
  await client.query("SET maintenance_work_mem = '1GB'");
  await client.query('SET synchronous_commit = off');
  await client.query('BEGIN');
  return {
    sink: postgresSink(client),
    indexes: indexes.map((index) => index.indexname),
    async commit() {
      await client.query('COMMIT');
      await client.query('BEGIN');
    },
    async buildIndexes() {
      await client.query('COMMIT');
      for (const { indexdef } of indexes) await client.query(indexdef);
      // The replica role also skipped the triggers that count each tag's posts.
      await client.query(
        `INSERT INTO tags (name, post_count) SELECT tag, count(*) FROM post_tags GROUP BY tag
         ON CONFLICT (name) DO UPDATE SET post_count = excluded.post_count`,
      );
    },
    async analyze() {
      await client.query('VACUUM (ANALYZE)');
    },
    async close() {
      await client.end();
    },
  };
}
