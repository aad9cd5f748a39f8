import { z } from 'zod';
import { DEFAULT_SQLITE_CACHE_MIB } from '../platform/db/database';

export class ConfigError extends Error {
  override name = 'ConfigError';
}

export interface AppConfig {
  host: string;
  port: number;
  /** Holds the SQLite file, uploaded media and generated secrets. */
  dataDir: string;
  /** A postgres:// URL selects PostgreSQL; null keeps the embedded SQLite database. */
  databaseUrl: string | null;
  /** null: generate one on first start and keep it in dataDir. */
  jwtSecret: string | null;
  tokenTtlSeconds: number;
  /** scrypt cost parameter N (a power of two); stored with each hash so it can change later. */
  passwordHashCost: number;
  seedDemoData: boolean;
  /** Login and signup attempts per minute from one address; 0 turns the limit off. */
  authRateLimitPerMinute: number;
  /** Image uploads per minute by one member; 0 turns the limit off. */
  uploadRateLimitPerMinute: number;
  /** Minutes between sweeps of unused uploads; 0 turns the sweep off. */
  mediaSweepIntervalMinutes: number;
  logLevel: string;
  /** Built web app to serve; null serves the API only. */
  webDir: string | null;
  /** Server processes sharing the port; more than one uses more cores (see server.ts). */
  workers: number;
  /**
   * A redis:// or rediss:// URL: events, scheduled work and rate limits are coordinated through
   * Redis, so that several processes and instances can serve one PostgreSQL database. null keeps
   * everything in this process (see src/platform/infra).
   */
  redisUrl: string | null;
  /**
   * Which proxies in front may name the client (X-Forwarded-For, -Proto): false trusts none, true
   * every one, a string a comma-separated list of addresses or subnets.
   * Rate limits count by the client's address and the session cookie is Secure over HTTPS, so
   * behind a balancer this should name it.
   */
  trustProxy: boolean | string;
  /**
   * The address members and other servers reach this instance at (scheme, host and port, no
   * path), used in links that leave the browser: canonical links, feeds, shared pages. null takes
   * each request's own Host and scheme.
   */
  publicUrl: string | null;
  /** Compress JSON, HTML and XML answers for clients that accept it (off behind a proxy that does). */
  compression: boolean;
  /** Posts kept in each member's home timeline; older ones are read from follows. */
  homeTimelineLength: number;
  /** Days after which the timeline of a member who has not read Home is dropped (rebuilt on return). */
  homeTimelineIdleDays: number;
  /** Followers from which an author's posts are read into Home when read, not written out. */
  homePullFollowers: number;
  /** Post cards kept whole in memory by each process (and as many posts' first comments). */
  cardCacheSize: number;
  /** Post cards kept packed besides, once they no longer fit among those kept whole (0: none). */
  packedCardCacheSize: number;
  /** How long trending tags are reused before they are counted again (0: every request). */
  trendingCacheSeconds: number;
  /**
   * How far V8's heap may grow past what the last full collection kept, in percent, before it
   * collects again; 0 leaves it to V8 (see server.ts).
   */
  heapGrowthPercent: number;
  /** Pages SQLite keeps in memory, per connection (the writer and the reader), in MiB. */
  sqliteCacheMiB: number;
  /** How long a client may take to send a request's headers; then 408 and the connection closes. */
  headersTimeoutMs: number;
  /**
   * How long a client may take to send a whole request, headers and body (an upload included);
   * then 408 and the connection closes.
   */
  requestTimeoutMs: number;
  /** How long an idle connection is kept open for the client's next request. */
  keepAliveTimeoutMs: number;
  /** Fetch preview cards for links in posts (see modules/preview-cards). */
  linkPreviews: boolean;
  /**
   * Let link previews fetch from loopback and private addresses: for tests against a local server
   * only, as it lets anyone who posts a link make this server request its own network.
   */
  linkPreviewAllowPrivate: boolean;
}

/** Followers from which an author's posts are pulled into Home (see modules/timelines). */
export const DEFAULT_HOME_PULL_FOLLOWERS = 2_000;

/** See sqliteCacheMiB and db/database.ts. */
export { DEFAULT_SQLITE_CACHE_MIB };

