/**
 * Work that runs at most `limit` at a time; the rest waits, first come first served. A finished
 * turn is handed straight to the next in line, so that a newcomer cannot slip past the queue.
 */
export function createTurns(limit: number) {
  let running = 0;
  let most = 0;
  let taken = 0;
  const waiting: (() => void)[] = [];

  const release = () => {
    const next = waiting.shift();
    if (next) next();
    else running -= 1;
  };

  return {
    async take<T>(work: () => Promise<T>): Promise<T> {
      if (running < limit) running += 1;
      else await new Promise<void>((resolve) => waiting.push(resolve));
      most = Math.max(most, running);
      taken += 1;
      try {
        return await work();
      } finally {
        release();
      }
    },
    /** How many run now and wait, the most that ever ran at once, and how many turns were taken. */
    stats: () => ({ running, waiting: waiting.length, most, taken }),
  };
}

export type Turns = ReturnType<typeof createTurns>;
