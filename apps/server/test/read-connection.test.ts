import { once } from 'node:events';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import SqliteDatabase from 'better-sqlite3';
import { sql, type Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCheckpointer } from '../src/platform/db/checkpointer';
import { DEFAULT_SQLITE_CACHE_MIB } from '../src/app/config';
import {
  closeDatabase,
  createDatabase,
  targetFromConfig,
  type DatabaseHandle,
} from '../src/platform/db/database';
import { migrateToLatest } from '../src/platform/db/migrate';
import type { Database } from '../src/platform/db/schema';
import { createTestApp } from './helpers';
import { testDatabaseKind } from './test-database';

const sqliteOnly = describe.runIf(testDatabaseKind() === 'sqlite');

const pragma = async (db: Kysely<Database>, name: string): Promise<unknown> => {
  const { rows } = await sql<Record<string, unknown>>`pragma ${sql.raw(name)}`.execute(db);
  return rows[0]?.[name];
};

const member = (id: string) => ({
  id,
  username: `reader_${id}`,
  first_name: 'Read',
  last_name: 'Er',
  email: `${id}@example.com`,
  password_hash: 'x',
  created_at: 0,
  updated_at: 0,
});

/** A promise that settles when told to. */
function gate(): { promise: Promise<void>; open: () => void } {
  let open: () => void = () => undefined;
  const promise = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { promise, open };
}

const countMembers = async (db: Kysely<Database>): Promise<number> =>
  (await db.selectFrom('users').select('id').execute()).length;

/**
 * A migrated SQLite file in a directory of its own for the tests of one describe, closed and
 * removed after them.
 */
function useMigratedFile(prefix: string): { dataDir: string; handle: DatabaseHandle } {
  const file = { dataDir: '', handle: undefined as unknown as DatabaseHandle };
  beforeAll(async () => {
    file.dataDir = mkdtempSync(path.join(os.tmpdir(), prefix));
    file.handle = createDatabase({ kind: 'sqlite', filename: path.join(file.dataDir, 'perch.db') });
    await migrateToLatest(file.handle.db as Kysely<unknown>);
  });
  afterAll(async () => {
    await closeDatabase(file.handle);
    rmSync(file.dataDir, { recursive: true, force: true });
  });
  return file;
}

sqliteOnly('the read connection of a SQLite file', () => {
  const file = useMigratedFile('perch-reads-');

  it('is a connection of its own that cannot write', async () => {
    expect(file.handle.reads).not.toBe(file.handle.db);
    await expect(
      file.handle.reads.insertInto('users').values(member('r0')).execute(),
    ).rejects.toThrow(/readonly/);
    expect(await pragma(file.handle.reads, 'temp_store')).toBe(2);
    expect(await pragma(file.handle.reads, 'cache_size')).toBe(-DEFAULT_SQLITE_CACHE_MIB * 1024);
    expect(await pragma(file.handle.db, 'cache_size')).toBe(-DEFAULT_SQLITE_CACHE_MIB * 1024);
    expect(await pragma(file.handle.db, 'journal_mode')).toBe('wal');
  });

  it('sees what is committed, without waiting for a write transaction to end', async () => {
    await file.handle.db.insertInto('users').values(member('r1')).execute();
    expect(await countMembers(file.handle.reads)).toBe(1);

    const held = gate();
    const hasInserted = gate();
    const writing = file.handle.db.transaction().execute(async (trx) => {
      await trx.insertInto('users').values(member('r2')).execute();
      hasInserted.open();
      await held.promise;
    });
    await hasInserted.promise;
    try {
      // The writer's one connection is held by the transaction; the reader answers meanwhile,
      // from the last committed state.
      expect(await countMembers(file.handle.reads)).toBe(1);
    } finally {
      held.open();
      await writing;
    }
    expect(await countMembers(file.handle.reads)).toBe(2);
  });
});

