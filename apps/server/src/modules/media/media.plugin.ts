import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema';
import { DEFAULT_ORPHAN_GRACE_MS, sweepOrphanMedia, type SweepResult } from './media.service';
import type { MediaStore } from './media.store';

declare module 'fastify' {
  interface FastifyInstance {
    /** Where uploaded images are kept; pass it to releaseMediaIfUnused. */
    mediaStore: MediaStore;
  }
}

export const DEFAULT_SWEEP_INTERVAL_MS = 60 * 60 * 1000;
const FIRST_SWEEP_DELAY_MS = 60 * 1000;

export interface MediaSweeper {
  /** Sweeps a minute from now, then every interval. */
  start: () => void;
  /** Stops the schedule and waits for a sweep under way. */
  stop: () => Promise<void>;
  runOnce: () => Promise<SweepResult | null>;
}

export interface MediaSweeperOptions {
  db: Kysely<Database>;
  store: MediaStore;
  log: FastifyBaseLogger;
  intervalMs?: number;
  olderThanMs?: number;
}

/** Runs sweepOrphanMedia on a timer that never keeps the process alive; one sweep at a time. */
export function createMediaSweeper(options: MediaSweeperOptions): MediaSweeper {
  const intervalMs = options.intervalMs ?? DEFAULT_SWEEP_INTERVAL_MS;
  let timer: NodeJS.Timeout | null = null;
  let running: Promise<SweepResult | null> | null = null;
  let stopped = false;

  async function sweep(): Promise<SweepResult | null> {
    try {
      const result = await sweepOrphanMedia(options.db, options.store, {
        olderThanMs: options.olderThanMs ?? DEFAULT_ORPHAN_GRACE_MS,
        log: options.log,
      });
      if (result.removed + result.removedUnrecorded + result.removedIncomplete > 0) {
        options.log.info({ ...result }, 'removed unused uploads');
      }
      return result;
    } catch (error) {
      options.log.error({ err: error }, 'media sweep failed');
      return null;
    }
  }

  function runOnce(): Promise<SweepResult | null> {
    running ??= sweep().finally(() => {
      running = null;
    });
    return running;
  }

  function schedule(delay: number): void {
    if (stopped) return;
    timer = setTimeout(() => {
      timer = null;
      void runOnce().then(() => {
        schedule(intervalMs);
      });
    }, delay);
    timer.unref();
  }

  return {
    start: () => {
      stopped = false;
      if (!timer) schedule(Math.min(FIRST_SWEEP_DELAY_MS, intervalMs));
    },
    stop: async () => {
      stopped = true;
      if (timer) clearTimeout(timer);
      timer = null;
      await running;
    },
    runOnce,
  };
}

export interface MediaPluginOptions {
  store: MediaStore;
  /** How often unused uploads are swept; 0 turns the sweep off. Default one hour. */
  sweepIntervalMs?: number;
  /** How long an unused upload is kept. Default 24 hours. */
  orphanGraceMs?: number;
}

/** Makes the media store available as app.mediaStore and sweeps unused uploads while the app runs. */
export const mediaPlugin = fp(
  async (app: FastifyInstance, options: MediaPluginOptions) => {
    app.decorate('mediaStore', options.store);
    const intervalMs = options.sweepIntervalMs ?? DEFAULT_SWEEP_INTERVAL_MS;
    if (intervalMs <= 0) return;
    const sweeper = createMediaSweeper({
      db: app.db,
      store: options.store,
      log: app.log,
      intervalMs,
      olderThanMs: options.orphanGraceMs,
    });
    app.addHook('onReady', async () => {
      sweeper.start();
    });
    // Before onClose, where the database is closed.
    app.addHook('preClose', async () => {
      await sweeper.stop();
    });
  },
  { name: 'perch-media' },
);
