import type { DomainEventPayloads, PostSort, PublishedEvent } from '@perch/contract';
import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import { LRUCache } from 'lru-cache';
import type { Database } from '../../platform/db/schema';
import type { DurableConsumer } from '../../platform/events/consumer';
import { createPulledPosts } from './pulled-posts';
import * as repo from './timelines.repository';
import { rankTrending, trendingAfter, type Ranked } from './trending';

type Db = Kysely<Database>;

type CreatedPost = DomainEventPayloads['post.created'];

/** A page's posts as the timeline gives them: ids, and what trending ranked them by. */
export interface TimelineKey {
  id: string;
  /** Trending only: the like count the page was ordered by (its cursor must carry the same). */
  likeCount?: number;
  createdAt?: number;
}

export interface TimelinePage {
  keys: TimelineKey[];
  /**
   * For latest: the post id below which the timeline does not reach ('' when it holds all of
   * Home, null when the page is full anyway); older posts come from the query over follows.
   */
  floor: string | null;
}

export interface TimelinesServiceDeps {
  db: Db;
  /** Where hot reads go (a read-only connection on SQLite). */
  reads?: Db;
  log: Pick<FastifyBaseLogger, 'error'>;
  /** Entries kept per member: the newest posts of their Home. */
  length: number;
  /** How long a member's trending order is reused before it is ranked again. */
  rankingTtlMs?: number;
  /** Followers from which an author's posts are read into Home rather than written out. */
  pullFollowers: number;
}

const TOUCH_EVERY_MS = 6 * 60 * 60 * 1000;
const BUILD_QUEUE_MAX = 1_000;
/**
 * A timeline starts with this many of the newest posts of Home (fewer to read and write than the
 * full length, on the read that asked for it) and grows to its length as posts arrive.
 */
const FIRST_LENGTH = 200;

/**
 * Home timelines, written on post (the design of Mastodon's home feeds): each member who reads Home
 * keeps the ids of its newest posts. The author's own timeline gains a post in the post's
 * transaction, followers' timelines through the `timelines` consumer after commit; following and
 * unfollowing change the member's own timeline at once, and the consumer applies them again, so
 * that on PostgreSQL a post and a follow committed side by side still meet. Deleting a post or a
 * member removes entries through foreign keys. A timeline is built on its member's first read of
 * Home (that read is answered by the query over follows) and dropped after long disuse.
 */