sqliteOnly('checkpoints of a SQLite file', () => {
  const file = useMigratedFile('perch-checkpoints-');

  it('are not made by the writer, but by a thread of their own that copies the whole log', async () => {
    expect(await pragma(file.handle.db, 'wal_autocheckpoint')).toBe(0);
    const checkpointer = file.handle.checkpointer;
    if (!checkpointer) throw new Error('no checkpointer');
    // More pages than SQLite's own automatic checkpoint would have let the log hold.
    const rows = Array.from({ length: 3000 }, (_, i) => ({
      ...member(`c${i}`),
      bio: 'x'.repeat(1500),
    }));
    for (let i = 0; i < rows.length; i += 100) {
      await file.handle.db
        .insertInto('users')
        .values(rows.slice(i, i + 100))
        .execute();
    }
    const walBytes = statSync(path.join(file.dataDir, 'perch.db-wal')).size;
    expect(walBytes).toBeGreaterThan(1000 * 4096);
    // A checkpoint already under way when the last insert landed copies only what it saw; one of
    // the next few copies the whole log.
    let result = await checkpointer.next();
    for (let i = 0; i < 10 && (result.log === 0 || result.copied < result.log); i += 1) {
      result = await checkpointer.next();
    }
    expect(result.copied).toBe(result.log);
    expect(result.log).toBeGreaterThan(1000);
    // Writes after a whole-log checkpoint start the log over instead of growing it. A write that
    // lands while a checkpoint is still copying appends, and a result heard may predate a write,
    // so small writes go on, each followed by a checkpoint, until the log has started over.
    let next = result;
    for (let i = 0; i < 20 && next.log >= 100; i += 1) {
      await file.handle.db
        .insertInto('users')
        .values(member(`c-after-${i}`))
        .execute();
      await checkpointer.next();
      next = await checkpointer.next();
    }
    expect(next.log).toBeLessThan(100);
    expect(await countMembers(file.handle.reads)).toBeGreaterThan(3000);
  });
});

sqliteOnly('a log grown past its limit', () => {
  const file = useMigratedFile('perch-restart-');

  it('is copied whole with writers held off, so that the next write starts it over', async () => {
    const dbFile = path.join(file.dataDir, 'perch.db');
    // Under steady writes a passive checkpoint never finds the whole log copied when a write
    // begins, and the log grows for as long as they last: past the limit, writers wait for it.
    const checkpointer = startCheckpointer(dbFile, { intervalMs: 20, restartFrames: 500 });
    try {
      let result = await checkpointer.next();
      if (result.restarted) {
        // The migrations' own log was past the limit: a write starts it over before the test.
        await file.handle.db.insertInto('users').values(member('r-before')).execute();
        result = await checkpointer.next();
        result = await checkpointer.next();
      }
      expect(result.restarted).toBe(false);
      await file.handle.db
        .insertInto('users')
        .values(
          Array.from({ length: 1000 }, (_, i) => ({ ...member(`r${i}`), bio: 'y'.repeat(1500) })),
        )
        .execute();
      while (result.log < 500) result = await checkpointer.next();
      expect(result.restarted).toBe(true);
      expect(result.copied).toBe(result.log);
      await file.handle.db.insertInto('users').values(member('r-after')).execute();
      result = await checkpointer.next();
      result = await checkpointer.next();
      expect(result.log).toBeLessThan(100);
      expect(result.restarted).toBe(false);
      expect(await countMembers(file.handle.reads)).toBeGreaterThan(1000);
    } finally {
      await checkpointer.stop();
    }
  });
});

