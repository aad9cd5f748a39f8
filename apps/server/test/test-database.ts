import { randomBytes } from 'node:crypto';
import path from 'node:path';
import pg from 'pg';
import { createDatabase, type DatabaseHandle } from '../src/db/database';

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