/** See headersTimeoutMs, requestTimeoutMs, keepAliveTimeoutMs and docs/decisions/0031-timeouts.md. */
export const DEFAULT_HEADERS_TIMEOUT_SECONDS = 30;
export const DEFAULT_REQUEST_TIMEOUT_SECONDS = 60;
export const DEFAULT_KEEP_ALIVE_TIMEOUT_SECONDS = 72;

/** See heapGrowthPercent: V8 alone let a heap keeping 45 MB grow past 150 MB between collections. */
export const DEFAULT_HEAP_GROWTH_PERCENT = 15;

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

/** A timeout in seconds, above 0 and at most an hour; fractions allowed. */
const timeoutSeconds = (name: string) =>
  z.coerce
    .number({ error: `${name} must be a number` })
    .positive(`${name} must be positive`)
    .max(3600, `${name} must be at most 3600`);

const envSchema = z.object({
  PORT: z.coerce
    .number({ error: 'PORT must be a number' })
    .int('PORT must be a whole number')
    .min(0, 'PORT must be between 0 and 65535')
    .max(65535, 'PORT must be between 0 and 65535')
    .default(3000),
  HOST: z.string().min(1, 'HOST must not be empty').default('127.0.0.1'),
  DATA_DIR: z.string().min(1, 'DATA_DIR must not be empty').default('./data'),
  DATABASE_URL: z
    .string()
    .optional()
    .transform((value) => (value?.trim() ? value.trim() : undefined))
    .refine((value) => value === undefined || /^postgres(ql)?:\/\//.test(value), {
      message: 'DATABASE_URL must be a postgres:// URL',
    }),
  JWT_SECRET: z
    .string()
    .optional()
    .refine((value) => value === undefined || value === '' || value.length >= 32, {
      message: 'JWT_SECRET must be at least 32 characters',
    }),
  TOKEN_TTL_DAYS: z.coerce
    .number({ error: 'TOKEN_TTL_DAYS must be a number' })
    .positive('TOKEN_TTL_DAYS must be positive')
    .default(30),
  PASSWORD_HASH_COST: z.coerce
    .number({ error: 'PASSWORD_HASH_COST must be a number' })
    .int()
    .refine((n) => n >= 2 && (n & (n - 1)) === 0, 'PASSWORD_HASH_COST must be a power of two')
    .default(2 ** 15),
  AUTH_RATE_LIMIT: z.coerce
    .number({ error: 'AUTH_RATE_LIMIT must be a number' })
    .int('AUTH_RATE_LIMIT must be a whole number')
    .min(0, 'AUTH_RATE_LIMIT must not be negative')
    .default(30),
  UPLOAD_RATE_LIMIT: z.coerce
    .number({ error: 'UPLOAD_RATE_LIMIT must be a number' })
    .int('UPLOAD_RATE_LIMIT must be a whole number')
    .min(0, 'UPLOAD_RATE_LIMIT must not be negative')
    .default(30),
  MEDIA_SWEEP_MINUTES: z.coerce
    .number({ error: 'MEDIA_SWEEP_MINUTES must be a number' })
    .int('MEDIA_SWEEP_MINUTES must be a whole number')
    .min(0, 'MEDIA_SWEEP_MINUTES must not be negative')
    .default(60),
  SEED: z.enum(['demo', 'none'], { error: 'SEED must be "demo" or "none"' }).default('demo'),
  LOG_LEVEL: z
    .enum(LOG_LEVELS, { error: `LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}` })
    .default('info'),
  WEB_DIR: z.string().optional(),
  WORKERS: z.coerce
    .number({ error: 'WORKERS must be a number' })
    .int('WORKERS must be a whole number')
    .min(1, 'WORKERS must be at least 1')
    .max(64, 'WORKERS must be at most 64')
    .default(1),
  REDIS_URL: z
    .string()
    .optional()
    .transform((value) => (value?.trim() ? value.trim() : undefined))
    .refine((value) => value === undefined || isRedisUrl(value), {
      message: 'REDIS_URL must be a redis:// or rediss:// URL',
    }),
  HOME_TIMELINE_LENGTH: z.coerce
    .number({ error: 'HOME_TIMELINE_LENGTH must be a number' })
    .int('HOME_TIMELINE_LENGTH must be a whole number')
    .min(20, 'HOME_TIMELINE_LENGTH must be at least 20')
    .max(100_000, 'HOME_TIMELINE_LENGTH must be at most 100000')
    .default(800),
  HOME_PULL_FOLLOWERS: z.coerce
    .number({ error: 'HOME_PULL_FOLLOWERS must be a number' })
    .int('HOME_PULL_FOLLOWERS must be a whole number')
    .min(1, 'HOME_PULL_FOLLOWERS must be at least 1')
    .default(DEFAULT_HOME_PULL_FOLLOWERS),
  HOME_TIMELINE_IDLE_DAYS: z.coerce
    .number({ error: 'HOME_TIMELINE_IDLE_DAYS must be a number' })
    .positive('HOME_TIMELINE_IDLE_DAYS must be positive')
    .default(14),
  CARD_CACHE_SIZE: z.coerce
    .number({ error: 'CARD_CACHE_SIZE must be a number' })
    .int('CARD_CACHE_SIZE must be a whole number')
    .min(1, 'CARD_CACHE_SIZE must be at least 1')
    .max(10_000_000, 'CARD_CACHE_SIZE must be at most 10000000')
    .default(10_000),
  PACKED_CARD_CACHE_SIZE: z.coerce
    .number({ error: 'PACKED_CARD_CACHE_SIZE must be a number' })
    .int('PACKED_CARD_CACHE_SIZE must be a whole number')
    .min(0, 'PACKED_CARD_CACHE_SIZE must be at least 0')
    .max(10_000_000, 'PACKED_CARD_CACHE_SIZE must be at most 10000000')
    .default(12_000),
  TRENDING_CACHE_SECONDS: z.coerce
    .number({ error: 'TRENDING_CACHE_SECONDS must be a number' })
    .int('TRENDING_CACHE_SECONDS must be a whole number')
    .min(0, 'TRENDING_CACHE_SECONDS must be at least 0')
    .max(86_400, 'TRENDING_CACHE_SECONDS must be at most 86400')
    .default(60),
  SQLITE_CACHE_MB: z.coerce
    .number({ error: 'SQLITE_CACHE_MB must be a number' })
    .int('SQLITE_CACHE_MB must be a whole number')
    .min(1, 'SQLITE_CACHE_MB must be at least 1')
    .max(65_536, 'SQLITE_CACHE_MB must be at most 65536')
    .default(DEFAULT_SQLITE_CACHE_MIB),
  HEAP_GROWTH_PERCENT: z.coerce
    .number({ error: 'HEAP_GROWTH_PERCENT must be a number' })
    .int('HEAP_GROWTH_PERCENT must be a whole number')
    .min(0, 'HEAP_GROWTH_PERCENT must be at least 0')
    .max(300, 'HEAP_GROWTH_PERCENT must be at most 300')
    .default(DEFAULT_HEAP_GROWTH_PERCENT),
  // Unset, it is the default or the request's timeout, whichever is shorter.
  HEADERS_TIMEOUT_SECONDS: timeoutSeconds('HEADERS_TIMEOUT_SECONDS').optional(),
  REQUEST_TIMEOUT_SECONDS: timeoutSeconds('REQUEST_TIMEOUT_SECONDS').default(
    DEFAULT_REQUEST_TIMEOUT_SECONDS,
  ),
  KEEP_ALIVE_TIMEOUT_SECONDS: timeoutSeconds('KEEP_ALIVE_TIMEOUT_SECONDS').default(
    DEFAULT_KEEP_ALIVE_TIMEOUT_SECONDS,
  ),
  COMPRESSION: z.enum(['on', 'off'], { error: 'COMPRESSION must be "on" or "off"' }).default('on'),
  LINK_PREVIEWS: z
    .enum(['on', 'off'], { error: 'LINK_PREVIEWS must be "on" or "off"' })
    .default('on'),
  LINK_PREVIEW_ALLOW_PRIVATE: z
    .enum(['0', '1'], { error: 'LINK_PREVIEW_ALLOW_PRIVATE must be 0 or 1' })
    .default('0'),
  PUBLIC_URL: z
    .string()
    .trim()
    .refine(isOrigin, 'PUBLIC_URL must be an http:// or https:// address without a path')
    .transform((value) => new URL(value).origin)
    .optional(),
  TRUST_PROXY: z
    .string()
    .trim()
    .regex(
      /^(true|false|[0-9A-Fa-f:./]+(\s*,\s*[0-9A-Fa-f:./]+)*)$/,
      'TRUST_PROXY must be true, false or a list of addresses',
    )
    .optional(),
});

