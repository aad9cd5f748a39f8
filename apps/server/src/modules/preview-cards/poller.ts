import type { FastifyBaseLogger } from 'fastify';

/**
 * Runs `round` every `pollMs` and again at once while it found work (it answers how much), one run
 * at a time in this process. A round that throws is logged; the next tick tries again.
 */
export function createPoller(
  round: () => Promise<number>,
  pollMs: number,
  log: Pick<FastifyBaseLogger, 'error'>,
) {
  let running: Promise<void> | null = null;
  let timer: NodeJS.Timeout | null = null;
  let started = false;

  async function rounds(): Promise<void> {
    try {
      while ((await round()) > 0);
    } catch (error) {
      log.error({ err: error }, 'a background worker failed; will retry');
    }
  }

  /** Runs rounds until there is no work, after the run under way ends. */
  async function drain(): Promise<void> {
    while (running) await running;
    running = rounds().finally(() => {
      running = null;
    });
    await running;
  }

  function schedule(): void {
    timer = setTimeout(() => {
      void drain().finally(() => {
        if (started) schedule();
      });
    }, pollMs);
    timer.unref();
  }

  return {
    drain,
    start(): void {
      if (started) return;
      started = true;
      schedule();
    },
    /** Stops the timer and waits for the run under way. */
    async stop(): Promise<void> {
      started = false;
      if (timer) clearTimeout(timer);
      await running;
    },
  };
}
