import { closeSync, openSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import SqliteDatabase from 'better-sqlite3';
import { sql } from 'kysely';
import type { DatabaseHandle } from './database';

/** PostgreSQL's advisory lock key for starting up (Kysely's own migration lock uses another). */
const POSTGRES_LOCK_KEY = 7_365_109_284_411_002_713n;
const POLL_MS = 25;
/** How long an instance waits for another one's migrations before giving up. */
const SQLITE_WAIT_MS = 30 * 60_000;

/**
 * Runs `work` (migrations, then the demo seed) while no other process or handle runs it on the
 * same database, so that instances starting together do not migrate or seed twice. Crash-safe
 * both ways: PostgreSQL drops a session's advisory lock with its connection, and SQLite's lock on
 * the file goes with the process.
 */
export async function whileStarting<T>(
  database: DatabaseHandle,
  work: () => Promise<T>,
): Promise<T> {
  if (database.kind === 'postgres') return withAdvisoryLock(database, work);
  if (database.file) return withLockFile(`${database.file}-lock`, work);
  return work();
}

/**
 * The lock is held on a connection of its own for the whole of `work`, which uses the pool's
 * other connections (a pool of one would wait for ever).
 */
async function withAdvisoryLock<T>(database: DatabaseHandle, work: () => Promise<T>): Promise<T> {
  return database.db.connection().execute(async (connection) => {
    await sql`select pg_advisory_lock(${POSTGRES_LOCK_KEY})`.execute(connection);
    try {
      return await work();
    } finally {
      await sql`select pg_advisory_unlock(${POSTGRES_LOCK_KEY})`.execute(connection);
    }
  });
}

/**
 * SQLite has no advisory locks, and a write transaction on the database itself would keep the
 * migrations out too; an exclusive transaction on an empty file beside it serves as one. It is
 * waited for between turns of the event loop, where a busy handler would stop the process, and a
 * holder in this same process with it.
 */
async function withLockFile<T>(file: string, work: () => Promise<T>): Promise<T> {
  closeSync(openSync(file, 'a', 0o600));
  const lock = new SqliteDatabase(file);
  try {
    lock.pragma('busy_timeout = 0');
    const deadline = Date.now() + SQLITE_WAIT_MS;
    for (;;) {
      try {
        lock.exec('begin exclusive');
        break;
      } catch (error) {
        const busy = error instanceof SqliteDatabase.SqliteError && error.code === 'SQLITE_BUSY';
        if (!busy || Date.now() >= deadline) throw error;
      }
      await sleep(POLL_MS);
    }
    return await work();
  } finally {
    lock.close();
  }
}
