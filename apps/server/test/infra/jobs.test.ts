import type { Kysely } from 'kysely';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Database } from '../../src/platform/db/schema';
import {
  createDatabaseJobLock,
  createScheduler,
  lockHolderId,
  type JobLock,
} from '../../src/platform/infra/jobs';
import { useMigratedTestDatabase } from '../test-database';

const testDatabase = useMigratedTestDatabase('jobs');
let db: Kysely<Database>;
beforeAll(() => {
  db = testDatabase.db;
});

let jobCount = 0;
const jobName = () => `job-${String((jobCount += 1))}`;

const silentLog = { warn: () => undefined, error: () => undefined };

describe('database job lock', () => {
  it('gives a lease to one holder only', async () => {
    const a = createDatabaseJobLock(db, { holder: 'a' });
    const b = createDatabaseJobLock(db, { holder: 'b' });
    const name = jobName();
    expect(await a.tryAcquire(name, 60_000)).toBe(true);
    expect(await b.tryAcquire(name, 60_000)).toBe(false);
    const lease = await db
      .selectFrom('job_leases')
      .selectAll()
      .where('name', '=', name)
      .executeTakeFirstOrThrow();
    expect(lease.holder).toBe('a');
  });

  it('keeps leases of different jobs apart', async () => {
    const a = createDatabaseJobLock(db, { holder: 'a' });
    const b = createDatabaseJobLock(db, { holder: 'b' });
    const [first, second] = [jobName(), jobName()];
    expect(await a.tryAcquire(first, 60_000)).toBe(true);
    expect(await b.tryAcquire(second, 60_000)).toBe(true);
  });

  it('lets the holder renew its lease, which moves the expiry', async () => {
    let now = 1_000_000;
    const a = createDatabaseJobLock(db, { holder: 'a', now: () => now });
    const b = createDatabaseJobLock(db, { holder: 'b', now: () => now });
    const name = jobName();
    expect(await a.tryAcquire(name, 1000)).toBe(true);
    now += 900;
    expect(await a.tryAcquire(name, 1000)).toBe(true);
    // Past the first expiry, but the renewal holds until 1,001,900.
    now += 500;
    expect(await b.tryAcquire(name, 1000)).toBe(false);
    const lease = await db
      .selectFrom('job_leases')
      .select(['holder', 'expires_at'])
      .where('name', '=', name)
      .executeTakeFirstOrThrow();
    expect(lease).toEqual({ holder: 'a', expires_at: 1_001_900 });
  });

  it('lets another holder take over an expired lease', async () => {
    let now = 2_000_000;
    const a = createDatabaseJobLock(db, { holder: 'a', now: () => now });
    const b = createDatabaseJobLock(db, { holder: 'b', now: () => now });
    const name = jobName();
    expect(await a.tryAcquire(name, 1000)).toBe(true);
    now += 999;
    expect(await b.tryAcquire(name, 1000)).toBe(false);
    now += 1;
    expect(await b.tryAcquire(name, 1000)).toBe(true);
    // Now the first holder has to wait for the new lease to expire.
    expect(await a.tryAcquire(name, 1000)).toBe(false);
  });

  it('gives a lease to exactly one of many holders asking at once', async () => {
    const name = jobName();
    const locks = Array.from({ length: 12 }, (_, i) =>
      createDatabaseJobLock(db, { holder: `h${String(i)}` }),
    );
    const answers = await Promise.all(locks.map((lock) => lock.tryAcquire(name, 60_000)));
    expect(answers.filter(Boolean)).toHaveLength(1);
  });

  it('takes over an expired lease for exactly one of many holders asking at once', async () => {
    let now = 3_000_000;
    const name = jobName();
    const locks = Array.from({ length: 12 }, (_, i) =>
      createDatabaseJobLock(db, { holder: `h${String(i)}`, now: () => now }),
    );
    expect(
      await createDatabaseJobLock(db, { holder: 'old', now: () => now }).tryAcquire(name, 10),
    ).toBe(true);
    now += 10;
    const answers = await Promise.all(locks.map((lock) => lock.tryAcquire(name, 60_000)));
    expect(answers.filter(Boolean)).toHaveLength(1);
  });

  it('answers false instead of throwing when the database cannot be asked', async () => {
    const broken = {
      insertInto: () => {
        throw new Error('database is gone');
      },
    } as unknown as Kysely<Database>;
    const warn = vi.fn();
    const lock = createDatabaseJobLock(broken, { log: { warn } });
    expect(await lock.tryAcquire(jobName(), 1000)).toBe(false);
    expect(warn).toHaveBeenCalledOnce();
  });

  it('names holders by host, process and a random part', () => {
    const id = lockHolderId();
    expect(id).toContain(`:${String(process.pid)}:`);
    expect(lockHolderId()).not.toBe(id);
  });
});

