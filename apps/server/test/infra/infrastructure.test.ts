import type { Kysely } from 'kysely';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import type { Database } from '../../src/platform/db/schema';
import {
  createInfrastructure,
  createScheduler,
  eventSignalChannel,
  jobLockKeyPrefix,
  rateLimitNamespace,
} from '../../src/platform/infra';
import { testConfig } from '../helpers';
import { deleteRedisKeys, redisForTests, uniqueRedisPrefix } from '../redis';
import { useMigratedTestDatabase } from '../test-database';
import { fakeLog } from './fake-log';

const url = await redisForTests();

const testDatabase = useMigratedTestDatabase('infra');
let db: Kysely<Database>;
beforeAll(() => {
  db = testDatabase.db;
});

describe('createInfrastructure', () => {
  it('keeps everything in the process without REDIS_URL', async () => {
    const infra = await createInfrastructure(testConfig(testDatabase.dataDir), fakeLog(), db);
    try {
      expect(infra.redis).toBeNull();
      expect(infra.rateLimit).toEqual({});
      const heard = vi.fn();
      infra.signal.subscribe(heard);
      infra.signal.notify(3);
      await vi.waitFor(() => {
        expect(heard).toHaveBeenCalledWith(3);
      });
      // The job lock is the database lease.
      const name = `infra-local-${String(Date.now())}`;
      expect(await infra.jobLock.tryAcquire(name, 60_000)).toBe(true);
      const lease = await db
        .selectFrom('job_leases')
        .select('holder')
        .where('name', '=', name)
        .executeTakeFirst();
      expect(lease?.holder).toContain(`:${String(process.pid)}:`);
    } finally {
      await infra.close();
    }
  });

  it('builds a scheduler that runs a job once across two processes', async () => {
    const log = fakeLog();
    const infras = await Promise.all([
      createInfrastructure(testConfig(testDatabase.dataDir), log, db),
      createInfrastructure(testConfig(testDatabase.dataDir), log, db),
    ]);
    const name = `infra-sched-${String(Date.now())}`;
    const task = vi.fn(async () => undefined);
    const schedulers = infras.map((infra) => {
      const scheduler = createScheduler({ lock: infra.jobLock, log });
      scheduler.every(name, 60_000, task, { firstDelayMs: 0 });
      return scheduler;
    });
    await vi.waitFor(() => {
      expect(task).toHaveBeenCalled();
    });
    await new Promise((resolve) => setTimeout(resolve, 100));
    await Promise.all(schedulers.map((s) => s.stop()));
    await Promise.all(infras.map((i) => i.close()));
    expect(task).toHaveBeenCalledOnce();
  });

  it('names things in Redis after perch by default', () => {
    expect(eventSignalChannel()).toBe('perch:events');
    expect(jobLockKeyPrefix()).toBe('perch:job:');
    expect(rateLimitNamespace()).toBe('perch-rl:');
  });

  it.skipIf(!url)('goes through Redis with REDIS_URL', async () => {
    const log = fakeLog();
    // A prefix of its own, so that other test files and runs on this Redis are not heard.
    const redisPrefix = uniqueRedisPrefix('infrastructure').slice(0, -1);
    const config = testConfig(testDatabase.dataDir, { redisUrl: url });
    const infra = await createInfrastructure(config, log, db, { redisPrefix });
    const other = await createInfrastructure(config, log, db, { redisPrefix });
    try {
      expect(infra.redis?.isReady()).toBe(true);
      expect(infra.rateLimit).toMatchObject({
        nameSpace: rateLimitNamespace(redisPrefix),
        skipOnError: true,
      });
      expect(infra.rateLimit.redis).toBe(infra.redis?.command);
      expect(log.info).toHaveBeenCalledWith('connected to Redis');
      // Subscribed from the start: another process hears the first notification.
      const heard = new Promise<number>((resolve) => {
        other.signal.subscribe(resolve);
      });
      infra.signal.notify(7);
      expect(await heard).toBe(7);
      // The job lock is a Redis lease, not a database row.
      const name = `infra-redis-${String(Date.now())}`;
      expect(await infra.jobLock.tryAcquire(name, 1000)).toBe(true);
      expect(await other.jobLock.tryAcquire(name, 1000)).toBe(false);
      const key = `${jobLockKeyPrefix(redisPrefix)}${name}`;
      expect(await infra.redis?.command.pttl(key)).toBeGreaterThan(0);
      expect(
        await db
          .selectFrom('job_leases')
          .select('name')
          .where('name', '=', name)
          .executeTakeFirst(),
      ).toBeUndefined();
      if (infra.redis) await deleteRedisKeys(infra.redis.command, redisPrefix);
    } finally {
      await infra.close();
      await other.close();
    }
    expect(infra.redis?.command.status).toBe('end');
  });
});
