import type { SearchTerm } from '@perch/contract';
import type { Kysely } from 'kysely';
import { LRUCache } from 'lru-cache';
import type { Database } from '../../platform/db/schema';
import * as repo from './discovery.repository';

type Db = Kysely<Database>;

export interface SearchFirstPagesDeps {
  /** Where searches are read (SQLite's read-only connection). */
  reads: Db;
  /** Searches kept. */
  max: number;
  /** Changes to posts' text so far (PostViewCache.rewrites): a page kept before the last is stale. */
  rewrites: () => number;
}

interface KeptPage {
  /** The rowid of the newest post when the page was found: it holds every match up to it. */
  upTo: number;
  /** `rewrites()` when it was found. */
  rewrites: number;
  found: repo.FoundPost[];
}

/**
 * The first pages of searches, newest first, kept (SQLite only). Posts are numbered as they are
 * written, so a page kept up to post `upTo` is brought up to date by searching only the posts
 * after it (nothing at all when none was written since), and is dropped when any post's text
 * changed or a post went, which may add a match the kept page lacks or remove one it holds.
 * PostgreSQL orders search by time, which transactions may commit out of order: it searches anew.
 */
export function createSearchFirstPages({ reads, max, rewrites }: SearchFirstPagesDeps) {
  const pages = new LRUCache<string, KeptPage>({ max });
  return {
    /** The first `limit` matches and one more (which tells a next page exists), newest first. */
    async read(terms: readonly SearchTerm[], limit: number): Promise<repo.FoundPost[]> {
      const key = `${limit} ${repo.ftsQueryOf(terms)}`;
      const changes = rewrites();
      const upTo = await repo.newestPostRow(reads);
      const page = pages.get(key);
      // A newest post older than the page's means it was deleted: its event will drop the page.
      const kept = page?.rewrites === changes && page.upTo <= upTo ? page : undefined;
      if (kept?.upTo === upTo) return kept.found;
      const newer = await repo.searchLatestBetween(reads, {
        terms,
        above: kept?.upTo ?? 0,
        upTo,
        limit: limit + 1,
      });
      const found = kept ? [...newer, ...kept.found].slice(0, limit + 1) : newer;
      pages.set(key, { upTo, rewrites: changes, found });
      return found;
    },
  };
}

export type SearchFirstPages = ReturnType<typeof createSearchFirstPages>;
