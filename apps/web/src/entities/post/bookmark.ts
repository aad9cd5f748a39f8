import { useMutation, useQueryClient } from '@tanstack/react-query';
import toast from 'react-hot-toast';
import type { LiveEventHandler } from '../../shared/live/liveEventHandlers';
import { toastToggleQueued } from '../../shared/offlineQueue/messages';
import { sendOrQueueToggle } from '../../shared/offlineQueue/toggleQueue';
import { useRequiredSession } from '../session/SessionProvider';
import { bookmarkRefusedMessage, postMessages } from './messages';
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
import { bookmarkPost, type BookmarkAction } from './posts.api';
import {
  postToggleMutationKey,
  postTogglePending,
  postToggleScope,
  resyncAfterConflict,
  type OptimisticToggle,
} from './postToggles';

/**
 * Bookmarks a post or removes its bookmark at once everywhere (the bookmarks list gains or
 * loses it), then confirms with the server; a failure puts everything back and says why.
 */
export function useToggleBookmark(postId: string) {
  const { token, user } = useRequiredSession();
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: postToggleMutationKey('bookmark'),
    scope: postToggleScope('bookmark', postId),
    networkMode: 'always',
    mutationFn: (action: BookmarkAction) =>
      sendOrQueueToggle(
        { kind: 'bookmark', action, memberId: user._id, targetId: postId, token },
        (toggle, sessionToken) => bookmarkPost(toggle.targetId, toggle.action, sessionToken),
      ),
    onMutate: (action): OptimisticToggle => {
      const previous = findCachedPost(queryClient, postId);
      const bookmarkedByViewer = action === 'add';
      updatePostInCaches(queryClient, postId, (post) => ({ ...post, bookmarkedByViewer }));
      const current = findCachedPost(queryClient, postId);
      let removed: RemovedFrom[] = [];
      let added = false;
      if (action === 'add' && current) {
        insertPostIntoLists(queryClient, current, isSource('bookmarks'), 'top');
        added = true;
      } else if (action === 'remove') {
        removed = removePostFromLists(queryClient, postId, isSource('bookmarks'));
      }
      return { previous, removed, added };
    },
    onSuccess: (answer, action) => {
      if (answer === null) {
        toastToggleQueued();
        return;
      }
      const { post } = answer;
      updatePostInCaches(queryClient, postId, (cached) => ({
        ...cached,
        bookmarkedByViewer: post.bookmarkedByViewer,
      }));
      if (action === 'add') toast.success(postMessages.bookmarked);
    },
    onError: (error, action, context) => {
      if (context?.previous) {
        const { bookmarkedByViewer } = context.previous;
        updatePostInCaches(queryClient, postId, (post) => ({ ...post, bookmarkedByViewer }));
      }
      if (context?.added) removePostFromLists(queryClient, postId, isSource('bookmarks'));
      if (context) restoreRemovedPosts(queryClient, context.removed);
      toast.error(bookmarkRefusedMessage(action, error));
      resyncAfterConflict(queryClient, error);
    },
  });
}

/** The viewer's own bookmark change from another tab or device (this tab's settle themselves). */
export const onBookmarkEvent: LiveEventHandler<'bookmark.added' | 'bookmark.removed'> = (
  { type, payload: { postId, userId } },
  { queryClient, viewer },
) => {
  if (userId !== viewer._id) return;
  if (postTogglePending(queryClient, 'bookmark', postId)) return;
  const added = type === 'bookmark.added';
  updatePostInCaches(queryClient, postId, (post) =>
    post.bookmarkedByViewer === added ? post : { ...post, bookmarkedByViewer: added },
  );
  void queryClient.invalidateQueries({ queryKey: [...postKeys.lists(), { kind: 'bookmarks' }] });
};
