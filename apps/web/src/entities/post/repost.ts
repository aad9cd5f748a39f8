import type { Post } from '@perch/contract';
import type { LiveEventHandler } from '../../shared/live/liveEventHandlers';
import { sendOrQueueToggle } from '../../shared/offlineQueue/toggleQueue';
import { useRequiredSession } from '../session/SessionProvider';
import { repostRefusedMessage } from './messages';
import { updatePostInCaches } from './postCache';
import { repostPost, type RepostAction } from './posts.api';
import { postTogglePending } from './postToggles';
import { usePostToggle } from './usePostToggle';

/** The post as it looks once the viewer reposts it (or undoes it), count included. */
export function withRepost(post: Post, action: RepostAction): Post {
  const reposted = action === 'repost';
  if (post.repostedByViewer === reposted) return post;
  const repostCount = reposted ? post.repostCount + 1 : Math.max(0, post.repostCount - 1);
  return { ...post, repostedByViewer: reposted, repostCount };
}

/**
 * Reposts a post to the viewer's followers, or undoes it, at once in every list that shows it,
 * then confirms with the server; a refusal puts it back with the server's reason. Without a
 * connection it waits in the offline queue, as likes do.
 */
export function useToggleRepost(postId: string) {
  const { token, user } = useRequiredSession();
  return usePostToggle<RepostAction>({
    kind: 'repost',
    postId,
    send: (action) =>
      sendOrQueueToggle(
        { kind: 'repost', action, memberId: user._id, targetId: postId, token },
        (toggle, sessionToken) => repostPost(toggle.targetId, toggle.action, sessionToken),
      ),
    apply: withRepost,
    keep: (cached, { repostCount, repostedByViewer }) => ({
      ...cached,
      repostCount,
      repostedByViewer,
    }),
    refused: (_action, error) => repostRefusedMessage(error),
  });
}

/**
 * A repost or its undoing from the stream: the count is set everywhere, and the viewer's own
 * repost from another tab shows here too (this tab's own toggles settle themselves).
 */
export const onRepostEvent: LiveEventHandler<'post.reposted' | 'post.unreposted'> = (
  { type, payload: { postId, userId, repostCount } },
  { queryClient, viewer },
) => {
  const reposted = type === 'post.reposted';
  const own = userId === viewer._id && !postTogglePending(queryClient, 'repost', postId);
  updatePostInCaches(queryClient, postId, (post) => {
    const mark = own && post.repostedByViewer !== reposted;
    if (!mark && post.repostCount === repostCount) return post;
    return { ...post, repostCount, repostedByViewer: mark ? reposted : post.repostedByViewer };
  });
};
