import { Redis, type RedisOptions } from 'ioredis';
import type { FastifyBaseLogger } from 'fastify';

/**
 * Connections to Redis for a server that must keep serving while Redis is away. Nothing waits for
 * Redis: a command issued while it is unreachable fails at once (no offline queue), one that gets
 * no answer fails after a short timeout, and the connections keep reconnecting in the background
 * for as long as the process lives. Failures are logged, never thrown as unhandled 'error' events.
 */
export interface RedisConnections {
  /** Commands: PUBLISH, SET, rate limit counters. */
  command: Redis;
  /** Pub/sub only: a connection in subscriber mode cannot run other commands. */
  subscriber: Redis;
  /** True while the command connection is connected and ready. */
  isReady(): boolean;
  /** Waits until both connections are ready, at most `timeoutMs`; answers whether they are. */
  waitUntilReady(timeoutMs: number): Promise<boolean>;
  /** Closes both connections; they no longer reconnect. */
  close(): Promise<void>;
}

export interface RedisConnectionOptions {
  log: FastifyBaseLogger;
  /** Shown in CLIENT LIST, to tell Perch's connections apart. */
  name?: string;
  /** How long one connection attempt may take. Default 5 s. */
  connectTimeoutMs?: number;
  /** How long a command may wait for its answer. Default 2 s. */
  commandTimeoutMs?: number;
  /** Longest pause between reconnection attempts. Default 2 s. */
  maxReconnectDelayMs?: number;
  /**
   * How often a ready connection is pinged; one that does not answer within the command timeout
   * is dropped and reconnected (a peer that vanished without closing the socket would otherwise
   * leave the subscriber silently deaf). 0 turns the check off. Default 15 s.
   */
  healthCheckIntervalMs?: number;
  /** Minimum time between two logged errors of one connection. Default 30 s. */
  errorLogIntervalMs?: number;
}

/** Reconnect forever: quickly at first, then every `maxDelayMs`. */
export function reconnectDelay(attempt: number, maxDelayMs: number): number {
  return Math.min(50 * 2 ** Math.min(attempt, 16), maxDelayMs);
}

/** Connection settings for a process that keeps serving while Redis is unreachable. */
export function redisOptions(
  options: Omit<RedisConnectionOptions, 'log'> & { role: string },
): RedisOptions {
  const maxDelay = options.maxReconnectDelayMs ?? 2000;
  return {
    connectionName: `${options.name ?? 'perch'}:${options.role}`,
    connectTimeout: options.connectTimeoutMs ?? 5000,
    // A command while disconnected fails at once instead of piling up until Redis returns.
    enableOfflineQueue: false,
    // Commands under way when the connection drops fail rather than being sent again later.
    maxRetriesPerRequest: 0,
    autoResendUnfulfilledCommands: false,
    retryStrategy: (attempt) => reconnectDelay(attempt, maxDelay),
    // Subscriptions are made again on every reconnect.
    autoResubscribe: true,
    // TCP keep-alive probes start after 10 s idle.
    keepAlive: 10_000,
  };
}

/**
 * Logs a connection's failures without flooding the log while Redis is away: the first one, then
 * at most one every `intervalMs` with the number left out, and once when it is back.
 */
function watchConnection(
  connection: Redis,
  role: string,
  log: FastifyBaseLogger,
  intervalMs: number,
): () => void {
  let lastLogged = 0;
  let suppressed = 0;
  let failing = false;
  const onError = (error: Error) => {
    failing = true;
    const now = Date.now();
    if (now - lastLogged < intervalMs) {
      suppressed += 1;
      return;
    }
    log.error(
      { err: error, connection: role, ...(suppressed > 0 ? { suppressed } : {}) },
      'Redis connection failed; retrying',
    );
    lastLogged = now;
    suppressed = 0;
  };
  const onReady = () => {
    if (!failing) return;
    failing = false;
    suppressed = 0;
    lastLogged = 0;
    log.info({ connection: role }, 'Redis connection restored');
  };
  const onClose = () => {
    failing = true;
  };
  connection.on('error', onError);
  connection.on('ready', onReady);
  connection.on('close', onClose);
  return () => {
    connection.off('ready', onReady);
    connection.off('close', onClose);
    // The 'error' listener stays: a late error after closing must not become unhandled.
  };
}

