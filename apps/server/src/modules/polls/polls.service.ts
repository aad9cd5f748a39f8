import { PollMessages, type Poll } from '@perch/contract';
import type { Kysely } from 'kysely';
import type { Viewer } from '../../lib/viewer';
import { notFound } from '../../lib/errors';
import type { Database } from '../../platform/db/schema';
import { closeEndedPolls } from './close';
import type { PollsDeps } from './polls.deps';
import * as repo from './polls.repository';
import { castVote } from './vote';
import { withdrawVotesWithin } from './withdraw';

export type { PollsDeps } from './polls.deps';

/**
 * Polls on posts: a post is created with its poll (attach.ts, called by the posts module in the
 * post's transaction), members vote once (vote.ts), and a scheduled job closes ended polls
 * (close.ts). A poll is shown as part of its post's view (read-model/post/poll-view.ts).
 */
export function createPollsService(deps: PollsDeps) {
  return {
    /** The poll as the viewer sees it; 404 when it, or its post across a block, is not there. */
    async open(pollId: string, viewer: Viewer | null): Promise<Poll> {
      const found = await repo.findPoll(deps.reads, pollId);
      if (!found) throw notFound(PollMessages.notFound);
      const post = await deps.posts.open(found.post_id, viewer);
      if (!post.poll) throw notFound(PollMessages.notFound);
      return post.poll;
    },
    vote: (viewer: Viewer, pollId: string, choices: readonly number[]) =>
      castVote(deps, viewer, pollId, choices),
    /** The scheduled job: closes ended polls once across processes (see close.ts). */
    closeEnded: (now?: number) => closeEndedPolls(deps, now),
    /** The members who voted in the poll, for its end's notifications (in `within`). */
    votersOf: (within: Kysely<Database>, pollId: string) => repo.votersOf(within, pollId),
    /** In an account deletion's transaction: the member's votes leave others' polls. */
    withdrawVotesWithin,
  };
}

export type PollsService = ReturnType<typeof createPollsService>;