sqliteOnly('a log past its limit with a reader still on an older part of it', () => {
  const file = useMigratedFile('perch-restart-reader-');

  it('is not started over until the reader is done, and writers are not held off meanwhile', async () => {
    const dbFile = path.join(file.dataDir, 'perch.db');
    const checkpointer = startCheckpointer(dbFile, { intervalMs: 20, restartFrames: 500 });
    const reader = new SqliteDatabase(dbFile, { readonly: true });
    // Another writer that never waits: it fails at once whenever the lock is held.
    const writer = new SqliteDatabase(dbFile);
    writer.pragma('busy_timeout = 0');
    try {
      reader.exec('begin');
      reader.prepare('select count(*) from users').get();
      await file.handle.db
        .insertInto('users')
        .values(
          Array.from({ length: 1000 }, (_, i) => ({ ...member(`l${i}`), bio: 'z'.repeat(1500) })),
        )
        .execute();
      let result = await checkpointer.next();
      while (result.log < 500) result = await checkpointer.next();
      // The checkpointer keeps trying to start the log over; a restart that waited for the reader
      // would hold the write lock all along.
      const insert = writer.prepare(
        'insert into users (id, username, first_name, last_name, email, password_hash, created_at, updated_at) values (?, ?, ?, ?, ?, ?, 0, 0)',
      );
      let written = 0;
      for (let i = 0; i < 40; i += 1) {
        try {
          writer.exec('begin immediate');
          insert.run(`w${i}`, `reader_w${i}`, 'W', 'R', `w${i}@example.com`, 'x');
          writer.exec('commit');
          written += 1;
        } catch (error) {
          if (!(error instanceof SqliteDatabase.SqliteError) || error.code !== 'SQLITE_BUSY') {
            throw error;
          }
        }
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
      expect(written).toBeGreaterThanOrEqual(30);
      result = await checkpointer.next();
      expect(result.restarted).toBe(false);
      expect(result.copied).toBeLessThan(result.log);

      reader.exec('commit');
      while (!result.restarted) result = await checkpointer.next();
      expect(result.copied).toBe(result.log);
      await file.handle.db.insertInto('users').values(member('l-after')).execute();
      result = await checkpointer.next();
      result = await checkpointer.next();
      expect(result.log).toBeLessThan(100);
      expect(await countMembers(file.handle.reads)).toBe(1000 + written + 1);
    } finally {
      reader.close();
      writer.close();
      await checkpointer.stop();
    }
  });
});

sqliteOnly('write transactions on a SQLite file another process is writing', () => {
  const file = useMigratedFile('perch-write-lock-');

  it('wait for its write lock without stopping the event loop, then go ahead', async () => {
    // Another connection, on a thread of its own as another process would be, holds the lock.
    const holder = new Worker(
      `const { parentPort, workerData } = require('node:worker_threads');
      const Database = require(workerData.driver);
      const db = new Database(workerData.filename);
      db.exec('begin immediate');
      parentPort.postMessage('locked');
      setTimeout(() => { db.exec('commit'); db.close(); parentPort.close(); }, 300);`,
      {
        eval: true,
        workerData: {
          driver: createRequire(import.meta.url).resolve('better-sqlite3'),
          filename: path.join(file.dataDir, 'perch.db'),
        },
      },
    );
    await once(holder, 'message');
    let ticks = 0;
    const ticking = setInterval(() => {
      ticks += 1;
    }, 10);
    const started = performance.now();
    try {
      // It reads before it writes: the case a plain BEGIN fails at once.
      await file.handle.db.transaction().execute(async (trx) => {
        await trx.selectFrom('users').select('id').execute();
        await trx.insertInto('users').values(member('after-lock')).execute();
      });
    } finally {
      clearInterval(ticking);
    }
    expect(performance.now() - started).toBeGreaterThan(200);
    expect(ticks).toBeGreaterThan(10);
    expect(await countMembers(file.handle.reads)).toBe(1);
    await holder.terminate();
  });
});

sqliteOnly('the page cache of a SQLite file', () => {
  it('is as large as configured, on both connections', async () => {
    const dataDir = mkdtempSync(path.join(os.tmpdir(), 'perch-cache-'));
    const handle = createDatabase(
      targetFromConfig({ dataDir, databaseUrl: null, sqliteCacheMiB: 3 }),
    );
    await migrateToLatest(handle.db as Kysely<unknown>);
    expect(await pragma(handle.db, 'cache_size')).toBe(-3 * 1024);
    expect(await pragma(handle.reads, 'cache_size')).toBe(-3 * 1024);
    await closeDatabase(handle);
    rmSync(dataDir, { recursive: true, force: true });
  });
});

describe('the read connection elsewhere', () => {
  it('is the writing connection for an in-memory SQLite database', async () => {
    const handle = createDatabase({ kind: 'sqlite', filename: ':memory:' });
    expect(handle.reads).toBe(handle.db);
    await closeDatabase(handle);
  });

  it('is opened with the app and closed with it', async () => {
    const t = await createTestApp();
    const { reads, db } = t.app;
    expect(await reads.selectFrom('users').select('id').execute()).toEqual([]);
    if (testDatabaseKind() === 'postgres') expect(reads).toBe(db);
    await t.close();
    await expect(reads.selectFrom('users').select('id').execute()).rejects.toThrow(/destroyed/);
  });
});
