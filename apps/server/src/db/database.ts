import { mkdirSync } from 'node:fs';
import path from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import { Kysely, PostgresDialect, SqliteDialect } from 'kysely';
import pg from 'pg';
import type { Database } from './schema';

export type DatabaseKind = 'sqlite' | 'postgres';

export type DatabaseTarget =
  { kind: 'sqlite'; filename: string } | { kind: 'postgres'; url: string; poolSize?: number };

export interface DatabaseHandle {
  db: Kysely<Database>;
  kind: DatabaseKind;
}

// Counts and times fit comfortably in a double; keep them numbers rather than strings.
pg.types.setTypeParser(pg.types.builtins.INT8, Number);

export function targetFromConfig(config: {
  dataDir: string;
  databaseUrl: string | null;
}): DatabaseTarget {
  return config.databaseUrl
    ? { kind: 'postgres', url: config.databaseUrl }
    : { kind: 'sqlite', filename: path.join(config.dataDir, 'perch.db') };
}

export function openSqlite(filename: string): SqliteDatabase.Database {
  if (filename !== ':memory:') mkdirSync(path.dirname(filename), { recursive: true });
  const sqlite = new SqliteDatabase(filename);
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('synchronous = NORMAL');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma('busy_timeout = 5000');
  return sqlite;
}

export interface DatabaseOptions {
  /**
   * An idle pooled connection failed (server restart, failover, connection killed). The pool drops
   * it and opens another when needed; without a listener the error would end the process.
   */
  onIdleConnectionError?: (error: Error) => void;
}

const reportIdleConnectionError = (error: Error) => {
  console.error(`perch: an idle database connection failed: ${error.message}`);
};

export function createDatabase(
  target: DatabaseTarget,
  options: DatabaseOptions = {},
): DatabaseHandle {
  if (target.kind === 'sqlite') {
    const sqlite = openSqlite(target.filename);
    return {
      kind: 'sqlite',
      db: new Kysely<Database>({ dialect: new SqliteDialect({ database: sqlite }) }),
    };
  }
  const pool = new pg.Pool({
    connectionString: target.url,
    max: target.poolSize ?? 10,
  });
  pool.on('error', options.onIdleConnectionError ?? reportIdleConnectionError);
  return { kind: 'postgres', db: new Kysely<Database>({ dialect: new PostgresDialect({ pool }) }) };
}
