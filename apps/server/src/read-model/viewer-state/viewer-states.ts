import type { Kysely } from 'kysely';
import { idListValue, sqlBoolean } from '../../platform/db/dialect';
import type { Database } from '../../platform/db/schema';
import { keptPerMember } from '../../lib/kept-until-changed';
import {
  bookmarkedPostIds,
  flagsAmong,
  likedPostIds,
  repostedPostIds,
} from '../../modules/posts/posts.repository';

type Db = Kysely<Database>;

/** What a reader did to a post: the viewer's state of one post. */
export interface ViewerState {
  liked: boolean;
  bookmarked: boolean;
  reposted: boolean;
}

interface Marks {
  liked: ReadonlySet<string>;
  bookmarked: ReadonlySet<string>;
  reposted: ReadonlySet<string>;
}

export interface ViewerStatesDeps {
  reads: Db;
  /** Post ids cached over all members (each member's likes and bookmarks count). */
  maxIds: number;
  /** A member with more likes or bookmarks than this is asked the database page by page. */
  maxPerMember: number;
}

const NONE: ViewerState = { liked: false, bookmarked: false, reposted: false };

/**
 * Which posts each recent reader liked, bookmarked and reposted, cached in memory: a page's viewer states then cost no
 * query. A member's viewer state are read once (two index ranges) and dropped when they like, unlike,
 * bookmark or unbookmark (see the read model's invalidation table). Members with very many viewer states are asked per page instead.
 */
export function createViewerStates({ reads, maxIds, maxPerMember }: ViewerStatesDeps) {
  const marks = keptPerMember<Marks>({
    maxRecords: maxIds,
    maxPerMember,
    sizeOf: (entry) => entry.liked.size + entry.bookmarked.size + entry.reposted.size,
    read: async (userId, limit) => {
      const [liked, bookmarked, reposted] = await Promise.all([
        likedPostIds(reads, userId, limit),
        bookmarkedPostIds(reads, userId, limit),
        repostedPostIds(reads, userId, limit),
      ]);
      const value = {
        liked: new Set(liked.map((row) => row.post_id)),
        bookmarked: new Set(bookmarked.map((row) => row.post_id)),
        reposted: new Set(reposted.map((row) => row.post_id)),
      };
      // Any list past the bound: the member is asked per page.
      return { value, count: Math.max(liked.length, bookmarked.length, reposted.length) };
    },
  });
  const { forget } = marks;

  return {
    /** The reader's viewer states for each of `ids`. */
    async of(userId: string, ids: readonly string[]): Promise<Map<string, ViewerState>> {
      const flags = new Map<string, ViewerState>();
      if (ids.length === 0) return flags;
      const known = await marks.of(userId);
      if (known) {
        for (const id of ids) {
          const liked = known.liked.has(id);
          const bookmarked = known.bookmarked.has(id);
          const reposted = known.reposted.has(id);
          flags.set(id, liked || bookmarked || reposted ? { liked, bookmarked, reposted } : NONE);
        }
        return flags;
      }
      for (const row of await flagsAmong(reads, userId, idListValue(reads, ids))) {
        flags.set(row.id, {
          liked: sqlBoolean(row.liked),
          bookmarked: sqlBoolean(row.bookmarked),
          reposted: sqlBoolean(row.reposted),
        });
      }
      return flags;
    },
    forget,
  };
}

export type ViewerStates = ReturnType<typeof createViewerStates>;
