import type { Db } from './users.deps';
import * as repo from './users.repository';

const MEMBER_COUNT_MAX_AGE_MS = 60_000;
/** Below this share of members unfollowed, explore is read author by author. */
const FEW_UNFOLLOWED_SHARE = 0.25;

/**
 * Whether a member follows nearly every other member, so that few authors are left for explore:
 * reading newest posts until a page of theirs turns up would then read most posts. Members are
 * counted at most once a minute.
 */
export function createFollowsNearlyEveryone(reads: Db) {
  let memberCount: { value: number; at: number } | null = null;
  async function membersNow(): Promise<number> {
    if (memberCount === null || Date.now() - memberCount.at > MEMBER_COUNT_MAX_AGE_MS) {
      memberCount = { value: await repo.countMembers(reads), at: Date.now() };
    }
    return memberCount.value;
  }

  return async (viewerId: string): Promise<boolean> => {
    const [row] = await repo.followingCountOf(reads, viewerId);
    const members = await membersNow();
    const unfollowed = members - 1 - (row?.following_count ?? 0);
    return unfollowed < members * FEW_UNFOLLOWED_SHARE;
  };
}
