import type { Post, User } from '@perch/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import toast from 'react-hot-toast';
import type { LiveEventHandler } from '../../shared/live/liveEventHandlers';
import { toastToggleQueued } from '../../shared/offlineQueue/messages';
import { sendOrQueueToggle } from '../../shared/offlineQueue/toggleQueue';
import { useRequiredSession } from '../session/SessionProvider';
import { likeRefusedMessage } from './messages';
import {
  findCachedPost,
  insertPostIntoLists,
  isSource,
  removePostFromLists,
  restoreRemovedPosts,
  updatePostInCaches,
  type RemovedFrom,
} from './postCache';
import { postKeys } from './postKeys';
import { likePost, type LikeAction } from './posts.api';
import {
  postToggleMutationKey,
  postTogglePending,
  postToggleScope,
  resyncAfterConflict,
  type OptimisticToggle,
} from './postToggles';

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
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: postToggleMutationKey('like'),
    scope: postToggleScope('like', postId),
    // Run even offline: a like the server cannot get waits on this device (the offline queue).
    networkMode: 'always',
    mutationFn: (action: LikeAction) =>
      sendOrQueueToggle(
        { kind: 'like', action, memberId: user._id, targetId: postId, token },
        (toggle, sessionToken) => likePost(toggle.targetId, toggle.action, sessionToken),
      ),
    onMutate: (action): OptimisticToggle => {
      const previous = findCachedPost(queryClient, postId);
      updatePostInCaches(queryClient, postId, (post) => withLike(post, action, user));
      const current = findCachedPost(queryClient, postId);
      let removed: RemovedFrom[] = [];
      let added = false;
      if (action === 'like' && current) {
        insertPostIntoLists(queryClient, current, isSource('liked'));
        added = true;
      } else if (action === 'dislike') {
        removed = removePostFromLists(queryClient, postId, isSource('liked'));
      }
      return { previous, removed, added };
    },
    onSuccess: (answer) => {
      if (answer === null) {
        toastToggleQueued();
        return;
      }
      const { post } = answer;
      updatePostInCaches(queryClient, postId, (cached) => ({
        ...cached,
        likes: post.likes,
        likedByViewer: post.likedByViewer,
      }));
    },
    onError: (error, action, context) => {
      if (context?.previous) {
        const { likes, likedByViewer } = context.previous;
        updatePostInCaches(queryClient, postId, (post) => ({ ...post, likes, likedByViewer }));
      }
      if (context?.added) removePostFromLists(queryClient, postId, isSource('liked'));
      if (context) restoreRemovedPosts(queryClient, context.removed);
      toast.error(likeRefusedMessage(action, error));
      resyncAfterConflict(queryClient, error);
    },
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
