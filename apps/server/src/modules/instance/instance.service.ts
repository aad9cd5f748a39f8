import type { Kysely } from 'kysely';
import type { Database } from '../../platform/db/schema';
import { readCounts, type InstanceCounts } from './instance.repository';

export type { InstanceCounts } from './instance.repository';

/** Counting every post on each request would cost a scan: the counts are read once a minute. */
const COUNTS_TTL_MS = 60_000;

export interface InstanceServiceDeps {
  /** Where the counts are read (a read-only connection on SQLite). */
  reads: Kysely<Database>;
}

/** What the instance publishes of itself (Mastodon's instance, NodeInfo): its counts. */
export function createInstanceService({ reads }: InstanceServiceDeps) {
  let kept: { at: number; counts: Promise<InstanceCounts> } | null = null;
  return {
    /** Members, active members, posts and comments, read at most once per COUNTS_TTL_MS. */
    counts(): Promise<InstanceCounts> {
      const now = Date.now();
      if (kept === null || now - kept.at > COUNTS_TTL_MS) {
        const counts = readCounts(reads, now);
        kept = { at: now, counts };
        // A failed read is not kept: the next call tries again.
        counts.catch(() => {
          if (kept?.counts === counts) kept = null;
        });
      }
      return kept.counts;
    },
  };
}

export type InstanceService = ReturnType<typeof createInstanceService>;
