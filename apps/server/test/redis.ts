import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Redis } from 'ioredis';
import { freePort } from './ports';

/**
 * Redis for tests: TEST_REDIS_URL (default redis://127.0.0.1:6379). A file that needs it asks
 * `await redisForTests()` at the top and skips its Redis tests when that is null; with
 * REQUIRE_REDIS=1 an unreachable Redis fails the file instead.
 */
export function testRedisUrl(): string {
  const url = process.env.TEST_REDIS_URL?.trim();
  if (url) return url;
  return 'redis://127.0.0.1:6379';
}

export const redisRequired = (): boolean => process.env.REQUIRE_REDIS === '1';

/** Whether a Redis answers PING at `url` within `timeoutMs`. */
export async function redisAnswers(url: string, timeoutMs = 1500): Promise<boolean> {
  const client = new Redis(url, {
    lazyConnect: true,
    connectTimeout: timeoutMs,
    commandTimeout: timeoutMs,
    maxRetriesPerRequest: 0,
    enableOfflineQueue: false,
    retryStrategy: () => null,
  });
  client.on('error', () => undefined);
  try {
    await client.connect();
    await client.ping();
    return true;
  } catch {
    return false;
  } finally {
    client.disconnect();
  }
}

/**
 * The URL of the test Redis when it answers; null (skip) when it does not, unless REQUIRE_REDIS=1,
 * in which case this throws.
 */
export async function redisForTests(): Promise<string | null> {
  const url = testRedisUrl();
  if (await redisAnswers(url)) return url;
  if (redisRequired()) {
    throw new Error(`REQUIRE_REDIS=1 but Redis at ${url} does not answer (set TEST_REDIS_URL)`);
  }
  console.info(`Redis at ${url} does not answer: skipping the tests that need it.`);
  return null;
}

/** A prefix for keys and channels of one test file, so that files running in parallel never meet. */
export function uniqueRedisPrefix(name: string): string {
  return `perch-test:${name}:${randomBytes(4).toString('hex')}:`;
}

/** Deletes every key under `prefix` (the end of a test file). */
export async function deleteRedisKeys(client: Redis, prefix: string): Promise<void> {
  let cursor = '0';
  do {
    const [next, keys] = await client.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 500);
    cursor = next;
    if (keys.length > 0) await client.del(...keys);
  } while (cursor !== '0');
}

export function redisServerInstalled(): boolean {
  return spawnSync('redis-server', ['--version'], { stdio: 'ignore' }).status === 0;
}

/** A redis-server of the test's own, to stop and start again on the same port (outages). */
export interface PrivateRedis {
  url: string;
  port: number;
  /** Kills the server at once (SIGKILL), as a crash would. */
  kill(): Promise<void>;
  /** Starts it again on the same port. */
  start(): Promise<void>;
  /** Kills it and removes its directory. */
  dispose(): Promise<void>;
}

/** Starts redis-server on a free port in a temporary directory, without persistence. */
export async function startPrivateRedis(): Promise<PrivateRedis> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'perch-redis-'));
  const port = await freePort();
  const url = `redis://127.0.0.1:${port}`;
  let child: ChildProcess | null = null;
  const running = () => child !== null;

  const start = async () => {
    if (child) return;
    const server = spawn(
      'redis-server',
      [
        '--port',
        String(port),
        '--bind',
        '127.0.0.1',
        '--dir',
        dir,
        '--save',
        '',
        '--appendonly',
        'no',
      ],
      { stdio: 'ignore' },
    );
    child = server;
    server.on('exit', () => {
      if (child === server) child = null;
    });
    const deadline = Date.now() + 10_000;
    while (!(await redisAnswers(url, 500))) {
      if (Date.now() > deadline || !running()) {
        throw new Error(`redis-server on port ${port} did not start`);
      }
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  };

  const kill = async () => {
    const running = child;
    if (!running) return;
    const exited = new Promise<void>((resolve) => {
      running.once('exit', () => {
        resolve();
      });
    });
    running.kill('SIGKILL');
    await exited;
    child = null;
  };

  await start();
  return {
    url,
    port,
    kill,
    start,
    dispose: async () => {
      await kill();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
