import type { PublishedEvent } from '@perch/contract';
import type { Kysely } from 'kysely';
import { LRUCache } from 'lru-cache';
import type { Database } from '../../platform/db/schema';
import { keptUntilChanged } from '../../lib/kept-until-changed';
import type { FoundMember } from './member-search.repository';
import { newestMemberRowid } from './users.repository';

type Db = Kysely<Database>;

export interface MemberSearchPagesDeps {
  /** Where the newest member is read (SQLite's read-only connection). */
  reads: Db;
  /** Pages kept. */
  max: number;
}

interface KeptPage {
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
 * their names ('profile.edited') or leaves ('member.deleted'): those drop every page, in each
 * process when the relay hands it the event and in the process that made the change at once.
 * Pages that leave members out (the reader's blocks) and later pages are read as they are.
 */
export function createMemberSearchPages({ reads, max }: MemberSearchPagesDeps) {
  const pages = keptUntilChanged(new LRUCache<string, KeptPage>({ max }));

  return {
    /** The page kept under `key`, or read by `read` and kept. */
    async firstPage(key: string, read: () => Promise<FoundMember[]>): Promise<FoundMember[]> {
      const mark = pages.mark();
      const [row] = await newestMemberRowid(reads);
      const newest = row?.rowid ?? null;
      const kept = pages.get(key);
      if (kept?.newest === newest) return kept.found;
      const found = await read();
      pages.keep(mark, key, { newest, found });
      return found;
    },
    forgetAll: (): void => {
      pages.forgetAll();
    },
    /** For relay.listen: drops every page when a member's names changed or they left. */
    listener: (events: readonly PublishedEvent[]): void => {
      if (events.some((e) => e.type === 'profile.edited' || e.type === 'member.deleted')) {
        pages.forgetAll();
      }
    },
  };
}

export type MemberSearchPages = ReturnType<typeof createMemberSearchPages>;
