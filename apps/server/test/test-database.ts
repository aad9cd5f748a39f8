import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Kysely } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll } from 'vitest';
import { migrateToLatest } from '../src/platform/db/migrate';
import { createDatabase, type DatabaseHandle } from '../src/platform/db/database';
import type { Database } from '../src/platform/db/schema';

export type TestDatabaseKind = 'sqlite' | 'postgres';

/** Which database this run of the suite uses: the server:postgres project sets PERCH_TEST_DB. */
export function testDatabaseKind(): TestDatabaseKind {
  return process.env.PERCH_TEST_DB === 'postgres' ? 'postgres' : 'sqlite';
}

export function adminUrl(): string {
  const url = process.env.TEST_DATABASE_URL;
  if (!url) throw new Error('TEST_DATABASE_URL must be set to run the suite on PostgreSQL');
  return url;
}

function withDatabase(url: string, database: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${database}`;
  return parsed.toString();
}

export interface TestDatabase {
  handle: DatabaseHandle;
  /** Drops what the database was made in; call after the app using it has closed. */
  drop: () => Promise<void>;
}

/** A brand-new, empty database: a SQLite file in dataDir, or a PostgreSQL database of its own. */
export async function createTestDatabase(dataDir: string): Promise<TestDatabase> {
  if (testDatabaseKind() === 'sqlite') {
    return {
      handle: createDatabase({ kind: 'sqlite', filename: path.join(dataDir, 'perch.db') }),
      drop: () => Promise.resolve(),
    };
  }
  const name = `perch_test_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl() });
  await admin.connect();
  try {
    await admin.query(`create database ${name}`);
  } finally {
    await admin.end();
  }
  return {
    handle: createDatabase(
      { kind: 'postgres', url: withDatabase(adminUrl(), name), poolSize: 5 },
      // Dropping the database ends connections the closed pool has not finished closing.
      { onIdleConnectionError: () => undefined },
    ),
    drop: async () => {
      const client = new pg.Client({ connectionString: adminUrl() });
      await client.connect();
      try {
        await client.query(`drop database if exists ${name} with (force)`);
      } finally {
        await client.end();
      }
    },
  };
}

/**
 * A fresh, migrated database of this test file's own, in a temporary folder: made before its
 * tests, dropped after. Read `db` and `dataDir` inside tests or hooks, once it is made.
 */
export function useMigratedTestDatabase(name: string): {
  readonly db: Kysely<Database>;
  readonly dataDir: string;
} {
  let made: { database: TestDatabase; dataDir: string } | null = null;
  beforeAll(async () => {
    const dataDir = mkdtempSync(path.join(os.tmpdir(), `perch-${name}-`));
    const database = await createTestDatabase(dataDir);
    await migrateToLatest(database.handle.db as Kysely<unknown>);
    made = { database, dataDir };
  });
  afterAll(async () => {
    if (!made) return;
    await made.database.handle.db.destroy();
    await made.database.drop();
    rmSync(made.dataDir, { recursive: true, force: true });
  });
  const current = () => {
    if (!made) throw new Error('the test database is made in beforeAll');
    return made;
  };
  return {
    get db() {
      return current().database.handle.db;
    },
    get dataDir() {
      return current().dataDir;
    },
  };
}
