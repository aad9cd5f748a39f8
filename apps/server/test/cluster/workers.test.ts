/**
 * `WORKERS=2` on the embedded database: the supervising process prepares the SQLite file, closes
 * it, and starts two server processes that share the port.
 */
import { rmSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort } from '../ports';
import { testDatabaseKind } from '../test-database';
import {
  api,
  startServer,
  tempDir,
  tsxInstalled,
  waitUntil,
  type ServerProcess,
} from './cluster-helpers';

const canRun = testDatabaseKind() === 'sqlite' && tsxInstalled();

describe.skipIf(!canRun)('two worker processes on one SQLite file', () => {
  const dataDir = tempDir('perch-workers-');
  let server: ServerProcess | undefined;
  afterAll(async () => {
    await server?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('start after the supervisor has closed the database, and both answer', async () => {
    server = await startServer({
      name: 'workers',
      env: {
        WORKERS: '2',
        PORT: String(await freePort()),
        HOST: '127.0.0.1',
        DATA_DIR: dataDir,
        SEED: 'none',
        LOG_LEVEL: 'info',
        WEB_DIR: '',
        PASSWORD_HASH_COST: '1024',
        MEDIA_SWEEP_MINUTES: '0',
      },
    });
    const running = server;
    // Each worker logs where it listens; the supervisor itself does not listen.
    await waitUntil(
      'both workers listening',
      () =>
        Promise.resolve(
          new Set(
            running
              .logRecords()
              .filter((record) => String(record.msg).startsWith('Server listening'))
              .map((record) => record.pid),
          ).size === 2,
        ),
      30_000,
      100,
    );
    const signup = await api(running.base, '/api/auth/signup', {
      method: 'POST',
      body: {
        username: 'worker_one',
        email: 'worker_one@example.com',
        password: 'correct horse battery',
        confirmPassword: 'correct horse battery',
        firstName: 'Worker',
        lastName: 'One',
      },
    });
    expect(signup.status, signup.text).toBe(201);
    expect(running.exited()).toBe(false);
  });
});
