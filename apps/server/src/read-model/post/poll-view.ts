import type { Poll } from '@perch/contract';
import { toIso } from '../../lib/time';

/**
 * A poll as a post's row keeps it (`posts.poll`, JSON): what every reader sees, rewritten by each
 * vote. Whether it ended and what the viewer may see of its counts are decided as it is shown.
 */
export interface PollData {
  id: string;
  expiresAt: number;
  multiple: boolean;
  options: string[];
  /** Each option's votes, in order. */
  votes: number[];
  voters: number;
}

export function decodePoll(json: string | null): PollData | null {
  return json === null ? null : (JSON.parse(json) as PollData);
}

export const encodePoll = (poll: PollData): string => JSON.stringify(poll);

/**
 * The poll as `viewerId` sees it at `now`: option counts show once they voted, once it ended, and
 * always to its author (Mastodon shows its author the results too).
 */
export function presentPoll(
  poll: PollData,
  authorId: string,
  viewerId: string | null,
  ownVotes: readonly number[] | null,
  now: number = Date.now(),
): Poll {
  const expired = now >= poll.expiresAt;
  const voted = ownVotes !== null && ownVotes.length > 0;
  const counted = voted || expired || viewerId === authorId;
  return {
    id: poll.id,
    expiresAt: toIso(poll.expiresAt),
    expired,
    multiple: poll.multiple,
    votesCount: poll.votes.reduce((sum, count) => sum + count, 0),
    votersCount: poll.voters,
    options: poll.options.map((title, position) => ({
      title,
      votesCount: counted ? (poll.votes[position] ?? 0) : null,
    })),
    voted,
    ownVotes: voted ? [...ownVotes] : [],
  };
}
