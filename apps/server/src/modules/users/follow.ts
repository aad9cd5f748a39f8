import {
  ErrorMessages,
  FOLLOWING_LIMIT_REACHED,
  FOLLOWING_MAX,
  type FollowResponse,
} from '@perch/contract';
import type { Viewer } from '../../lib/viewer';
import { badRequest, notFound } from '../../lib/errors';
import type { Db, UsersDeps } from './users.deps';
import { listedById } from './listed';
import * as repo from './users.repository';

/**
 * Locks both members' rows, in id order (as every change between two members takes them: a
 * follow and a block racing queue up instead of deadlocking or crossing); false when either
 * is gone.
 */
export async function lockPair(trx: Db, a: string, b: string): Promise<boolean> {
  for (const id of [a, b].sort()) {
    if (!(await repo.lockUser(trx, id))) return false;
  }
  return true;
}

/** Both counters of a follow moved by `delta`, a follow refused past FOLLOWING_MAX. */
async function countFollow(trx: Db, followerId: string, followeeId: string, follow: boolean) {
  // Rows are always updated in id order so two members following each other cannot deadlock.
  const updates = [
    { id: followerId, column: 'following_count' as const },
    { id: followeeId, column: 'followers_count' as const },
  ].sort((a, b) => (a.id < b.id ? -1 : 1));
  for (const { id, column } of updates) {
    if (follow && column === 'following_count') {
      const within = await repo.incrementFollowingWithin(trx, id, FOLLOWING_MAX);
      if (!within) throw badRequest(FOLLOWING_LIMIT_REACHED);
    } else {
      await repo.adjustFollowCount(trx, id, column, follow ? 1 : -1);
    }
  }
}

/** Follow and unfollow share everything but the direction of the change. */
async function changeFollow(
  deps: UsersDeps,
  viewer: Viewer,
  userId: string,
  follow: boolean,
): Promise<FollowResponse> {
  const { transact, hidden, timelines } = deps;
  if (userId === viewer.id) throw notFound(ErrorMessages.followSelf);
  return transact(async (trx, events) => {
    // Checked with both rows held: a block committing meanwhile is seen, or waits for this.
    if (
      !(await lockPair(trx, viewer.id, userId)) ||
      (await hidden.isBlockedEitherWay(trx, viewer.id, userId))
    ) {
      throw notFound(ErrorMessages.userNotFound);
    }
    const changed = follow
      ? await repo.insertFollow(trx, viewer.id, userId, Date.now())
      : await repo.deleteFollow(trx, viewer.id, userId);
    if (!changed) {
      throw badRequest(follow ? ErrorMessages.alreadyFollowing : ErrorMessages.notFollowing);
    }
    await countFollow(trx, viewer.id, userId, follow);
    if (follow) await timelines?.followed(trx, viewer.id, userId);
    else await timelines?.unfollowed(trx, viewer.id, userId);
    const user = await listedById(trx, viewer.id, viewer);
    const followUser = await listedById(trx, userId, viewer);
    events.record({
      type: follow ? 'member.followed' : 'member.unfollowed',
      payload: {
        followerId: viewer.id,
        followeeId: userId,
        followersCount: followUser.followersCount,
        followingCount: user.followingCount,
      },
    });
    return { user, followUser };
  });
}

export const follow = (deps: UsersDeps, viewer: Viewer, userId: string) =>
  changeFollow(deps, viewer, userId, true);

export const unfollow = (deps: UsersDeps, viewer: Viewer, userId: string) =>
  changeFollow(deps, viewer, userId, false);
