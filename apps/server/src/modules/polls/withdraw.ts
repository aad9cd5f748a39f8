import type { Kysely } from 'kysely';
import { decodePoll, encodePoll } from '../../read-model/post/poll-view';
import type { Database } from '../../platform/db/schema';
import type { EventRecorder } from '../../platform/events/transactions';
import * as repo from './polls.repository';

/**
 * In an account deletion's transaction, the polls' posts locked: takes the member's votes out of
 * others' polls, so that every count equals the votes of members who remain, and tells open
 * pages the new counts. (Polls on the member's own posts go with the posts.)
 */
export async function withdrawVotesWithin(
  trx: Kysely<Database>,
  events: EventRecorder,
  userId: string,
): Promise<void> {
  const polls = await repo.votesInOthersPolls(trx, userId);
  for (const [pollId, { postId, poll: json, positions }] of polls) {
    await repo.uncountVote(trx, pollId, userId, positions);
    const poll = decodePoll(json);
    if (!poll) continue;
    const counts = await repo.countsOf(trx, pollId);
    const counted = { ...poll, votes: counts.optionVotes, voters: counts.voters };
    await repo.setPostPoll(trx, postId, encodePoll(counted));
    const authorId = await repo.findPoll(trx, pollId);
    if (!authorId) continue;
    events.record({
      type: 'poll.voted',
      payload: {
        pollId,
        postId,
        authorId: authorId.user_id,
        votesCount: counted.votes.reduce((sum, votes) => sum + votes, 0),
        votersCount: counted.voters,
        optionVotes: counted.votes,
      },
    });
  }
}