describe('scheduler', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

  it('runs a job once a tick across two schedulers sharing the database', async () => {
    const name = jobName();
    const runs: string[] = [];
    const schedulers = ['a', 'b'].map((holder) => {
      const scheduler = createScheduler({
        lock: createDatabaseJobLock(db, { holder }),
        log: silentLog,
      });
      scheduler.every(
        name,
        200,
        async () => {
          runs.push(holder);
        },
        { firstDelayMs: 0 },
      );
      return scheduler;
    });
    await wait(650);
    await Promise.all(schedulers.map((s) => s.stop()));
    // Ticks at 0, 200, 400 and 600 ms (later on a busy machine): one run each, whichever process
    // got there, never one per process.
    expect(runs.length).toBeGreaterThanOrEqual(2);
    expect(runs.length).toBeLessThanOrEqual(4);
  });

  it('runs a tick only when the lock is granted, and every interval after the first delay', async () => {
    vi.useFakeTimers();
    const asked: number[] = [];
    let grant = true;
    const lock: JobLock = {
      tryAcquire: async (_name, ttlMs) => {
        asked.push(ttlMs);
        return grant;
      },
    };
    const task = vi.fn(async () => undefined);
    const scheduler = createScheduler({ lock, log: silentLog });
    scheduler.every('sweep', 1000, task, { firstDelayMs: 100 });

    await vi.advanceTimersByTimeAsync(99);
    expect(task).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1);
    expect(task).toHaveBeenCalledTimes(1);
    // The lease is asked for about one interval.
    expect(asked).toEqual([1000]);
    grant = false;
    await vi.advanceTimersByTimeAsync(1000);
    expect(task).toHaveBeenCalledTimes(1);
    grant = true;
    await vi.advanceTimersByTimeAsync(1000);
    expect(task).toHaveBeenCalledTimes(2);
    await scheduler.stop();
    await vi.advanceTimersByTimeAsync(5000);
    expect(task).toHaveBeenCalledTimes(2);
  });

  it('starts after one interval by default', async () => {
    vi.useFakeTimers();
    const task = vi.fn(async () => undefined);
    const scheduler = createScheduler({ lock: { tryAcquire: async () => true }, log: silentLog });
    scheduler.every('job', 500, task);
    await vi.advanceTimersByTimeAsync(499);
    expect(task).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1);
    expect(task).toHaveBeenCalledTimes(1);
    await scheduler.stop();
  });

  it('runs one at a time in a process: a tick during a run is skipped', async () => {
    vi.useFakeTimers();
    let finish: () => void = () => undefined;
    let active = 0;
    let most = 0;
    const task = vi.fn(
      () =>
        new Promise<void>((resolve) => {
          active += 1;
          most = Math.max(most, active);
          finish = () => {
            active -= 1;
            resolve();
          };
        }),
    );
    const scheduler = createScheduler({ lock: { tryAcquire: async () => true }, log: silentLog });
    scheduler.every('slow', 100, task, { firstDelayMs: 0 });
    await vi.advanceTimersByTimeAsync(350);
    expect(task).toHaveBeenCalledTimes(1);
    finish();
    await vi.advanceTimersByTimeAsync(100);
    expect(task).toHaveBeenCalledTimes(2);
    expect(most).toBe(1);
    finish();
    await scheduler.stop();
  });

  it('keeps going after a failing run, and logs it', async () => {
    vi.useFakeTimers();
    const error = vi.fn();
    const task = vi.fn().mockRejectedValueOnce(new Error('boom')).mockResolvedValue(undefined);
    const scheduler = createScheduler({ lock: { tryAcquire: async () => true }, log: { error } });
    scheduler.every('flaky', 100, task, { firstDelayMs: 0 });
    await vi.advanceTimersByTimeAsync(150);
    expect(error).toHaveBeenCalledOnce();
    expect(task).toHaveBeenCalledTimes(2);
    await scheduler.stop();
  });

  it('stop() clears the timers and waits for the run under way', async () => {
    let finished = false;
    let started: () => void = () => undefined;
    const running = new Promise<void>((resolve) => {
      started = resolve;
    });
    const task = vi.fn(async () => {
      started();
      await wait(100);
      finished = true;
    });
    const scheduler = createScheduler({ lock: { tryAcquire: async () => true }, log: silentLog });
    scheduler.every('long', 20, task, { firstDelayMs: 0 });
    await running;
    await scheduler.stop();
    expect(finished).toBe(true);
    await wait(100);
    expect(task).toHaveBeenCalledTimes(1);
    expect(() => {
      scheduler.every('late', 20, task);
    }).toThrow('stopped');
  });

  it('timers do not keep the process alive', async () => {
    vi.useFakeTimers();
    const scheduler = createScheduler({ lock: { tryAcquire: async () => true }, log: silentLog });
    const unref = vi.spyOn(globalThis, 'setTimeout');
    scheduler.every('job', 1000, async () => undefined, { firstDelayMs: 10 });
    const timer = unref.mock.results[0]?.value as NodeJS.Timeout;
    expect(timer.hasRef()).toBe(false);
    await scheduler.stop();
  });
});