export function createTimelinesService({
  db,
  reads = db,
  log,
  length,
  rankingTtlMs = 10_000,
  pullFollowers,
}: TimelinesServiceDeps) {
  const pulled = createPulledPosts({ reads, followers: pullFollowers, length });
  const touched = new LRUCache<string, number>({ max: 20_000 });
  // A member's ranking (up to `length` posts) is dropped when it expires, not when the cache is next
  // full: 200 members' rankings kept 20 MB for the rest of a benchmark after reading trending.
  const rankings = new LRUCache<string, Ranked[]>({
    max: 500,
    ttl: rankingTtlMs,
    ttlAutopurge: true,
  });
  const firstLength = Math.min(length, FIRST_LENGTH);

  /** Keeps the newest `length` entries; the floor rises to the oldest one kept. */
  async function trim(trx: Db, userId: string): Promise<void> {
    const oldestKept = await repo.entryAtRank(trx, userId, length);
    if (oldestKept === undefined) return;
    if ((await repo.deleteEntriesBelow(trx, userId, oldestKept)) > 0) {
      await repo.raiseFloor(trx, userId, oldestKept);
    }
  }

  async function build(userId: string): Promise<void> {
    const created = await db.transaction().execute(async (trx) => {
      if (!(await repo.createTimeline(trx, userId, Date.now()))) return false;
      if ((await repo.fillFromFollows(trx, userId, firstLength)) === firstLength) {
        const oldest = await repo.entryAtRank(trx, userId, firstLength);
        if (oldest !== undefined) await repo.raiseFloor(trx, userId, oldest);
      }
      return true;
    });
    if (!created) return;
    // Posts and unfollows committed while it was built reached no timeline of this member (the
    // consumer did not see it yet): they are applied once more, now that it is visible.
    await db.transaction().execute(async (trx) => {
      const newest = (await repo.newestEntry(trx, userId)) ?? '';
      await repo.fillFromFollows(trx, userId, length, newest);
      await repo.removeUnfollowed(trx, userId);
      await trim(trx, userId);
    });
  }

  /**
   * Builds members' timelines in the background, one at a time (each is a write transaction) and
   * once however many reads ask; past BUILD_QUEUE_MAX waiting, a read just asks again next time.
   */
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

  /** Notes that the member reads Home (at most once in a while per process: it is a write). */
  function touch(userId: string): void {
    const now = Date.now();
    if (now - (touched.get(userId) ?? 0) < TOUCH_EVERY_MS) return;
    touched.set(userId, now);
    repo.touchTimeline(db, userId, now).catch((error: unknown) => {
      log.error({ err: error, userId }, 'could not note a home read');
    });
  }

  /** The timeline's state, or null (and a build begins) when the member keeps none yet. */
  async function stateOf(userId: string): Promise<repo.TimelineState | null> {
    const state = await repo.findTimeline(reads, userId);
    if (!state) {
      buildSoon(userId);
      return null;
    }
    touch(userId);
    return state;
  }

  /** Home's latest order below `after` (its cursor: creation time and post id). */
  async function latest(
    userId: string,
    after: readonly [number, string] | null,
    limit: number,
    hidden: readonly string[],
  ) {
    const [beforeTime, before] = after ?? [Number.MAX_SAFE_INTEGER, repo.TOP];
    const authors = await pulled.followedBy(userId, hidden);
    const merge = (keys: readonly { id: string }[], fromId: string) =>
      pulled.mergeLatest(keys, authors, fromId, before, beforeTime, limit + 1);
    const keys = await repo.pageOfTimeline(reads, userId, before, limit + 1, hidden);
    if (keys.length > limit) {
      touch(userId);
      return { keys: await merge(keys, keys[limit]?.id ?? ''), floor: null };
    }
    const state = await stateOf(userId);
    if (!state) return null;
    // The timeline may have been built between the two reads (its entries and its state commit
    // together): read the page again, now that the state says how far the entries reach.
    const again = await repo.pageOfTimeline(reads, userId, before, limit + 1, hidden);
    return { keys: await merge(again, state.floor), floor: state.floor };
  }

  async function ranking(userId: string): Promise<Ranked[] | null> {
    const cached = rankings.get(userId);
    if (cached) return cached;
    const state = await stateOf(userId);
    if (!state) return null;
    const entries = await repo.rankedEntries(reads, userId);
    // Pulled authors' posts join those the timeline reaches: down to its oldest entry once full.
    let from = state.floor;
    if (entries.length >= length)
      for (const { id } of entries) if (from === '' || id < from) from = id;
    const authors = await pulled.followedBy(userId, []);
    const ranked = rankTrending(await pulled.withRanked(entries, authors, from));
    rankings.set(userId, ranked);
    return ranked;
  }

  /**
   * Trending on Home ranks the timeline's posts (the newest `length` of Home) by likes. The order
   * is kept for a few seconds per member, so paging does not rank them again for every page; the
   * counts shown are always current (they come from the cards).
   */
  async function trending(
    userId: string,
    after: readonly [number, number, string] | null,
    limit: number,
    hidden: readonly string[],
  ): Promise<TimelinePage | null> {
    const ranked = await ranking(userId);
    if (!ranked) return null;
    const shown = new Set(hidden);
    const following = trendingAfter(ranked, after);
    const slice = (
      shown.size === 0 ? following : following.filter((entry) => !shown.has(entry.authorId))
    ).slice(0, limit + 1);
    const keys = slice.map(({ id, likeCount, createdAt }) => ({ id, likeCount, createdAt }));
    return { keys, floor: '' };
  }

  const consumer: DurableConsumer = {
    name: 'timelines',
    types: new Set(['post.created', 'member.followed', 'member.unfollowed']),
    async handle(trx, events) {
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
        if (event.type === 'member.followed') {
          await followed(trx, event.payload.followerId, event.payload.followeeId);
        } else if (event.type === 'member.unfollowed') {
          const { followerId, followeeId } = event.payload;
          await repo.removeAuthor(trx, followerId, followeeId);
        }
      }
      await fanOut(trx, created, timelinesKept);
    },
  };

  /**
   * New posts join their followers' timelines, but for those of pulled authors. `timelinesKept`
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
    const left = await pulled.pulledAmong(trx, posts);
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

  /** The followee's posts join the member's timeline (none when they keep no timeline). */
  async function followed(trx: Db, followerId: string, followeeId: string): Promise<void> {
    pulled.forgetFollows(followerId);
    await repo.backfillAuthor(trx, followerId, followeeId, length);
    // More of the followee's posts above the floor than fit: the timeline reaches only as far down
    // as the oldest of them that fitted.
    const oldestFitted = await repo.authorPostAtRank(trx, followeeId, length);
    if (oldestFitted !== undefined) {
      await repo.raiseFloor(trx, followerId, oldestFitted);
      await repo.deleteEntriesBelow(trx, followerId, oldestFitted);
    }
    await trim(trx, followerId);
  }

  return {
    consumer,

    /**
     * A page of the member's Home from their timeline, or null when they keep none yet (the
     * caller answers from follows; the timeline is being built). Posts of `hidden` authors
     * (blocked either way or muted, see modules/safety) are left out.
     */
    async page(
      userId: string,
      sort: PostSort,
      after: readonly [number, string] | readonly [number, number, string] | null,
      limit: number,
      hidden: readonly string[] = [],
    ): Promise<TimelinePage | null> {
      if (sort === 'trending') {
        return trending(userId, after?.length === 3 ? after : null, limit, hidden);
      }
      if (sort !== 'latest') return null;
      return latest(userId, after?.length === 2 ? after : null, limit, hidden);
    },

    /** In the post's transaction: the author sees their post on Home at once. */
    posted: (trx: Db, authorId: string, postId: string) =>
      repo.addToOwnTimeline(trx, authorId, postId),
    /** In the follow's transaction. */
    followed,
    /** In the unfollow's transaction. */
    unfollowed: (trx: Db, followerId: string, followeeId: string) => {
      pulled.forgetFollows(followerId);
      return repo.removeAuthor(trx, followerId, followeeId);
    },

    /**
     * For relay.listen: a member's trending order is ranked again after their own changes (a like,
     * a follow, a post), so that they see them at once; others' likes show within rankingTtlMs.
     */
    listener: (events: readonly PublishedEvent[]): void => {
      pulled.listener(events);
      for (const event of events) {
        switch (event.type) {
          case 'post.liked':
          case 'post.unliked':
            rankings.delete(event.payload.userId);
            break;
          case 'member.followed':
          case 'member.unfollowed':
            rankings.delete(event.payload.followerId);
            break;
          case 'post.created':
            rankings.delete(event.payload.authorId);
            break;
          case 'member.deleted':
            // Their timeline went with them; others' orders may hold their posts (kept a few
            // seconds anyway: dropped rather than searched).
            touched.delete(event.payload.userId);
            rankings.clear();
            break;
          default:
            break;
        }
      }
    },

    /** Trims every timeline to its length (scheduled). */
    async trimAll(): Promise<void> {
      let after = '';
      for (;;) {
        const owners = await repo.listTimelineOwners(db, after, 200);
        for (const userId of owners) await db.transaction().execute((trx) => trim(trx, userId));
        const last = owners[owners.length - 1];
        if (last === undefined || owners.length < 200) return;
        after = last;
      }
    },

    /** Drops the timelines of members who have not read Home since `before` (scheduled). */
    dropIdle: (before: number) => repo.dropTimelinesReadBefore(db, before),

    /** Waits for timelines being built (tests, shutdown). */
    async idle(): Promise<void> {
      await worker;
    },
  };
}

export type TimelinesService = ReturnType<typeof createTimelinesService>;
