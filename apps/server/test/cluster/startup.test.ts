/**
 * Several instances starting at once on one empty database, as a rolling deploy of several replicas
 * does: each migrates and seeds, and exactly one of them seeds. Three handles in this process
 * first, then three real server processes.
 */
import { rmSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { prepareDatabase } from '../../src/app/app';
import {
  closeDatabase,
  createDatabase,
  type DatabaseHandle,
  type DatabaseTarget,
} from '../../src/platform/db/database';
import { featuredMembers, quietMembers } from '../../src/platform/db/demo-content';
import { testConfig } from '../helpers';
import { freePort } from '../ports';
import { testDatabaseKind } from '../test-database';
import {
  createClusterDatabase,
  startServer,
  tempDir,
  tsxInstalled,
  type ServerProcess,
} from './cluster-helpers';

const INSTANCES = 3;
const DEMO_MEMBERS = featuredMembers.length + quietMembers.length;
const JWT_SECRET = 'startup-test-secret-shared-by-every-instance-0123456789';
const onPostgres = testDatabaseKind() === 'postgres';

interface EmptyDatabase {
  dataDir: string;
  /** DATABASE_URL for PostgreSQL; null for the SQLite file in dataDir. */
  url: string | null;
  target: DatabaseTarget;
  drop: () => Promise<void>;
}

async function emptyDatabase(): Promise<EmptyDatabase> {
  const dataDir = tempDir('perch-startup-');
  const removeDir = () => {
    rmSync(dataDir, { recursive: true, force: true });
  };
  if (!onPostgres) {
    const filename = path.join(dataDir, 'perch.db');
    return {
      dataDir,
      url: null,
      target: { kind: 'sqlite', filename },
      drop: () => {
        removeDir();
        return Promise.resolve();
      },
    };
  }
  const database = await createClusterDatabase();
  return {
    dataDir,
    url: database.url,
    target: { kind: 'postgres', url: database.url, poolSize: 4 },
    drop: async () => {
      await database.drop();
      removeDir();
    },
  };
}

async function countRows(target: DatabaseTarget): Promise<{ users: number; posts: number }> {
  const handle = createDatabase(target);
  try {
    const count = async (table: 'users' | 'posts') => {
      const row = await handle.db
        .selectFrom(table)
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow();
      // PostgreSQL's count is a bigint, read as a number (see database.ts); SQLite's is one.
      return row.n;
    };
    return { users: await count('users'), posts: await count('posts') };
  } finally {
    await closeDatabase(handle);
  }
}

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

describe('instances starting at once on an empty database', () => {
  it('all prepare it, and the demo data goes in once', async () => {
    const database = await emptyDatabase();
    cleanups.push(database.drop);
    const config = testConfig(database.dataDir, {
      databaseUrl: database.url,
      seedDemoData: true,
    });
    const handles: DatabaseHandle[] = Array.from({ length: INSTANCES }, () =>
      createDatabase(database.target, { onIdleConnectionError: () => undefined }),
    );
    cleanups.push(async () => {
      await Promise.all(handles.map((handle) => closeDatabase(handle)));
    });

    const outcomes = await Promise.allSettled(
      handles.map((handle) => prepareDatabase(handle, config)),
    );

    const failures = outcomes.flatMap((outcome) =>
      outcome.status === 'rejected' ? [String(outcome.reason)] : [],
    );
    expect(failures).toEqual([]);
    expect(await countRows(database.target)).toEqual({ users: DEMO_MEMBERS, posts: 8 });
  }, 60_000);

  it.skipIf(!tsxInstalled())(
    'as server processes: all three answer, and the demo data goes in once',
    async () => {
      const database = await emptyDatabase();
      cleanups.push(database.drop);
      const started = await Promise.allSettled(
        Array.from({ length: INSTANCES }, async (_, index) =>
          startServer({
            name: `instance ${String(index + 1)}`,
            env: {
              PORT: String(await freePort()),
              HOST: '127.0.0.1',
              DATA_DIR: database.dataDir,
              ...(database.url ? { DATABASE_URL: database.url } : {}),
              JWT_SECRET,
              SEED: 'demo',
              LOG_LEVEL: 'warn',
              WEB_DIR: '',
              PASSWORD_HASH_COST: '1024',
              MEDIA_SWEEP_MINUTES: '0',
            },
            readyTimeoutMs: 60_000,
          }),
        ),
      );
      const servers = started.flatMap((outcome) =>
        outcome.status === 'fulfilled' ? [outcome.value] : [],
      );
      cleanups.push(async () => {
        await Promise.all(servers.map((server: ServerProcess) => server.stop()));
      });

      const failures = started.flatMap((outcome) =>
        outcome.status === 'rejected' ? [String(outcome.reason).slice(0, 2000)] : [],
      );
      expect(failures).toEqual([]);
      expect(await countRows(database.target)).toEqual({ users: DEMO_MEMBERS, posts: 8 });
    },
    120_000,
  );
});
