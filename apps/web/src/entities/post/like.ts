import type { Post, User } from '@perch/contract';
import type { LiveEventHandler } from '../../shared/live/liveEventHandlers';
import { sendOrQueueToggle } from '../../shared/offlineQueue/toggleQueue';
import { useRequiredSession } from '../session/SessionProvider';
import { likeRefusedMessage } from './messages';
import { findCachedPost, isSource, removePostFromLists, updatePostInCaches } from './postCache';
import { postKeys } from './postKeys';
import { likePost, type LikeAction } from './posts.api';
import { postTogglePending } from './postToggles';
import { usePostToggle } from './usePostToggle';

type Viewer = Pick<User, '_id' | 'username'>;

/** The post as it looks when the viewer likes it (or not); the count is left alone. */
function withViewerLike(post: Post, liked: boolean, viewer: Viewer): Post {
  const likedBy = post.likes.likedBy.filter((ref) => ref._id !== viewer._id);
  return {
    ...post,
    likedByViewer: liked,
    likes: {
      ...post.likes,
      likedBy: liked
        ? [...likedBy, { _id: viewer._id, id: viewer._id, username: viewer.username }]
        : likedBy,
    },
  };
}

/** The post as it looks once the viewer likes (or stops liking) it, count included. */
export function withLike(post: Post, action: LikeAction, viewer: Viewer): Post {
  const liked = action === 'like';
  if (post.likedByViewer === liked) return post;
  const next = withViewerLike(post, liked, viewer);
  const likeCount = liked ? post.likes.likeCount + 1 : Math.max(0, post.likes.likeCount - 1);
  return { ...next, likes: { ...next.likes, likeCount } };
}

/**
 * Likes or unlikes a post at once in every list it shows in (and in the liked list), then
 * confirms with the server; a failure puts everything back and says why. Toggles of one post
 * reach the server in the order they were made.
 */
export function useToggleLike(postId: string) {
  const { token, user } = useRequiredSession();
  return usePostToggle<LikeAction>({
    kind: 'like',
    postId,
    // A like the server cannot get waits on this device (the offline queue).
    send: (action) =>
      sendOrQueueToggle(
        { kind: 'like', action, memberId: user._id, targetId: postId, token },
        (toggle, sessionToken) => likePost(toggle.targetId, toggle.action, sessionToken),
      ),
    apply: (post, action) => withLike(post, action, user),
    keep: (cached, { likes, likedByViewer }) => ({ ...cached, likes, likedByViewer }),
    list: { filter: isSource('liked'), adds: (action) => action === 'like' },
    refused: likeRefusedMessage,
  });
}

/**
 * A like or unlike from the stream: the count is set everywhere, and the viewer's own like from
 * another tab shows here too (this tab's own toggles settle themselves).
 */
export const onLikeEvent: LiveEventHandler<'post.liked' | 'post.unliked'> = (
  { type, payload: { postId, userId, likeCount } },
  { queryClient, viewer },
) => {
  const liked = type === 'post.liked';
  const own = userId === viewer._id && !postTogglePending(queryClient, 'like', postId);
  const before = findCachedPost(queryClient, postId);
  updatePostInCaches(queryClient, postId, (post) => {
    const next = own && post.likedByViewer !== liked ? withViewerLike(post, liked, viewer) : post;
    if (next === post && post.likes.likeCount === likeCount) return post;
    return { ...next, likes: { ...next.likes, likeCount } };
  });
  if (!own || before?.likedByViewer === liked) return;
  if (liked)
    void queryClient.invalidateQueries({ queryKey: [...postKeys.lists(), { kind: 'liked' }] });
  else removePostFromLists(queryClient, postId, isSource('liked'));
};
