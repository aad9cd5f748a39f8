import type { Kysely } from 'kysely';
import type { Database } from '../../platform/db/schema';
import { keptPerMember } from '../../lib/kept-until-changed';
import { listVotesAmong, votesOf } from '../../modules/comments/comments.repository';

type Db = Kysely<Database>;

/** A viewer's votes by comment id: 1 up, -1 down. */
export type Votes = ReadonlyMap<string, number>;

export interface ViewerVotesDeps {
  reads: Db;
  /** Votes cached over all members. */
  maxVotes: number;
  /** A member with more votes than this is asked the database for each answer instead. */
  maxPerMember: number;
}

const NO_VOTES: Votes = new Map();

/**
 * The viewer state of comments: which comments each recent viewer voted on, cached in memory, as
 * the posts' viewer state caches their likes: the comments every post embeds then show the
 * viewer's votes without a query (docs/decisions/0005-viewer-state-kept.md). A member's votes are read once (one index
 * range) and dropped when they vote or leave (the invalidation table). A vote goes only with its
 * comment or its member; a deleted comment's id is never asked again, so its vote may stay cached.
 */
export function createViewerVotes({ reads, maxVotes, maxPerMember }: ViewerVotesDeps) {
  const cached = keptPerMember<Votes>({
    maxRecords: maxVotes,
    maxPerMember,
    sizeOf: (votes) => votes.size,
    read: async (userId, limit) => {
      const rows = await votesOf(reads, userId, limit);
      const votes = rows.length === 0 ? NO_VOTES : new Map(rows.map((r) => [r.comment_id, r.vote]));
      return { value: votes, count: rows.length };
    },
  });
  const { forget } = cached;

  return {
    /** The viewer's votes on those of `commentIds` they voted on (the map may hold others). */
    async of(userId: string, commentIds: readonly string[]): Promise<Votes> {
      if (commentIds.length === 0) return NO_VOTES;
      const known = await cached.of(userId);
      if (known) return known;
      const rows = await listVotesAmong(reads, userId, commentIds);
      return new Map(rows.map((row) => [row.comment_id, row.vote]));
    },
    forget,
  };
}

export type ViewerVotes = ReturnType<typeof createViewerVotes>;
