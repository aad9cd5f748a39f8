import type { PostSort } from '@perch/contract';
import type { FastifyBaseLogger } from 'fastify';
import { LRUCache } from 'lru-cache';
import { positionOf, type HomeKey, type OnDemandAuthors } from './on-demand-authors';
import type { Db } from './timelines.deps';
import * as repo from './timelines.repository';
import { rankTrending, trendingAfter, type Ranked } from './trending';

const TOUCH_EVERY_MS = 6 * 60 * 60 * 1000;

/**
 * A page's posts as the timeline gives them: ids (with the repost that brought a post, see
 * HomeKey), and what trending ranked them by.
 */
export interface TimelineKey extends HomeKey {
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

export interface HomeReadsDeps {
  db: Db;
  reads: Db;
  log: Pick<FastifyBaseLogger, 'error'>;
  length: number;
  rankingTtlMs: number;
  onDemand: OnDemandAuthors;
  /** Starts building the member's timeline (they keep none yet). */
  buildSoon: (userId: string) => void;
}

/** A timeline entry as a page's key. */
function keyOf(row: repo.EntryRow): HomeKey {
  return row.reposted_by === null
    ? { id: row.id }
    : { id: row.id, entryId: row.entry_id, repostedBy: row.reposted_by };
}

/** The page of a member's trending order after `after`, less the posts of `hidden` authors. */
function pageOfRanking(
  ranked: readonly Ranked[],
  after: readonly [number, number, string] | null,
  limit: number,
  hidden: readonly string[],
): TimelinePage {
  const shown = new Set(hidden);
  const following = trendingAfter(ranked, after);
  const slice = (
    shown.size === 0 ? following : following.filter((entry) => !shown.has(entry.authorId))
  ).slice(0, limit + 1);
  const keys = slice.map(({ id, likeCount, createdAt }) => ({ id, likeCount, createdAt }));
  return { keys, floor: '' };
}

/** Pages of members' Home read from their timelines, latest or trending. */
export function createHomeReads({
  db,
  reads,
  log,
  length,
  rankingTtlMs,
  onDemand,
  buildSoon,
}: HomeReadsDeps) {
  const touched = new LRUCache<string, number>({ max: 20_000 });
  // A member's ranking (up to `length` posts) is dropped when it expires, not when the cache is next
  // full: 200 members' rankings kept 20 MB for the rest of a benchmark after reading trending.
  const rankings = new LRUCache<string, Ranked[]>({
    max: 500,
    ttl: rankingTtlMs,
    ttlAutopurge: true,
  });

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
    const authors = await onDemand.followedBy(userId, hidden);
    const merge = (keys: readonly HomeKey[], fromId: string) =>
      onDemand.mergeLatest(keys, authors, fromId, before, beforeTime, limit + 1);
    const keys = (await repo.pageOfTimeline(reads, userId, before, limit + 1, hidden)).map(keyOf);
    const past = keys[limit];
    if (past) {
      touch(userId);
      return { keys: await merge(keys, positionOf(past)), floor: null };
    }
    const state = await stateOf(userId);
    if (!state) return null;
    // The timeline may have been built between the two reads (its entries and its state commit
    // together): read the page again, now that the state says how far the entries reach.
    const again = (await repo.pageOfTimeline(reads, userId, before, limit + 1, hidden)).map(keyOf);
    return { keys: await merge(again, state.floor), floor: state.floor };
  }

  async function ranking(userId: string): Promise<Ranked[] | null> {
    const cached = rankings.get(userId);
    if (cached) return cached;
    const state = await stateOf(userId);
    if (!state) return null;
    const entries = await repo.rankedEntries(reads, userId);
    // On-demand authors' posts join those the timeline reaches: down to its oldest entry once full.
    let from = state.floor;
    if (entries.length >= length)
      for (const { id } of entries) if (from === '' || id < from) from = id;
    const authors = await onDemand.followedBy(userId, []);
    const ranked = rankTrending(await onDemand.withRanked(entries, authors, from));
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
    return ranked ? pageOfRanking(ranked, after, limit, hidden) : null;
  }

  return {
    /**
     * A page of the member's Home from their timeline, or null when they keep none yet (the
     * caller answers from follows; the timeline is being built). Posts of `hidden` authors
     * (blocked either way or muted, see modules/safety) are left out.
     */
    page: async (
      userId: string,
      sort: PostSort,
      after: readonly [number, string] | readonly [number, number, string] | null,
      limit: number,
      hidden: readonly string[] = [],
    ): Promise<TimelinePage | null> => {
      if (sort === 'trending') {
        return trending(userId, after?.length === 3 ? after : null, limit, hidden);
      }
      if (sort !== 'latest') return null;
      return latest(userId, after?.length === 2 ? after : null, limit, hidden);
    },

    /** The member's trending order is ranked again on their next read. */
    forgetRanking: (userId: string): void => {
      rankings.delete(userId);
    },
    /** The member left: every order may hold their posts (dropped rather than searched). */
    forgetMember: (userId: string): void => {
      touched.delete(userId);
      rankings.clear();
    },
  };
}

export type HomeReads = ReturnType<typeof createHomeReads>;
