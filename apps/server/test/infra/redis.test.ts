import rateLimit from '@fastify/rate-limit';
import Fastify, { type FastifyInstance } from 'fastify';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  createRedisEventSignal,
  type RedisEventSignal,
} from '../../src/platform/infra/event-signal';
import { createRedisJobLock } from '../../src/platform/infra/jobs';
import { rateLimitStoreOptions } from '../../src/platform/infra/rate-limit';
import {
  createRedisConnections,
  reconnectDelay,
  type RedisConnections,
} from '../../src/platform/infra/redis';
import {
  deleteRedisKeys,
  redisForTests,
  redisRequired,
  redisServerInstalled,
  startPrivateRedis,
  uniqueRedisPrefix,
} from '../redis';
import { fakeLog } from './fake-log';

const url = await redisForTests();
const prefix = uniqueRedisPrefix('infra');
const privateRedisAvailable = redisServerInstalled();
if (!privateRedisAvailable && redisRequired()) {
  throw new Error('REQUIRE_REDIS=1 but redis-server is not on PATH (the outage test starts one)');
}

/** Resolves with the next value `register` hands its listener, or rejects after `ms`. */
function next<T>(register: (listener: (value: T) => void) => () => void, ms = 5000): Promise<T> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      stop();
      reject(new Error(`nothing arrived within ${String(ms)} ms`));
    }, ms);
    const stop = register((value) => {
      clearTimeout(timer);
      stop();
      resolve(value);
    });
  });
}

const nextTurn = () => new Promise((resolve) => setImmediate(resolve));
const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('reconnect delay', () => {
  it('grows quickly and stays at the cap forever', () => {
    expect(reconnectDelay(1, 2000)).toBe(100);
    expect(reconnectDelay(3, 2000)).toBe(400);
    expect(reconnectDelay(10, 2000)).toBe(2000);
    expect(reconnectDelay(10_000, 2000)).toBe(2000);
  });
});

