import { chmodSync, closeSync, existsSync, mkdirSync, openSync } from 'node:fs';
import path from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import {
  Kysely,
  PostgresDialect,
  SqliteDialect,
  type SqliteDatabase as KyselySqliteDatabase,
} from 'kysely';
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

/**
 * The database holds password hashes and emails: only its owner may read it. SQLite gives the
 * -wal and -shm files the main file's permissions, so creating that one 0600 covers all three;
 * files of an older instance are narrowed too.
 */
function createPrivately(filename: string): void {
  mkdirSync(path.dirname(filename), { recursive: true, mode: 0o700 });
  if (!existsSync(filename)) closeSync(openSync(filename, 'a', 0o600));
  for (const file of [filename, `${filename}-wal`, `${filename}-shm`]) {
    if (existsSync(file)) chmodSync(file, 0o600);
  }
}

export function openSqlite(filename: string): SqliteDatabase.Database {
  if (filename !== ':memory:') createPrivately(filename);
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

const STATEMENT_CACHE_SIZE = 500;

/**
 * Kysely prepares every query anew; compiling the same SQL again costs more than running many of
 * the app's queries. The app issues a small, fixed set of statements, so they are kept.
 */
export function withStatementCache(sqlite: SqliteDatabase.Database): KyselySqliteDatabase {
  const statements = new Map<string, SqliteDatabase.Statement>();
  return {
    close: () => {
      statements.clear();
      sqlite.close();
    },
    prepare: (sql: string) => {
      let statement = statements.get(sql);
      if (!statement) {
        statement = sqlite.prepare(sql);
        if (statements.size >= STATEMENT_CACHE_SIZE) {
          const oldest = statements.keys().next();
          if (!oldest.done) statements.delete(oldest.value);
        }
        statements.set(sql, statement);
      }
      return statement;
    },
  };
}

export function createDatabase(
  target: DatabaseTarget,
  options: DatabaseOptions = {},
): DatabaseHandle {
  if (target.kind === 'sqlite') {
    const sqlite = openSqlite(target.filename);
    return {
      kind: 'sqlite',
      db: new Kysely<Database>({
        dialect: new SqliteDialect({ database: withStatementCache(sqlite) }),
      }),
    };
  }
  const pool = new pg.Pool({
    connectionString: target.url,
    max: target.poolSize ?? 10,
    // With the database down, a request waits this long for a connection, then answers 503.
    connectionTimeoutMillis: 3_000,
    keepAlive: true,
  });
  const onError = options.onIdleConnectionError ?? reportIdleConnectionError;
  pool.on('error', onError);
  // The pool listens to idle clients only; a client whose connection drops while it runs a query
  // also emits 'error', which would end the process without a listener. The query itself fails
  // and is answered (503).
  pool.on('connect', (client) => {
    client.on('error', onError);
  });
  return { kind: 'postgres', db: new Kysely<Database>({ dialect: new PostgresDialect({ pool }) }) };
}
