import type { PublishedEvent } from '@perch/contract';
import type { Kysely } from 'kysely';
import type { Database } from '../../platform/db/schema';
import { keptPerMember } from '../../lib/kept-until-changed';
import { followeesAmong, listFollowingIds } from './users.repository';

type Db = Kysely<Database>;

export interface KeptFolloweesDeps {
  reads: Db;
  /** Member ids kept over all members (each member's followees count). */
  maxIds: number;
  /** A member following more than this is asked the database page by page. */
  maxPerMember: number;
}

const NONE: ReadonlySet<string> = new Set();

/**
 * Whom each recent reader follows, kept in memory: a page of members then says which of them the
 * reader follows without a query (in member search a lookup per member was a third of the
 * query). A member's followees are read once (one index range) and dropped when they follow or
 * unfollow: by the process that made the change at once, by the others when the relay hands them
 * the event.
 */
export function createKeptFollowees({ reads, maxIds, maxPerMember }: KeptFolloweesDeps) {
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
      const known = await followees.of(userId);
      return known ?? new Set(await followeesAmong(reads, userId, ids));
    },
    /** Drops what is kept of whom the member follows (after they followed or unfollowed). */
    forget,
    /** For relay.listen: drops the followees of members who followed, unfollowed or left. */
    listener: (events: readonly PublishedEvent[]): void => {
      for (const event of events) {
        if (event.type === 'member.followed' || event.type === 'member.unfollowed') {
          forget(event.payload.followerId);
        } else if (event.type === 'member.deleted') {
          forget(event.payload.userId);
        }
      }
    },
  };
}

export type KeptFollowees = ReturnType<typeof createKeptFollowees>;
