import type { FastifyBaseLogger } from 'fastify';
import type { Db } from './timelines.deps';
import * as repo from './timelines.repository';

const BUILD_QUEUE_MAX = 1_000;
/**
 * A timeline starts with this many of the newest posts of Home (fewer to read and write than the
 * full length, on the read that asked for it) and grows to its length as posts arrive.
 */
const FIRST_LENGTH = 200;

/** Keeps the newest `length` entries; the floor rises to the oldest one kept. */
export async function trimTimeline(trx: Db, userId: string, length: number): Promise<void> {
  const oldestKept = await repo.entryAtRank(trx, userId, length);
  if (oldestKept === undefined) return;
  if ((await repo.deleteEntriesBelow(trx, userId, oldestKept)) > 0) {
    await repo.raiseFloor(trx, userId, oldestKept);
  }
}

export interface TimelineBuilderDeps {
  db: Db;
  log: Pick<FastifyBaseLogger, 'error'>;
  /** Entries kept per member. */
  length: number;
}

/**
 * Builds members' timelines on their first read of Home, in the background, one at a time (each
 * is a write transaction) and once however many reads ask; past BUILD_QUEUE_MAX waiting, a read
 * just asks again next time.
 */
export function createTimelineBuilder({ db, log, length }: TimelineBuilderDeps) {
  const firstLength = Math.min(length, FIRST_LENGTH);
  const trim = (trx: Db, userId: string) => trimTimeline(trx, userId, length);

  async function build(userId: string): Promise<void> {
    const created = await db.transaction().execute(async (trx) => {
      if (!(await repo.createTimeline(trx, userId, Date.now()))) return false;
      if ((await repo.fillFromFollows(trx, userId, firstLength)) === firstLength) {
        const oldest = await repo.entryAtRank(trx, userId, firstLength);
        if (oldest !== undefined) await repo.raiseFloor(trx, userId, oldest);
      }
      await repo.fillReposts(trx, userId, firstLength, '');
      return true;
    });
    if (!created) return;
    // Posts and unfollows committed while it was built reached no timeline of this member (the
    // consumer did not see it yet): they are applied once more, now that it is visible.
    await db.transaction().execute(async (trx) => {
      const newest = (await repo.newestEntry(trx, userId)) ?? '';
      await repo.fillFromFollows(trx, userId, length, newest);
      await repo.fillReposts(trx, userId, length, newest);
      await repo.removeUnfollowed(trx, userId);
      await trim(trx, userId);
    });
  }

  const queue = new Set<string>();
  let worker: Promise<void> | null = null;
  async function work(): Promise<void> {
    for (const userId of queue) {
      const started = performance.now();
      try {
        await build(userId);
      } catch (error) {
        log.error({ err: error, userId }, 'could not build a home timeline');
      }
      queue.delete(userId);
      // A build holds the database (and, on SQLite, this process) for milliseconds: as long a
      // pause after each keeps requests flowing when many members come back at once.
      await new Promise((resolve) => setTimeout(resolve, performance.now() - started));
    }
  }

  function buildSoon(userId: string): void {
    if (queue.size >= BUILD_QUEUE_MAX) return;
    queue.add(userId);
    worker ??= work().finally(() => {
      worker = null;
    });
  }

  return {
    buildSoon,
    /** Waits for timelines being built (tests, shutdown). */
    idle: async (): Promise<void> => {
      await worker;
    },
  };
}
