import type { Kysely } from 'kysely';
import { LRUCache } from 'lru-cache';
import type { Database } from '../../platform/db/schema';
import { keptUntilChanged } from '../../lib/kept-until-changed';
import type { FoundMember } from '../../modules/users/member-search.repository';
import { newestMemberRowid } from '../../modules/users/users.repository';

type Db = Kysely<Database>;

export interface SearchPageCacheDeps {
  /** Where the newest member is read (SQLite's read-only connection). */
  reads: Db;
  /** Pages cached. */
  max: number;
}

interface CachedPage {
  /** The newest member's rowid when the page was read. */
  newest: number | null;
  found: FoundMember[];
}

/**
 * SQLite: the first pages of member search (the members found: ids and usernames), by the text
 * and how it was looked up. Searching as one types asks the same few letters again and again, and
 * on a large instance a page's ids lie on pages of the pairs and triples that the connection's
 * cache does not hold. What a page holds changes when a member registers (their rowid is then
 * the newest, which every read compares, so registrations in any process count at once), edits
 * their names ('profile.edited') or leaves ('member.deleted'): the invalidation table then drops
 * every page.
 * Pages that leave members out (the reader's blocks) and later pages are read as they are.
 */
export function createSearchPageCache({ reads, max }: SearchPageCacheDeps) {
  const pages = keptUntilChanged(new LRUCache<string, CachedPage>({ max }));

  return {
    /** The page cached under `key`, or read by `read` and cached. */
    async firstPage(key: string, read: () => Promise<FoundMember[]>): Promise<FoundMember[]> {
      const mark = pages.mark();
      const [row] = await newestMemberRowid(reads);
      const newest = row?.rowid ?? null;
      const cached = pages.get(key);
      if (cached?.newest === newest) return cached.found;
      const found = await read();
      pages.keep(mark, key, { newest, found });
      return found;
    },
    forgetAll: (): void => {
      pages.forgetAll();
    },
  };
}

export type SearchPageCache = ReturnType<typeof createSearchPageCache>;
