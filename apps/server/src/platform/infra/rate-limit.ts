import type { RateLimitPluginOptions } from '@fastify/rate-limit';
import type { Redis } from 'ioredis';

/** The store options of @fastify/rate-limit; spread them into its registration. */
export type RateLimitStoreOptions = Pick<
  RateLimitPluginOptions,
  'redis' | 'nameSpace' | 'skipOnError'
>;

export const RATE_LIMIT_NAMESPACE = 'perch-rl:';

/**
 * With Redis, limits count across every process and instance (the counters live in Redis under
 * `nameSpace`), and a request is let through rather than failed when Redis cannot be asked. Without
 * it, each process counts in memory.
 */
export function rateLimitStoreOptions(
  redis: Redis | null,
  nameSpace = RATE_LIMIT_NAMESPACE,
): RateLimitStoreOptions {
  if (!redis) return {};
  return { redis, nameSpace, skipOnError: true };
}
