import type { Poll, PollResponse, Post } from '@perch/contract';
import { useMutation, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../shared/lib/api';
import type { LiveEventHandler, LiveEventHandlersFor } from '../../shared/live/liveEventHandlers';
import { useRequiredSession } from '../session/SessionProvider';
import { findCachedPost, updatePostInCaches } from './postCache';
import { fetchPost } from './posts.api';

export function votePoll(pollId: string, choices: number[], token: string): Promise<PollResponse> {
  return apiRequest(`/api/polls/${encodeURIComponent(pollId)}/votes`, {
    method: 'POST',
    body: { choices },
    token,
    schema: (s) => s.pollResponseSchema,
  });
}

/** The post with its poll replaced, where it has one. */
const withPoll = (post: Post, poll: Poll): Post => (post.poll ? { ...post, poll } : post);

/** The viewer votes; the answer's poll (with its results) replaces the post's everywhere. */
export function useVotePoll(postId: string, pollId: string) {
  const { token } = useRequiredSession();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (choices: number[]) => votePoll(pollId, choices, token),
    onSuccess: ({ poll }) => {
      updatePostInCaches(queryClient, postId, (post) => withPoll(post, poll));
    },
  });
}

/**
 * New counts from another member's vote: the totals always, the options' counts only where this
 * viewer already sees them (they voted, or it is theirs, or it ended).
 */
export function withCounts(
  poll: Poll,
  counts: { votesCount: number; votersCount: number; optionVotes: readonly number[] },
): Poll {
  return {
    ...poll,
    votesCount: counts.votesCount,
    votersCount: counts.votersCount,
    options: poll.options.map((option, position) => ({
      ...option,
      votesCount: option.votesCount === null ? null : (counts.optionVotes[position] ?? 0),
    })),
  };
}

/** The post read again, its poll put in place: what the viewer may see changed. */
function refreshPoll(queryClient: QueryClient, postId: string, token: string): void {
  if (!findCachedPost(queryClient, postId)?.poll) return;
  fetchPost(postId, token).then(
    ({ post }) => {
      if (post.poll) {
        const { poll } = post;
        updatePostInCaches(queryClient, postId, (cached) => withPoll(cached, poll));
      }
    },
    () => undefined, // Deleted meanwhile, or offline: the next event or load settles it.
  );
}

const onPollVoted: LiveEventHandler<'poll.voted'> = ({ payload }, { queryClient }) => {
  updatePostInCaches(queryClient, payload.postId, (post) =>
    post.poll ? { ...post, poll: withCounts(post.poll, payload) } : post,
  );
};

/** The viewer voted in another tab or on another device: the results now show here too. */
const onOwnVote: LiveEventHandler<'poll.vote.cast'> = ({ payload }, { queryClient, token }) => {
  const cached = findCachedPost(queryClient, payload.postId)?.poll;
  if (cached && !cached.voted) refreshPoll(queryClient, payload.postId, token);
};

const onPollEnded: LiveEventHandler<'poll.ended'> = ({ payload }, { queryClient, token }) => {
  refreshPoll(queryClient, payload.postId, token);
};

/** What the poll events change in the posts this app has loaded. */
export const pollLiveHandlers = {
  'poll.voted': onPollVoted,
  'poll.vote.cast': onOwnVote,
  'poll.ended': onPollEnded,
} satisfies LiveEventHandlersFor<'poll.voted' | 'poll.vote.cast' | 'poll.ended'>;
