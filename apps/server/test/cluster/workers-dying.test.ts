/**
 * `WORKERS=2` while a worker is killed (SIGKILL) under load: every connection gets an answer or a
 * prompt reset, and none is left open without one. See docs/decisions/0030-worker-scheduling.md.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { freePort } from '../ports';
import { testDatabaseKind } from '../test-database';
import {
  removeDir,
  startServer,
  tempDir,
  tsxInstalled,
  type ServerProcess,
} from './cluster-helpers';
import { loadWhileKilling } from './worker-death';

const canRun = testDatabaseKind() === 'sqlite' && tsxInstalled() && process.platform === 'linux';

describe.skipIf(!canRun)('a worker killed under load', () => {
  const dataDir = tempDir('perch-workers-dying-');
  let server: ServerProcess | undefined;
  afterAll(async () => {
    await server?.stop();
    removeDir(dataDir);
  });

  it('leaves no connection without an answer or a reset', async () => {
    server = await startServer({
      name: 'workers',
      env: {
        WORKERS: '2',
        PORT: String(await freePort()),
        HOST: '127.0.0.1',
        DATA_DIR: dataDir,
        SEED: 'none',
        // The supervisor's lines name the workers that listen; request logs would crowd them.
        LOG_LEVEL: 'warn',
        WEB_DIR: '',
        MEDIA_SWEEP_MINUTES: '0',
      },
      readyTimeoutMs: 60_000,
    });
    const outcome = await loadWhileKilling({
      port: Number(new URL(server.base).port),
      primaryPid: server.pid,
      output: server.output,
      workers: 2,
      kills: 1,
      awaitReplacement: false,
      concurrency: 16,
      // Far longer than any answer here takes; a connection the supervisor holds waits for ever.
      hangMs: 5000,
    });
    expect(outcome.kills).toBe(1);
    expect(outcome.fates.hung, JSON.stringify(outcome)).toBe(0);
    expect(outcome.fates.refused, JSON.stringify(outcome)).toBe(0);
    expect(outcome.otherStatuses, JSON.stringify(outcome)).toBe(0);
    expect(outcome.fates.answered).toBeGreaterThan(100);
  }, 90_000);
});
