import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema';
import { createLocalEventSignal, createRedisEventSignal, type EventSignal } from './event-signal';
import { createDatabaseJobLock, createRedisJobLock, lockHolderId, type JobLock } from './jobs';
import { rateLimitStoreOptions, type RateLimitStoreOptions } from './rate-limit';
import { createRedisConnections, type RedisConnections } from './redis';

export {
  createLocalEventSignal,
  createRedisEventSignal,
  type EventSignal,
  type RedisEventSignal,
} from './event-signal';
export {
  createDatabaseJobLock,
  createRedisJobLock,
  createScheduler,
  lockHolderId,
  type JobLock,
  type ScheduleOptions,
  type Scheduler,
} from './jobs';
export {
  RATE_LIMIT_NAMESPACE,
  rateLimitStoreOptions,
  type RateLimitStoreOptions,
} from './rate-limit';
export { createRedisConnections, type RedisConnections } from './redis';

/**
 * Names in Redis start with this: the channel `perch:events`, leases `perch:job:<name>` and rate
 * limit counters `perch-rl:…`.
 */
export const DEFAULT_REDIS_PREFIX = 'perch';

/** The Redis channel that carries event signals. */
export const eventSignalChannel = (prefix = DEFAULT_REDIS_PREFIX): string => `${prefix}:events`;
/** Prefix of the Redis keys that hold job leases. */
export const jobLockKeyPrefix = (prefix = DEFAULT_REDIS_PREFIX): string => `${prefix}:job:`;
/** Prefix of the Redis keys that count requests for rate limits. */
export const rateLimitNamespace = (prefix = DEFAULT_REDIS_PREFIX): string => `${prefix}-rl:`;

export interface InfrastructureOptions {
  /** Another prefix for names in Redis (tests; several deployments on one Redis). */
  redisPrefix?: string;
}

/** How long start-up waits for Redis before serving without it (it keeps reconnecting). */
const REDIS_STARTUP_WAIT_MS = 5000;

/**
 * What coordinates this process with the others. Without REDIS_URL everything stays in this
 * process (the job lock uses the database, which also serves several processes on one SQLite file
 * or one PostgreSQL database); with it, signals, job leases and rate limit counters go through
 * Redis.
 */
export interface Infrastructure {
  /** The Redis connections, or null without REDIS_URL. */
  redis: RedisConnections | null;
  /** Tells every process that events were committed to the outbox. */
  signal: EventSignal;
  /** Makes scheduled work run once across processes; hand it to createScheduler. */
  jobLock: JobLock;
  /** Spread into app.register(rateLimit, { global: false, ...infra.rateLimit }). */
  rateLimit: RateLimitStoreOptions;
  /** Closes the signal and the Redis connections; call once nothing uses them any more. */
  close(): Promise<void>;
}

/** Waits for `promise`, at most `ms`. */
async function within(promise: Promise<unknown>, ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, ms);
  });
  try {
    await Promise.race([promise, expired]);
  } finally {
    clearTimeout(timer);
  }
}

/** What the infrastructure needs of the configuration. */
export interface InfrastructureConfig {
  /** Redis coordinates processes when set; without it everything stays in this process. */
  redisUrl: string | null;
}

export async function createInfrastructure(
  config: InfrastructureConfig,
  log: FastifyBaseLogger,
  db: Kysely<Database>,
  options: InfrastructureOptions = {},
): Promise<Infrastructure> {
  const holder = lockHolderId();
  const prefix = options.redisPrefix ?? DEFAULT_REDIS_PREFIX;
  if (!config.redisUrl) {
    const signal = createLocalEventSignal({ log });
    return {
      redis: null,
      signal,
      jobLock: createDatabaseJobLock(db, { holder, log }),
      rateLimit: rateLimitStoreOptions(null),
      close: () => signal.close(),
    };
  }

  const redis = createRedisConnections(config.redisUrl, { log });
  const signal = createRedisEventSignal(redis, eventSignalChannel(prefix), {
    log,
    origin: holder,
  });
  if (await redis.waitUntilReady(REDIS_STARTUP_WAIT_MS)) {
    // So that this process hears other processes' signals from its first request on.
    await within(signal.subscribed(), REDIS_STARTUP_WAIT_MS);
    log.info('connected to Redis');
  } else {
    log.warn('Redis is not reachable; serving without it meanwhile, and reconnecting');
  }
  let closed: Promise<void> | null = null;
  return {
    redis,
    signal,
    jobLock: createRedisJobLock(redis.command, {
      holder,
      log,
      keyPrefix: jobLockKeyPrefix(prefix),
    }),
    rateLimit: rateLimitStoreOptions(redis.command, rateLimitNamespace(prefix)),
    close: () => {
      closed ??= (async () => {
        await signal.close();
        await redis.close();
      })();
      return closed;
    },
  };
}
