import {
  SEARCH_TOP_MAX,
  TRENDING_TAGS_MAX,
  type PageQuery,
  type PostSearchPage,
  type PostSearchQuery,
  type TagList,
  type TagPage,
  type TrendingTags,
} from '@perch/contract';
import type { Kysely } from 'kysely';
import type { Viewer } from '../../lib/viewer';
import { isPostgres, rowidsOf } from '../../platform/db/dialect';
import type { Database } from '../../platform/db/schema';
import { decodeCursor, encodeCursor, pageOf } from '../../lib/cursor';
import { badRequest } from '../../lib/errors';
import type { PostsService } from '../posts/posts.service';
import type { HiddenMembers } from '../safety/hidden-members';
import * as repo from './discovery.repository';
import { createSearchFirstPages } from './search-first-pages';
import { rankTrends, TRENDING_WINDOW_MS } from './trending';

type Db = Kysely<Database>;

/** Pages of merging per run of the tidy job: a few MB of writes, well under a second. */
const SEARCH_MERGE_PAGES = 500;
/** Searches whose first page is kept (about 2 kB each). */
const SEARCH_FIRST_PAGES_KEPT = 2000;

export interface DiscoveryServiceDeps {
  db: Db;
  /** Where searches and tag pages are read (a read-only connection on SQLite). */
  reads: Db;
  posts: Pick<PostsService, 'byIds' | 'rewrites'>;
  /** Trending tags are counted again after this long (0: on every request). */
  trendingCacheMs: number;
  /** Posts of members the viewer does not see (blocked either way, muted) are left out. */
  hidden: Pick<HiddenMembers, 'hiddenFor'>;
}

/** Post search, tag pages, tag search and trending tags. */
/** The tags most used in the trending window, each with its posts and the members who used it. */
async function countTrending(reads: DiscoveryServiceDeps['reads'], now: number) {
  const trends = rankTrends(
    await repo.recentTagUses(reads, now - TRENDING_WINDOW_MS),
    now,
    TRENDING_TAGS_MAX,
  );
  const rows = await repo.tagPostCounts(
    reads,
    trends.map((trend) => trend.tag),
  );
  const counts = new Map(rows.map((row) => [row.name, row.post_count]));
  return trends.map((trend) => ({
    tag: trend.tag,
    postCount: counts.get(trend.tag) ?? 0,
    memberCount: trend.memberCount,
  }));
}

export function createDiscoveryService({
  db,
  reads,
  posts,
  trendingCacheMs,
  hidden,
}: DiscoveryServiceDeps) {
  const postgres = isPostgres(reads);
  let trending: { at: number; tags: TrendingTags['tags'] } | null = null;
  const firstPages = postgres
    ? null
    : createSearchFirstPages({ reads, max: SEARCH_FIRST_PAGES_KEPT, rewrites: posts.rewrites });

  async function searchLatest(viewer: Viewer | null, query: PostSearchQuery) {
    const after = query.cursor
      ? postgres
        ? decodeCursor(query.cursor, ['number', 'string'] as const)
        : decodeCursor(query.cursor, ['number'] as const)
      : null;
    const hiddenMembers = await hidden.hiddenFor(viewer?.id ?? null);
    // Kept pages are everyone's: a viewer who hides members has the search made for them.
    const found =
      firstPages && !after && hiddenMembers.length === 0
        ? await firstPages.read(query.q.terms, query.limit)
        : await repo.searchLatest(reads, {
            terms: query.q.terms,
            after,
            limit: query.limit,
            hidden: hiddenMembers,
          });
    const { items, nextCursor } = pageOf(found, query.limit, (last) =>
      postgres ? [last.seq, last.id] : [last.seq],
    );
    return {
      posts: await posts.byIds(
        items.map((item) => item.id),
        viewer,
        rowidsOf(items),
      ),
      nextCursor,
    };
  }

  /** Relevance has no keyset: the cursor is how many were shown, up to SEARCH_TOP_MAX. */
  async function searchTop(viewer: Viewer | null, query: PostSearchQuery) {
    const [offset] = query.cursor ? decodeCursor(query.cursor, ['count'] as const) : [0];
    if (offset < 0 || offset > SEARCH_TOP_MAX) throw badRequest('cursor is invalid.');
    const limit = Math.max(0, Math.min(query.limit, SEARCH_TOP_MAX - offset));
    const ids =
      limit === 0
        ? []
        : await repo.searchTop(reads, {
            terms: query.q.terms,
            offset,
            limit,
            hidden: await hidden.hiddenFor(viewer?.id ?? null),
          });
    const more = ids.length > limit && offset + limit < SEARCH_TOP_MAX;
    return {
      posts: await posts.byIds(ids.slice(0, limit), viewer),
      nextCursor: more ? encodeCursor([offset + limit]) : null,
    };
  }

  return {
    /** A scheduled job: keeps the search index in few segments (see mergeSearchSegments). */
    tidySearchIndex: () => repo.mergeSearchSegments(db, SEARCH_MERGE_PAGES),

    searchPosts(viewer: Viewer | null, query: PostSearchQuery): Promise<PostSearchPage> {
      return query.sort === 'top' ? searchTop(viewer, query) : searchLatest(viewer, query);
    },

    async tagPage(viewer: Viewer | null, tag: string, query: PageQuery): Promise<TagPage> {
      const [after] = query.cursor ? decodeCursor(query.cursor, ['string'] as const) : [null];
      const [ids, counts] = await Promise.all([
        repo.tagPostIds(reads, {
          tag,
          after,
          limit: query.limit,
          hidden: await hidden.hiddenFor(viewer?.id ?? null),
        }),
        repo.tagPostCounts(reads, [tag]),
      ]);
      const { items, nextCursor } = pageOf(ids, query.limit, (last) => [last]);
      return {
        tag: { tag, postCount: counts[0]?.post_count ?? 0 },
        posts: await posts.byIds(items, viewer),
        nextCursor,
      };
    },

    async searchTags(prefix: string, limit: number): Promise<TagList> {
      const rows = await repo.tagsStartingWith(reads, prefix, limit);
      return { tags: rows.map((row) => ({ tag: row.name, postCount: row.post_count })) };
    },

    async trending(limit: number): Promise<TrendingTags> {
      const now = Date.now();
      if (!trending || now - trending.at >= trendingCacheMs) {
        const tags = await countTrending(reads, now);
        trending = { at: now, tags };
      }
      return { tags: trending.tags.slice(0, limit) };
    },
  };
}

export type DiscoveryService = ReturnType<typeof createDiscoveryService>;