describe.skipIf(!url)('with Redis', () => {
  const opened: RedisConnections[] = [];
  const signals: RedisEventSignal[] = [];
  let admin: Redis;

  const connect = () => {
    const connections = createRedisConnections(url ?? '', { log: fakeLog() });
    opened.push(connections);
    return connections;
  };
  const signalOn = (connections: RedisConnections, channel: string, origin?: string) => {
    const signal = createRedisEventSignal(connections, channel, { origin, log: fakeLog() });
    signals.push(signal);
    return signal;
  };

  beforeAll(() => {
    admin = new Redis(url ?? '');
  });
  afterAll(async () => {
    await Promise.all(signals.map((s) => s.close()));
    await Promise.all(opened.map((c) => c.close()));
    await deleteRedisKeys(admin, prefix);
    await admin.quit();
  });

  describe('event signal', () => {
    it('reaches the other process through Redis and this one at once, each once', async () => {
      const channel = `${prefix}events-1`;
      const a = signalOn(connect(), channel, 'a');
      const b = signalOn(connect(), channel, 'b');
      await Promise.all([a.subscribed(), b.subscribed()]);
      const heardByA = vi.fn();
      const heardByB = vi.fn();
      a.subscribe(heardByA);
      b.subscribe(heardByB);

      const arrivesAtB = next<number>((listener) => b.subscribe(listener));
      a.notify(41);
      await nextTurn();
      // This process's listeners do not wait for Redis.
      expect(heardByA).toHaveBeenCalledWith(41);
      expect(await arrivesAtB).toBe(41);

      b.notify(42);
      await vi.waitFor(() => {
        expect(heardByA).toHaveBeenCalledWith(42);
      });
      await wait(50);
      // Own messages come back through Redis but are not delivered a second time.
      expect(heardByA.mock.calls).toEqual([[41], [42]]);
      expect(heardByB.mock.calls).toEqual([[41], [42]]);
    });

    it('keeps channels apart', async () => {
      const a = signalOn(connect(), `${prefix}events-2`);
      const b = signalOn(connect(), `${prefix}events-3`);
      await Promise.all([a.subscribed(), b.subscribed()]);
      const heardByB = vi.fn();
      b.subscribe(heardByB);
      a.notify(1);
      await wait(100);
      expect(heardByB).not.toHaveBeenCalled();
    });

    it('hears a message from any publisher, a bare id included', async () => {
      const channel = `${prefix}events-4`;
      const signal = signalOn(connect(), channel);
      await signal.subscribed();
      const arrives = next<number>((listener) => signal.subscribe(listener));
      await admin.publish(channel, '99');
      expect(await arrives).toBe(99);
    });

    it('stops hearing once closed', async () => {
      const channel = `${prefix}events-5`;
      const connections = connect();
      const signal = createRedisEventSignal(connections, channel);
      await signal.subscribed();
      const listener = vi.fn();
      signal.subscribe(listener);
      await signal.close();
      await admin.publish(channel, '5 elsewhere');
      signal.notify(6);
      await wait(100);
      expect(listener).not.toHaveBeenCalled();
    });
  });

  describe('job lock', () => {
    it('gives a lease to one holder, renews it for that holder, and lets it expire', async () => {
      const keyPrefix = `${prefix}job:`;
      const a = createRedisJobLock(connect().command, { holder: 'a', keyPrefix });
      const b = createRedisJobLock(connect().command, { holder: 'b', keyPrefix });
      await Promise.all(opened.map((c) => c.waitUntilReady(5000)));

      expect(await a.tryAcquire('sweep', 300)).toBe(true);
      expect(await b.tryAcquire('sweep', 300)).toBe(false);
      expect(await admin.get(`${keyPrefix}sweep`)).toBe('a');
      // Renewing moves the expiry.
      await wait(200);
      expect(await a.tryAcquire('sweep', 300)).toBe(true);
      await wait(200);
      expect(await b.tryAcquire('sweep', 300)).toBe(false);
      // Expired: the other holder takes over.
      await wait(200);
      expect(await b.tryAcquire('sweep', 300)).toBe(true);
      expect(await a.tryAcquire('sweep', 300)).toBe(false);
      // Another job is another lease.
      expect(await a.tryAcquire('other', 300)).toBe(true);
    });

    it('gives a lease to exactly one of many holders asking at once', async () => {
      const keyPrefix = `${prefix}job-race:`;
      const connections = connect();
      await connections.waitUntilReady(5000);
      const locks = Array.from({ length: 10 }, (_, i) =>
        createRedisJobLock(connections.command, { holder: `h${String(i)}`, keyPrefix }),
      );
      const answers = await Promise.all(locks.map((lock) => lock.tryAcquire('job', 10_000)));
      expect(answers.filter(Boolean)).toHaveLength(1);
    });
  });

  describe('rate limits', () => {
    const limitedApp = async (redis: Redis, nameSpace: string): Promise<FastifyInstance> => {
      const app = Fastify();
      await app.register(rateLimit, { global: false, ...rateLimitStoreOptions(redis, nameSpace) });
      app.get('/limited', { config: { rateLimit: { max: 2, timeWindow: '1 minute' } } }, () => ({
        ok: true,
      }));
      await app.ready();
      return app;
    };

    it('count across processes', async () => {
      const nameSpace = `${prefix}rl:`;
      const [one, two] = [connect(), connect()];
      await Promise.all([one.waitUntilReady(5000), two.waitUntilReady(5000)]);
      const first = await limitedApp(one.command, nameSpace);
      const second = await limitedApp(two.command, nameSpace);
      try {
        expect((await first.inject('/limited')).statusCode).toBe(200);
        expect((await second.inject('/limited')).statusCode).toBe(200);
        expect((await first.inject('/limited')).statusCode).toBe(429);
        expect((await second.inject('/limited')).statusCode).toBe(429);
        expect((await admin.keys(`${nameSpace}*`)).length).toBeGreaterThan(0);
      } finally {
        await first.close();
        await second.close();
      }
    });
  });
});

