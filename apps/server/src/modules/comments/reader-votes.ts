import type { PublishedEvent } from '@perch/contract';
import type { Kysely } from 'kysely';
import { LRUCache } from 'lru-cache';
import type { Database } from '../../db/schema';
import { keptByKeyUntilChanged } from '../../lib/kept-until-changed';
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
  const kept = keptByKeyUntilChanged(
    new LRUCache<string, Votes>({
      maxSize: maxVotes,
      sizeCalculation: (votes) => Math.max(1, votes.size),
    }),
  );
  const tooMany = new LRUCache<string, true>({ max: 10_000 });

  function forget(userId: string): void {
    kept.forget(userId);
    tooMany.delete(userId);
  }

  async function load(userId: string): Promise<Votes | null> {
    const mark = kept.mark();
    const rows = await votesOf(reads, userId, maxPerMember + 1);
    if (rows.length > maxPerMember) {
      tooMany.set(userId, true);
      return null;
    }
    const votes =
      rows.length === 0 ? NO_VOTES : new Map(rows.map((row) => [row.comment_id, row.vote]));
    kept.keep(mark, userId, votes);
    return votes;
  }

  return {
    /** The reader's votes on those of `commentIds` they voted on (the map may hold others). */
    async of(userId: string, commentIds: readonly string[]): Promise<Votes> {
      if (commentIds.length === 0) return NO_VOTES;
      const known = kept.get(userId) ?? (tooMany.has(userId) ? null : await load(userId));
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