function trustProxyOf(value: string | undefined): boolean | string {
  if (value === undefined || value === '' || value === 'false') return false;
  return value === 'true' ? true : value;
}

function isOrigin(value: string): boolean {
  try {
    const url = new URL(value);
    return /^https?:$/.test(url.protocol) && url.pathname === '/' && !url.search && !url.hash;
  } catch {
    return false;
  }
}

function isRedisUrl(value: string): boolean {
  if (!/^rediss?:\/\//.test(value)) return false;
  try {
    return new URL(value).hostname !== '';
  } catch {
    return false;
  }
}

/** Reads the environment; a bad setting throws a ConfigError with a one-line reason. */
export function loadConfig(env: NodeJS.ProcessEnv, defaults: { webDir: string | null }): AppConfig {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new ConfigError(issue ? issue.message : 'invalid configuration');
  }
  const e = parsed.data;
  const jwtSecret = e.JWT_SECRET === '' ? null : (e.JWT_SECRET ?? null);
  const headersTimeout =
    e.HEADERS_TIMEOUT_SECONDS ??
    Math.min(DEFAULT_HEADERS_TIMEOUT_SECONDS, e.REQUEST_TIMEOUT_SECONDS);
  if (headersTimeout > e.REQUEST_TIMEOUT_SECONDS) {
    // The headers are part of the request: Node refuses a longer wait for them.
    throw new ConfigError('HEADERS_TIMEOUT_SECONDS must not be above REQUEST_TIMEOUT_SECONDS');
  }
  if (e.DATABASE_URL && !jwtSecret) {
    // A generated secret lives in one machine's DATA_DIR: tokens signed by one instance would be
    // refused by the others.
    throw new ConfigError(
      'JWT_SECRET must be set when DATABASE_URL is set: every instance sharing the database needs the same secret',
    );
  }
  return {
    host: e.HOST,
    port: e.PORT,
    dataDir: e.DATA_DIR,
    databaseUrl: e.DATABASE_URL ?? null,
    jwtSecret,
    tokenTtlSeconds: Math.round(e.TOKEN_TTL_DAYS * 86400),
    passwordHashCost: e.PASSWORD_HASH_COST,
    seedDemoData: e.SEED === 'demo',
    authRateLimitPerMinute: e.AUTH_RATE_LIMIT,
    uploadRateLimitPerMinute: e.UPLOAD_RATE_LIMIT,
    mediaSweepIntervalMinutes: e.MEDIA_SWEEP_MINUTES,
    logLevel: e.LOG_LEVEL,
    webDir: e.WEB_DIR === undefined ? defaults.webDir : e.WEB_DIR === '' ? null : e.WEB_DIR,
    workers: e.WORKERS,
    redisUrl: e.REDIS_URL ?? null,
    trustProxy: trustProxyOf(e.TRUST_PROXY),
    publicUrl: e.PUBLIC_URL ?? null,
    compression: e.COMPRESSION === 'on',
    homeTimelineLength: e.HOME_TIMELINE_LENGTH,
    homeTimelineIdleDays: e.HOME_TIMELINE_IDLE_DAYS,
    homePullFollowers: e.HOME_PULL_FOLLOWERS,
    cardCacheSize: e.CARD_CACHE_SIZE,
    packedCardCacheSize: e.PACKED_CARD_CACHE_SIZE,
    trendingCacheSeconds: e.TRENDING_CACHE_SECONDS,
    heapGrowthPercent: e.HEAP_GROWTH_PERCENT,
    sqliteCacheMiB: e.SQLITE_CACHE_MB,
    headersTimeoutMs: Math.round(headersTimeout * 1000),
    requestTimeoutMs: Math.round(e.REQUEST_TIMEOUT_SECONDS * 1000),
    keepAliveTimeoutMs: Math.round(e.KEEP_ALIVE_TIMEOUT_SECONDS * 1000),
    linkPreviews: e.LINK_PREVIEWS === 'on',
    linkPreviewAllowPrivate: e.LINK_PREVIEW_ALLOW_PRIVATE === '1',
  };
}
