import type { PublishedEvent } from '@perch/contract';
import type { Kysely } from 'kysely';
import type { Database } from '../../platform/db/schema';
import { keptPerMember } from '../../lib/kept-until-changed';
import { listVotesAmong, votesOf } from './comments.repository';

type Db = Kysely<Database>;

/** A reader's votes by comment id: 1 up, -1 down. */
export type Votes = ReadonlyMap<string, number>;

export interface ReaderVotesDeps {
  reads: Db;
  /** Votes kept over all members. */
  maxVotes: number;
  /** A member with more votes than this is asked the database for each answer instead. */
  maxPerMember: number;
}

const NO_VOTES: Votes = new Map();

/**
 * Which comments each recent reader voted on, kept in memory, as reader-flags keeps their likes:
 * the comments every post embeds then show the reader's votes without a query (most readers voted
 * on none, and that query was about a seventh of Home with its comments on 1,000,000 posts). A
 * member's votes are read once (one index range) and dropped when they vote: by the process that
 * made the change at once, by the others when the relay hands them the event. A vote goes only
 * with its comment or its member; a deleted comment's id is never asked again, so its vote may
 * stay kept.
 */
export function createReaderVotes({ reads, maxVotes, maxPerMember }: ReaderVotesDeps) {
  const kept = keptPerMember<Votes>({
    maxRecords: maxVotes,
    maxPerMember,
    sizeOf: (votes) => votes.size,
    read: async (userId, limit) => {
      const rows = await votesOf(reads, userId, limit);
      const votes = rows.length === 0 ? NO_VOTES : new Map(rows.map((r) => [r.comment_id, r.vote]));
      return { value: votes, count: rows.length };
    },
  });
  const { forget } = kept;

  return {
    /** The reader's votes on those of `commentIds` they voted on (the map may hold others). */
    async of(userId: string, commentIds: readonly string[]): Promise<Votes> {
      if (commentIds.length === 0) return NO_VOTES;
      const known = await kept.of(userId);
      if (known) return known;
      const rows = await listVotesAmong(reads, userId, commentIds);
      return new Map(rows.map((row) => [row.comment_id, row.vote]));
    },
    forget,
    /** For relay.listen: drops the votes of members who voted or left. */
    listener: (events: readonly PublishedEvent[]): void => {
      for (const event of events) {
        if (event.type === 'comment.voted' || event.type === 'member.deleted') {
          forget(event.payload.userId);
        }
      }
    },
  };
}

export type ReaderVotes = ReturnType<typeof createReaderVotes>;
