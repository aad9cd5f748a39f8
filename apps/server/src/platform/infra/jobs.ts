import { randomBytes } from 'node:crypto';
import os from 'node:os';
import type { FastifyBaseLogger } from 'fastify';
import type { Redis } from 'ioredis';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema';

/**
 * Decides which process runs a piece of scheduled work, so that it runs once across every process
 * and instance rather than once per process.
 */
export interface JobLock {
  /**
   * Takes the lease on `name` for `ttlMs`, or renews it when this lock already holds it. Answers
   * false when another holder's lease has not expired, and when the lock cannot be asked (skip
   * this round); never throws.
   */
  tryAcquire(name: string, ttlMs: number): Promise<boolean>;
}

/** Names this process among all that share a lock: host, pid and a random part. */
export function lockHolderId(): string {
  return `${os.hostname()}:${process.pid}:${randomBytes(4).toString('hex')}`;
}

export interface LockOptions {
  /** Who holds the leases this lock takes. Default: lockHolderId(). */
  holder?: string;
  log?: Pick<FastifyBaseLogger, 'warn'>;
}

export interface DatabaseJobLockOptions extends LockOptions {
  /** The clock leases are measured by (tests move it). Default Date.now. */
  now?: () => number;
}

/**
 * Leases in the job_leases table, on SQLite and PostgreSQL alike: one statement inserts the lease,
 * takes over an expired one or renews this holder's own, and answers whether it did. PostgreSQL
 * locks the conflicting row and checks the condition again; SQLite runs one writer at a time.
 * Expiry is measured by the clock of the process asking, so the clocks of instances should agree
 * to well within the shortest interval.
 */
export function createDatabaseJobLock(
  db: Kysely<Database>,
  options: DatabaseJobLockOptions = {},
): JobLock {
  const holder = options.holder ?? lockHolderId();
  const now = options.now ?? Date.now;
  return {
    tryAcquire: async (name, ttlMs) => {
      const at = now();
      try {
        const row = await db
          .insertInto('job_leases')
          .values({ name, holder, expires_at: at + ttlMs })
          .onConflict((oc) =>
            oc
              .column('name')
              .doUpdateSet({ holder, expires_at: at + ttlMs })
              .where((eb) =>
                eb.or([
                  eb('job_leases.expires_at', '<=', at),
                  eb('job_leases.holder', '=', holder),
                ]),
              ),
          )
          .returning('holder')
          .executeTakeFirst();
        return row?.holder === holder;
      } catch (error) {
        options.log?.warn({ err: error, job: name }, 'could not take a job lease; skipping');
        return false;
      }
    },
  };
}

// SET NX PX, or renew (PEXPIRE) a lease this holder already has; answers 1 when held.
const ACQUIRE_SCRIPT = `
if redis.call('SET', KEYS[1], ARGV[1], 'NX', 'PX', ARGV[2]) then return 1 end
if redis.call('GET', KEYS[1]) == ARGV[1] then
  redis.call('PEXPIRE', KEYS[1], ARGV[2])
  return 1
end
return 0
`;

export interface RedisJobLockOptions extends LockOptions {
  /** Prefix of the lease keys. Default 'perch:job:'. */
  keyPrefix?: string;
}

/**
 * Leases as Redis keys (SET key holder NX PX ttl), measured by Redis's clock. While Redis is
 * unreachable every tryAcquire answers false at once: the work waits for Redis to return.
 */
export function createRedisJobLock(redis: Redis, options: RedisJobLockOptions = {}): JobLock {
  const holder = options.holder ?? lockHolderId();
  const prefix = options.keyPrefix ?? 'perch:job:';
  return {
    tryAcquire: async (name, ttlMs) => {
      try {
        const answer = await redis.eval(
          ACQUIRE_SCRIPT,
          1,
          `${prefix}${name}`,
          holder,
          String(Math.max(1, Math.round(ttlMs))),
        );
        return answer === 1;
      } catch (error) {
        options.log?.warn({ err: error, job: name }, 'could not take a job lease; skipping');
        return false;
      }
    },
  };
}

export interface ScheduleOptions {
  /** Delay before the first tick. Default: the interval. */
  firstDelayMs?: number;
}

export interface Scheduler {
  /**
   * Every `intervalMs` (after `firstDelayMs`), takes the lease on `name` for about one interval
   * and runs `task` if it got it: once per interval across every process sharing the lock. A tick
   * that finds the previous run of `name` in this process still going is skipped.
   */
  every(
    name: string,
    intervalMs: number,
    task: () => Promise<unknown>,
    options?: ScheduleOptions,
  ): void;
  /** Clears every timer and waits for the runs under way. */
  stop(): Promise<void>;
}

export function createScheduler(options: {
  lock: JobLock;
  log: Pick<FastifyBaseLogger, 'error'>;
}): Scheduler {
  const { lock, log } = options;
  const timers = new Set<NodeJS.Timeout>();
  const running = new Set<Promise<void>>();
  let stopped = false;
  // Read through a function: stop() may run while a tick awaits the lock.
  const isStopped = () => stopped;

  const schedule = (callback: () => void, delay: number, repeat: boolean) => {
    const timer = repeat ? setInterval(callback, delay) : setTimeout(callback, delay);
    timer.unref();
    timers.add(timer);
    return timer;
  };

  return {
    every: (name, intervalMs, task, scheduleOptions = {}) => {
      if (stopped) throw new Error('the scheduler is stopped');
      if (!(intervalMs > 0)) throw new Error(`job ${name}: the interval must be positive`);
      let current: Promise<void> | null = null;

      const tick = () => {
        if (stopped || current) return;
        const run = (async () => {
          if (!(await lock.tryAcquire(name, intervalMs))) return;
          if (isStopped()) return;
          await task();
        })()
          .catch((error: unknown) => {
            log.error({ err: error, job: name }, 'scheduled job failed');
          })
          .finally(() => {
            current = null;
            running.delete(run);
          });
        current = run;
        running.add(run);
      };

      const first = schedule(
        () => {
          timers.delete(first);
          tick();
          if (!stopped) schedule(tick, intervalMs, true);
        },
        Math.max(0, scheduleOptions.firstDelayMs ?? intervalMs),
        false,
      );
    },
    stop: async () => {
      stopped = true;
      for (const timer of timers) clearTimeout(timer);
      timers.clear();
      await Promise.all([...running]);
    },
  };
}