describe.skipIf(!privateRedisAvailable)('when Redis goes away and comes back', () => {
  it('keeps answering at once, then reconnects and signals again', async () => {
    const server = await startPrivateRedis();
    const logA = fakeLog();
    const a = createRedisConnections(server.url, {
      log: logA,
      maxReconnectDelayMs: 200,
      errorLogIntervalMs: 60_000,
    });
    const b = createRedisConnections(server.url, { log: fakeLog(), maxReconnectDelayMs: 200 });
    const signalA = createRedisEventSignal(a, 'events', { origin: 'a', log: fakeLog() });
    const signalB = createRedisEventSignal(b, 'events', { origin: 'b', log: fakeLog() });
    const lock = createRedisJobLock(a.command, { holder: 'a' });
    const app = Fastify();
    try {
      await Promise.all([signalA.subscribed(), signalB.subscribed()]);
      await app.register(rateLimit, { global: false, ...rateLimitStoreOptions(a.command) });
      app.get('/limited', { config: { rateLimit: { max: 1, timeWindow: '1 minute' } } }, () => ({
        ok: true,
      }));
      await app.ready();
      expect(await lock.tryAcquire('sweep', 60_000)).toBe(true);
      expect((await app.inject('/limited')).statusCode).toBe(200);
      expect((await app.inject('/limited')).statusCode).toBe(429);

      const reconnectedA = vi.fn();
      const reconnectedB = vi.fn();
      signalA.onReconnect(reconnectedA);
      signalB.onReconnect(reconnectedB);
      const heardByA = vi.fn();
      signalA.subscribe(heardByA);

      await server.kill();
      await vi.waitFor(() => {
        expect(a.isReady()).toBe(false);
      });

      // Nothing throws, nothing waits for Redis.
      let started = performance.now();
      for (let id = 1; id <= 50; id += 1) signalA.notify(id);
      expect(performance.now() - started).toBeLessThan(50);
      await nextTurn();
      // This process still hears its own notifications.
      expect(heardByA).toHaveBeenLastCalledWith(50);

      started = performance.now();
      expect(await lock.tryAcquire('sweep', 60_000)).toBe(false);
      expect(await lock.tryAcquire('other', 60_000)).toBe(false);
      expect(performance.now() - started).toBeLessThan(200);

      // Requests are let through rather than failed.
      started = performance.now();
      expect((await app.inject('/limited')).statusCode).toBe(200);
      expect(performance.now() - started).toBeLessThan(200);

      await wait(300);
      // Failures are logged, but not once per attempt or per publish.
      expect(logA.error.mock.calls.length).toBeLessThanOrEqual(2);
      expect(reconnectedA).not.toHaveBeenCalled();

      await server.start();
      await vi.waitFor(
        () => {
          expect(reconnectedA).toHaveBeenCalledOnce();
          expect(reconnectedB).toHaveBeenCalledOnce();
        },
        { timeout: 5000, interval: 20 },
      );
      expect(logA.info).toHaveBeenCalledWith(
        { connection: 'command' },
        'Redis connection restored',
      );

      // Signals flow again between the two processes.
      const arrivesAtB = next<number>((listener) => signalB.subscribe(listener));
      signalA.notify(51);
      expect(await arrivesAtB).toBe(51);
      const arrivesAtA = next<number>((listener) => signalA.subscribe(listener));
      signalB.notify(52);
      expect(await arrivesAtA).toBe(52);
      // The restarted server has no leases: the lock works again.
      await vi.waitFor(() => {
        expect(a.isReady()).toBe(true);
      });
      expect(await lock.tryAcquire('sweep', 60_000)).toBe(true);
    } finally {
      await app.close();
      await signalA.close();
      await signalB.close();
      await a.close();
      await b.close();
      await server.dispose();
    }
  });

  it('starts without Redis, keeps trying, and counts the first connection as a reconnect', async () => {
    const server = await startPrivateRedis();
    await server.kill();
    const connections = createRedisConnections(server.url, {
      log: fakeLog(),
      maxReconnectDelayMs: 100,
    });
    const signal = createRedisEventSignal(connections, 'events', { log: fakeLog() });
    const lock = createRedisJobLock(connections.command);
    try {
      expect(await connections.waitUntilReady(300)).toBe(false);
      expect(await lock.tryAcquire('sweep', 1000)).toBe(false);
      const reconnected = vi.fn();
      signal.onReconnect(reconnected);
      await server.start();
      await signal.subscribed();
      await vi.waitFor(() => {
        expect(reconnected).toHaveBeenCalledOnce();
      });
      expect(await connections.waitUntilReady(5000)).toBe(true);
      expect(await lock.tryAcquire('sweep', 1000)).toBe(true);
    } finally {
      await signal.close();
      await connections.close();
      await server.dispose();
    }
  });
});
