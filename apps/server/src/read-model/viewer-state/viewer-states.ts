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
import { ownVotesOf } from '../../modules/polls/polls.repository';

type Db = Kysely<Database>;

/** What a reader did to a post: the viewer's state of one post. */
export interface ViewerState {
  liked: boolean;
  bookmarked: boolean;
  reposted: boolean;
  /** The options the reader chose in the post's poll; null when they did not vote. */
  ownVotes: readonly number[] | null;
}

interface Marks {
  liked: ReadonlySet<string>;
  bookmarked: ReadonlySet<string>;
  reposted: ReadonlySet<string>;
  /** Post id → the options chosen in its poll. */
  votes: ReadonlyMap<string, readonly number[]>;
}

/** Rows of (post, option chosen) grouped by post, options in order. */
export function votesByPost(
  rows: readonly { post_id: string; position: number }[],
): Map<string, number[]> {
  const votes = new Map<string, number[]>();
  for (const row of rows) {
    const chosen = votes.get(row.post_id);
    if (chosen) chosen.push(row.position);
    else votes.set(row.post_id, [row.position]);
  }
  return votes;
}

export interface ViewerStatesDeps {
  reads: Db;
  /** Post ids cached over all members (each member's likes and bookmarks count). */
  maxIds: number;
  /** A member with more likes or bookmarks than this is asked the database page by page. */
  maxPerMember: number;
}

const NONE: ViewerState = { liked: false, bookmarked: false, reposted: false, ownVotes: null };

/**
 * Which posts each recent reader liked, bookmarked and reposted, and their votes, cached in memory: a page's viewer states then cost no
 * query. A member's viewer state are read once (two index ranges) and dropped when they like, unlike,
 * bookmark or unbookmark (see the read model's invalidation table). Members with very many viewer states are asked per page instead.
 */
export function createViewerStates({ reads, maxIds, maxPerMember }: ViewerStatesDeps) {
  const marks = keptPerMember<Marks>({
    maxRecords: maxIds,
    maxPerMember,
    sizeOf: (entry) =>
      entry.liked.size + entry.bookmarked.size + entry.reposted.size + entry.votes.size,
    read: async (userId, limit) => {
      const [liked, bookmarked, reposted, voted] = await Promise.all([
        likedPostIds(reads, userId, limit),
        bookmarkedPostIds(reads, userId, limit),
        repostedPostIds(reads, userId, limit),
        ownVotesOf(reads, userId, { limit }),
      ]);
      const votes = votesByPost(voted);
      const value = {
        liked: new Set(liked.map((row) => row.post_id)),
        bookmarked: new Set(bookmarked.map((row) => row.post_id)),
        reposted: new Set(reposted.map((row) => row.post_id)),
        votes,
      };
      // Any list past the bound: the member is asked per page.
      const count = Math.max(liked.length, bookmarked.length, reposted.length, votes.size);
      return { value, count };
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
          const ownVotes = known.votes.get(id) ?? null;
          const marked = liked || bookmarked || reposted || ownVotes;
          flags.set(id, marked ? { liked, bookmarked, reposted, ownVotes } : NONE);
        }
        return flags;
      }
      const [rows, voted] = await Promise.all([
        flagsAmong(reads, userId, idListValue(reads, ids)),
        ownVotesOf(reads, userId, { postIds: ids }),
      ]);
      const votes = votesByPost(voted);
      for (const row of rows) {
        flags.set(row.id, {
          liked: sqlBoolean(row.liked),
          bookmarked: sqlBoolean(row.bookmarked),
          reposted: sqlBoolean(row.reposted),
          ownVotes: votes.get(row.id) ?? null,
        });
      }
      return flags;
    },
    forget,
  };
}

export type ViewerStates = ReturnType<typeof createViewerStates>;