/** Pings a ready connection now and then; one that does not answer is dropped and reconnects. */
function healthCheck(
  connection: Redis,
  role: string,
  log: FastifyBaseLogger,
  intervalMs: number,
  timeoutMs: number,
): () => void {
  if (intervalMs <= 0) return () => undefined;
  let checking = false;
  const timer = setInterval(() => {
    if (checking || connection.status !== 'ready') return;
    checking = true;
    let timeout: NodeJS.Timeout | undefined;
    const expired = new Promise<'timeout'>((resolve) => {
      timeout = setTimeout(() => {
        resolve('timeout');
      }, timeoutMs);
    });
    void Promise.race([connection.ping().catch(() => 'failed' as const), expired])
      .then((answer) => {
        if (answer === 'PONG' || Array.isArray(answer) || connection.status !== 'ready') return;
        log.warn({ connection: role }, 'Redis did not answer a ping; reconnecting');
        // Destroying the socket closes it at once even when the peer is gone; ioredis reconnects.
        connection.stream.destroy();
      })
      .finally(() => {
        clearTimeout(timeout);
        checking = false;
      });
  }, intervalMs);
  timer.unref();
  return () => {
    clearInterval(timer);
  };
}

function waitForReady(connection: Redis, timeoutMs: number): Promise<boolean> {
  if (connection.status === 'ready') return Promise.resolve(true);
  return new Promise((resolve) => {
    const done = (ready: boolean) => {
      clearTimeout(timer);
      connection.off('ready', onReady);
      resolve(ready);
    };
    const onReady = () => {
      done(true);
    };
    const timer = setTimeout(() => {
      done(false);
    }, timeoutMs);
    timer.unref();
    connection.on('ready', onReady);
  });
}

async function closeConnection(connection: Redis): Promise<void> {
  if (connection.status === 'end') return;
  if (connection.status !== 'ready') {
    connection.disconnect();
    return;
  }
  try {
    await connection.quit();
  } catch {
    connection.disconnect();
  }
}

/** Opens the command and subscriber connections to `url` (redis:// or rediss://). */
export function createRedisConnections(
  url: string,
  options: RedisConnectionOptions,
): RedisConnections {
  const { log } = options;
  const errorLogIntervalMs = options.errorLogIntervalMs ?? 30_000;
  const commandTimeoutMs = options.commandTimeoutMs ?? 2000;
  const healthCheckIntervalMs = options.healthCheckIntervalMs ?? 15_000;

  const command = new Redis(url, {
    ...redisOptions({ ...options, role: 'command' }),
    commandTimeout: commandTimeoutMs,
  });
  const subscriber = new Redis(url, redisOptions({ ...options, role: 'subscriber' }));

  const stops = [
    watchConnection(command, 'command', log, errorLogIntervalMs),
    watchConnection(subscriber, 'subscriber', log, errorLogIntervalMs),
    healthCheck(command, 'command', log, healthCheckIntervalMs, commandTimeoutMs),
    healthCheck(subscriber, 'subscriber', log, healthCheckIntervalMs, commandTimeoutMs),
  ];

  let closed: Promise<void> | null = null;
  return {
    command,
    subscriber,
    isReady: () => command.status === 'ready',
    waitUntilReady: async (timeoutMs) => {
      const [a, b] = await Promise.all([
        waitForReady(command, timeoutMs),
        waitForReady(subscriber, timeoutMs),
      ]);
      return a && b;
    },
    close: () => {
      closed ??= (async () => {
        for (const stop of stops) stop();
        await Promise.all([closeConnection(command), closeConnection(subscriber)]);
      })();
      return closed;
    },
  };
}
