import type { DomainEventPayloads, PublishedEvent } from '@perch/contract';
import type { DurableConsumer } from '../../platform/events/consumer';
import { trimTimeline } from './build';
import type { OnDemandAuthors } from './on-demand-authors';
import type { Db } from './timelines.deps';
import * as repo from './timelines.repository';

type CreatedPost = DomainEventPayloads['post.created'];
type RepostedPayload = DomainEventPayloads['post.reposted'];

/**
 * A batch that deletes entries (a follow trims, an unfollow removes) first holds the posts it
 * may point entries at, as every writer takes a post before the rows pointing at it. A batch of
 * new posts alone deletes nothing: their foreign keys' checks hold the posts in their statements.
 */
async function holdPostsFirst(
  trx: Db,
  events: readonly PublishedEvent[],
  length: number,
): Promise<void> {
  const deletes = events.some(
    (event) =>
      event.type === 'member.followed' ||
      event.type === 'member.unfollowed' ||
      event.type === 'post.unreposted',
  );
  if (!deletes) return;
  const postIds: string[] = [];
  const followees = new Set<string>();
  for (const event of events) {
    if (
      event.type === 'post.created' ||
      event.type === 'post.reposted' ||
      event.type === 'post.unreposted'
    ) {
      postIds.push(event.payload.postId);
    }
    if (event.type === 'member.followed') followees.add(event.payload.followeeId);
  }
  await repo.holdPostsToPointAt(trx, postIds, [...followees], length);
}

/**
 * The `timelines` consumer: new posts and reposts join their followers' timelines after commit
 * (fan-out on write), follows, unfollows and undone reposts change them again in order with them.
 */
export function createTimelineWrites({
  length,
  onDemand,
}: {
  length: number;
  onDemand: OnDemandAuthors;
}) {
  const consumer: DurableConsumer = {
    name: 'timelines',
    types: new Set([
      'post.created',
      'post.reposted',
      'post.unreposted',
      'member.followed',
      'member.unfollowed',
      'member.deleted',
    ]),
    async handle(trx, events) {
      await holdPostsFirst(trx, events, length);
      // Runs of new posts fan out together; follows and unfollows apply in between, in order.
      let created: CreatedPost[] = [];
      let timelines: number | null = null;
      const timelinesKept = async () => (timelines ??= await repo.countTimelines(trx));
      for (const event of events) {
        if (event.type === 'post.created') {
          created.push(event.payload);
          continue;
        }
        await fanOut(trx, created, timelinesKept);
        created = [];
        await applyInOrder(trx, event);
      }
      await fanOut(trx, created, timelinesKept);
    },
  };

  /**
   * New posts join their followers' timelines, but for those of onDemand authors. `timelinesKept`
   * counts the members who keep a timeline, once per batch.
   */
  async function fanOut(
    trx: Db,
    created: readonly CreatedPost[],
    timelinesKept: () => Promise<number>,
  ): Promise<void> {
    if (created.length === 0) return;
    const counts = await repo.followersCountsOf(trx, [
      ...new Set(created.map((post) => post.authorId)),
    ]);
    const posts = created.map(({ postId, authorId }) => ({
      postId,
      authorId,
      followersCount: counts.get(authorId) ?? 0,
    }));
    const left = await onDemand.onDemandAmong(trx, posts);
    const pushed = posts.filter((post) => !left.has(post.postId));
    if (pushed.length === 0) return;
    const timelines = await timelinesKept();
    const byFollowers: string[] = [];
    for (const post of pushed) {
      if (post.followersCount <= timelines) byFollowers.push(post.postId);
      else await repo.fanOutPostViaTimelines(trx, { id: post.postId, authorId: post.authorId });
    }
    await repo.fanOutPosts(trx, byFollowers);
  }

  /** An event other than a new post, applied in its place among them. */
  async function applyInOrder(trx: Db, event: PublishedEvent): Promise<void> {
    if (event.type === 'member.followed') {
      await followed(trx, event.payload.followerId, event.payload.followeeId);
    } else if (event.type === 'member.unfollowed') {
      await repo.removeAuthor(trx, event.payload.followerId, event.payload.followeeId);
    } else if (event.type === 'post.reposted') {
      await reposted(trx, event.payload);
    } else if (event.type === 'post.unreposted') {
      await repo.withdrawRepost(trx, event.payload.postId, event.payload.userId);
    } else if (event.type === 'member.deleted') {
      await repo.withdrawRepostsOf(trx, event.payload.userId);
    }
  }

  /**
   * A repost joins the Home of the reposter's followers, but a widely followed reposter's, which
   * Home reads on demand as it reads their posts (the reposter's own timeline has it at once).
   */
  async function reposted(trx: Db, payload: RepostedPayload): Promise<void> {
    const { repostId, postId, userId } = payload;
    const counts = await repo.followersCountsOf(trx, [userId]);
    const followersCount = counts.get(userId);
    if (followersCount === undefined) return;
    const entry = { repostId, postId, reposterId: userId };
    const left = await onDemand.onDemandAmong(trx, [
      { postId: repostId, authorId: userId, followersCount },
    ]);
    if (left.has(repostId)) await repo.addRepostToOwnTimeline(trx, entry);
    else await repo.fanOutRepost(trx, entry);
  }

  /** The followee's posts join the member's timeline (none when they keep no timeline). */
  async function followed(trx: Db, followerId: string, followeeId: string): Promise<void> {
    onDemand.forgetFollows(followerId);
    await repo.backfillAuthor(trx, followerId, followeeId, length);
    await repo.fillReposts(trx, followerId, length, '', followeeId);
    // More of the followee's posts above the floor than fit: the timeline reaches only as far down
    // as the oldest of them that fitted.
    const oldestFitted = await repo.authorPostAtRank(trx, followeeId, length);
    if (oldestFitted !== undefined) {
      await repo.raiseFloor(trx, followerId, oldestFitted);
      await repo.deleteEntriesBelow(trx, followerId, oldestFitted);
    }
    await trimTimeline(trx, followerId, length);
  }

  return { consumer, followed };
}
