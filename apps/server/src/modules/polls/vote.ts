import { PollMessages, type Poll } from '@perch/contract';
import type { Viewer } from '../../lib/viewer';
import { badRequest, notFound } from '../../lib/errors';
import {
  decodePoll,
  encodePoll,
  presentPoll,
  type PollData,
} from '../../read-model/post/poll-view';
import type { PollsDeps } from './polls.deps';
import * as repo from './polls.repository';

/** Refuses choices the poll does not offer, or more than one in a single-choice poll. */
function checkChoices(poll: PollData, choices: readonly number[]): void {
  if (choices.some((choice) => choice < 0 || choice >= poll.options.length)) {
    throw badRequest(PollMessages.badChoice);
  }
  if (!poll.multiple && choices.length > 1) throw badRequest(PollMessages.oneChoice);
}

/**
 * The viewer votes in the poll, once: their choices are stored and counted, the post's copy of the
 * poll rewritten, and the new counts recorded for live pages. Under the post's lock (see the lock
 * order), so votes at once queue and each reads the counts the one before left. Its author may
 * vote too, as on Mastodon; across a block the poll is not found.
 */
export async function castVote(
  { reads, transact, posts }: PollsDeps,
  viewer: Viewer,
  pollId: string,
  choices: readonly number[],
): Promise<Poll> {
  const found = await repo.findPoll(reads, pollId);
  if (!found) throw notFound(PollMessages.notFound);
  const chosen = [...choices].sort((a, b) => a - b);
  return transact(async (trx, events) => {
    const post = await posts.lockedPost(trx, found.post_id, viewer, 'none');
    const poll = decodePoll(post.poll);
    if (!poll) throw notFound(PollMessages.notFound);
    const now = Date.now();
    if (now >= poll.expiresAt) throw badRequest(PollMessages.ended);
    checkChoices(poll, chosen);
    if (!(await repo.addVoter(trx, pollId, viewer.id, now))) {
      throw badRequest(PollMessages.alreadyVoted);
    }
    await repo.countVote(trx, pollId, viewer.id, chosen);
    const counts = await repo.countsOf(trx, pollId);
    const counted: PollData = { ...poll, votes: counts.optionVotes, voters: counts.voters };
    await repo.setPostPoll(trx, post.id, encodePoll(counted));
    const shown = presentPoll(counted, post.user_id, viewer.id, chosen, now);
    events.record({
      type: 'poll.voted',
      payload: {
        pollId,
        postId: post.id,
        authorId: post.user_id,
        votesCount: shown.votesCount,
        votersCount: shown.votersCount,
        optionVotes: counted.votes,
      },
    });
    events.record({
      type: 'poll.vote.cast',
      payload: { userId: viewer.id, pollId, postId: post.id, choices: chosen },
    });
    return shown;
  });
}
