import { randomBytes } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { RedisConnections } from './redis';

/**
 * Tells every process that new events were committed to the outbox. Only a nudge: the outbox
 * table stays the source of truth, and each process reads it itself, so a lost, late or repeated
 * signal costs a delay, never an event.
 */
export interface EventSignal {
  /** Tell every process (this one included) that events up to `lastId` were committed. Never throws, never blocks a request on the transport. */
  notify(lastId: number): void;
  /** Called when any process (this one included) notified; `lastId` may be stale or repeated. */
  subscribe(listener: (lastId: number) => void): () => void;
  /** Called after the transport reconnected: events may have been missed meanwhile. */
  onReconnect(listener: () => void): () => void;
  close(): Promise<void>;
}

export interface EventSignalOptions {
  /** Where a failing listener or transport is reported. */
  log?: Pick<FastifyBaseLogger, 'error' | 'warn'>;
}

/** A set of listeners that are called one by one; one that throws does not stop the others. */
class Listeners<A extends unknown[]> {
  private readonly listeners = new Set<(...args: A) => void>();

  constructor(
    private readonly what: string,
    private readonly log: EventSignalOptions['log'],
  ) {}

  add(listener: (...args: A) => void): () => void {
    // A wrapper of its own, so that subscribing one function twice gives two subscriptions.
    const entry = (...args: A) => {
      listener(...args);
    };
    this.listeners.add(entry);
    return () => {
      this.listeners.delete(entry);
    };
  }

  call(...args: A): void {
    for (const listener of [...this.listeners]) {
      try {
        listener(...args);
      } catch (error) {
        this.log?.error({ err: error }, `${this.what} listener failed`);
      }
    }
  }

  clear(): void {
    this.listeners.clear();
  }
}

/**
 * Delivers to this process's listeners on a later turn of the event loop, never inside notify()
 * (which may run in the middle of a request), and folds notifications made meanwhile into one.
 */
class LocalDelivery {
  private pending: number | null = null;
  private closed = false;

  constructor(private readonly listeners: Listeners<[number]>) {}

  deliver(lastId: number): void {
    if (this.closed || !Number.isFinite(lastId)) return;
    if (this.pending !== null) {
      this.pending = Math.max(this.pending, lastId);
      return;
    }
    this.pending = lastId;
    setImmediate(() => {
      const id = this.pending;
      this.pending = null;
      if (id !== null && !this.closed) this.listeners.call(id);
    });
  }

  close(): void {
    this.closed = true;
    this.pending = null;
  }
}

/** Everything in this process: for one process on SQLite or PostgreSQL. */
export function createLocalEventSignal(options: EventSignalOptions = {}): EventSignal {
  const listeners = new Listeners<[number]>('event signal', options.log);
  const delivery = new LocalDelivery(listeners);
  return {
    notify: (lastId) => {
      delivery.deliver(lastId);
    },
    subscribe: (listener) => listeners.add(listener),
    // Nothing in between to lose a signal: there is never a reconnect.
    onReconnect: () => () => undefined,
    close: async () => {
      delivery.close();
      listeners.clear();
    },
  };
}

export interface RedisEventSignal extends EventSignal {
  /** Resolves once the subscription is in place (or the signal closed); for start-up and tests. */
  subscribed(): Promise<void>;
}

export interface RedisEventSignalOptions extends EventSignalOptions {
  /** Tells this process's own messages apart from others'. Default: random. */
  origin?: string;
  /** Minimum time between two logged publish failures. Default 30 s. */
  errorLogIntervalMs?: number;
}

/** Messages are "<lastId> <origin>"; a bare number is accepted too. */
export function encodeSignal(lastId: number, origin: string): string {
  return `${lastId} ${origin}`;
}

export function decodeSignal(message: string): { lastId: number; origin: string | null } | null {
  const [id, origin] = message.split(' ', 2);
  const lastId = Number(id);
  if (!id || !Number.isFinite(lastId)) return null;
  return { lastId, origin: origin ?? null };
}

/**
 * PUBLISH on `channel` to every process subscribed to it, through Redis. This process's own
 * listeners hear at once, without the round trip, and its own message is not delivered twice.
 * While Redis is away notify() still reaches this process; other processes catch up through
 * onReconnect when it returns.
 */
export function createRedisEventSignal(
  redis: Pick<RedisConnections, 'command' | 'subscriber'>,
  channel: string,
  options: RedisEventSignalOptions = {},
): RedisEventSignal {
  const { log } = options;
  const origin = options.origin ?? randomBytes(8).toString('hex');
  const errorLogIntervalMs = options.errorLogIntervalMs ?? 30_000;
  const listeners = new Listeners<[number]>('event signal', log);
  const reconnectListeners = new Listeners<[]>('event signal reconnect', log);
  const delivery = new LocalDelivery(listeners);
  const { command, subscriber } = redis;

  let closed = false;
  let everSubscribed = false;
  // A connection that dropped (or never came up) before the first subscription may have missed
  // notifications, so the first subscription after it counts as a reconnect.
  let dropped = false;
  let resolveSubscribed: () => void = () => undefined;
  const subscribedOnce = new Promise<void>((resolve) => {
    resolveSubscribed = resolve;
  });

  let lastPublishError = 0;
  const reportPublishError = (error: unknown) => {
    const now = Date.now();
    if (now - lastPublishError < errorLogIntervalMs) return;
    lastPublishError = now;
    log?.warn(
      { err: error, channel },
      'could not publish an event signal; other processes catch up when Redis is back',
    );
  };

  const onMessage = (from: string, message: string) => {
    if (closed || from !== channel) return;
    const signal = decodeSignal(message);
    if (!signal || signal.origin === origin) return;
    delivery.deliver(signal.lastId);
  };

  const subscribeNow = () => {
    if (closed) return;
    subscriber.subscribe(channel).then(
      () => {
        if (closed) return;
        const reconnected = everSubscribed || dropped;
        everSubscribed = true;
        dropped = false;
        resolveSubscribed();
        if (reconnected) reconnectListeners.call();
      },
      (error: unknown) => {
        // The connection went away again; the next 'ready' tries once more.
        if (!closed) log?.warn({ err: error, channel }, 'could not subscribe to event signals');
      },
    );
  };

  const onReady = () => {
    subscribeNow();
  };
  const onClose = () => {
    dropped = true;
  };

  subscriber.on('message', onMessage);
  subscriber.on('ready', onReady);
  subscriber.on('close', onClose);
  if (subscriber.status === 'ready') subscribeNow();

  return {
    notify: (lastId) => {
      if (closed) return;
      delivery.deliver(lastId);
      try {
        command.publish(channel, encodeSignal(lastId, origin)).catch(reportPublishError);
      } catch (error) {
        reportPublishError(error);
      }
    },
    subscribe: (listener) => listeners.add(listener),
    onReconnect: (listener) => reconnectListeners.add(listener),
    subscribed: () => subscribedOnce,
    close: async () => {
      if (closed) return;
      closed = true;
      resolveSubscribed();
      delivery.close();
      listeners.clear();
      reconnectListeners.clear();
      subscriber.off('message', onMessage);
      subscriber.off('ready', onReady);
      subscriber.off('close', onClose);
      if (subscriber.status === 'ready') {
        await subscriber.unsubscribe(channel).catch(() => undefined);
      }
    },
  };
}
