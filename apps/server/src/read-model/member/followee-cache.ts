import type { Kysely } from 'kysely';
import type { Database } from '../../platform/db/schema';
import { keptPerMember } from '../../lib/kept-until-changed';
import { followeesAmong, listFollowingIds } from '../../modules/users/users.repository';

type Db = Kysely<Database>;

export interface FolloweeCacheDeps {
  reads: Db;
  /** Member ids cached over all members (each member's followees count). */
  maxIds: number;
  /** A member following more than this is asked the database page by page. */
  maxPerMember: number;
}

const NONE: ReadonlySet<string> = new Set();

/**
 * Whom each recent viewer follows, cached in memory: a page of members then says which of them the
 * viewer follows without a query (in member search a lookup per member was a third of the
 * query). A member's followees are read once (one index range) and dropped when they follow,
 * unfollow or leave (the invalidation table).
 */
export function createFolloweeCache({ reads, maxIds, maxPerMember }: FolloweeCacheDeps) {
  const followees = keptPerMember<ReadonlySet<string>>({
    maxRecords: maxIds,
    maxPerMember,
    sizeOf: (ids) => ids.size,
    read: async (userId, limit) => {
      const ids = await listFollowingIds(reads, { followerId: userId, limit });
      return { value: new Set(ids), count: ids.length };
    },
  });
  const { forget } = followees;

  return {
    /** Of `ids`, those whom `userId` follows (a set that may hold others too). */
    async among(userId: string, ids: readonly string[]): Promise<ReadonlySet<string>> {
      if (ids.length === 0) return NONE;
      const cached = await followees.of(userId);
      return cached ?? new Set(await followeesAmong(reads, userId, ids));
    },
    /** Drops whom the member follows (after they followed or unfollowed). */
    forget,
  };
}

export type FolloweeCache = ReturnType<typeof createFolloweeCache>;
