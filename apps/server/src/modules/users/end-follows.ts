import type { EventRecorder } from '../../platform/events/transactions';
import type { Db, UsersDeps } from './users.deps';
import * as repo from './users.repository';

/** Ends a follow (its row, both counters, the follower's timeline) and records it. */
async function endFollow(
  { timelines }: Pick<UsersDeps, 'timelines'>,
  trx: Db,
  events: EventRecorder,
  followerId: string,
  followeeId: string,
): Promise<boolean> {
  if (!(await repo.deleteFollow(trx, followerId, followeeId))) return false;
  await repo.adjustFollowCount(trx, followerId, 'following_count', -1);
  await repo.adjustFollowCount(trx, followeeId, 'followers_count', -1);
  await timelines?.unfollowed(trx, followerId, followeeId);
  const [follower, followee] = await Promise.all([
    repo.findUserById(trx, followerId),
    repo.findUserById(trx, followeeId),
  ]);
  events.record({
    type: 'member.unfollowed',
    payload: {
      followerId,
      followeeId,
      followersCount: followee?.followers_count ?? 0,
      followingCount: follower?.following_count ?? 0,
    },
  });
  return true;
}

/**
 * In a block's transaction (the pair locked): ends the follows between the two, both ways, each
 * as an unfollow would.
 */
export async function endFollowsBetween(
  deps: Pick<UsersDeps, 'timelines'>,
  trx: Db,
  events: EventRecorder,
  a: string,
  b: string,
): Promise<void> {
  await endFollow(deps, trx, events, a, b);
  await endFollow(deps, trx, events, b, a);
}
