import { useMutation, useQueryClient } from '@tanstack/react-query';
import toast from 'react-hot-toast';
import type { LiveEventHandler } from '../../shared/live/liveEventHandlers';
import { toastToggleQueued } from '../../shared/offlineQueue/messages';
import { sendOrQueueToggle } from '../../shared/offlineQueue/toggleQueue';
import { useRequiredSession } from '../session/SessionProvider';
import { pinRefusedMessage, postMessages } from './messages';
import {
  findCachedPost,
  insertPostIntoLists,
  removePostFromLists,
  restoreRemovedPosts,
  updatePostInCaches,
  type RemovedFrom,
} from './postCache';
import { postKeys, type FeedSource } from './postKeys';
import { pinPost, type PinAction } from './posts.api';
import {
  postToggleMutationKey,
  postTogglePending,
  postToggleScope,
  resyncAfterConflict,
  type OptimisticToggle,
} from './postToggles';

/** The member's own pinned posts, as their profile lists them. */
const ownPins =
  (username: string) =>
  (source: FeedSource): boolean =>
    source.kind === 'pinned' && source.username === username;

/**
 * Pins the viewer's own post to their profile, or takes the pin off, at once everywhere (their
 * profile's pinned posts gain or lose it), then confirms with the server; a refusal (a sixth
 * pin) puts everything back and shows the server's reason. Without a connection it waits in the
 * offline queue, as likes and bookmarks do.
 */
export function useTogglePin(postId: string) {
  const { token, user } = useRequiredSession();
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: postToggleMutationKey('pin'),
    scope: postToggleScope('pin', postId),
    networkMode: 'always',
    mutationFn: (action: PinAction) =>
      sendOrQueueToggle(
        { kind: 'pin', action, memberId: user._id, targetId: postId, token },
        (toggle, sessionToken) => pinPost(toggle.targetId, toggle.action, sessionToken),
      ),
    onMutate: (action): OptimisticToggle => {
      const previous = findCachedPost(queryClient, postId);
      const pinned = action === 'pin';
      updatePostInCaches(queryClient, postId, (post) => ({ ...post, pinned }));
      const current = findCachedPost(queryClient, postId);
      let removed: RemovedFrom[] = [];
      let added = false;
      if (pinned && current) {
        insertPostIntoLists(queryClient, current, ownPins(user.username), 'top');
        added = true;
      } else if (!pinned) {
        removed = removePostFromLists(queryClient, postId, ownPins(user.username));
      }
      return { previous, removed, added };
    },
    onSuccess: (answer, action) => {
      if (answer === null) {
        toastToggleQueued();
        return;
      }
      const { pinned } = answer.post;
      updatePostInCaches(queryClient, postId, (cached) => ({ ...cached, pinned }));
      if (action === 'pin') toast.success(postMessages.pinned);
    },
    onError: (error, _action, context) => {
      if (context?.previous) {
        const { pinned } = context.previous;
        updatePostInCaches(queryClient, postId, (post) => ({ ...post, pinned }));
      }
      if (context?.added) removePostFromLists(queryClient, postId, ownPins(user.username));
      if (context) restoreRemovedPosts(queryClient, context.removed);
      toast.error(pinRefusedMessage(error));
      resyncAfterConflict(queryClient, error);
    },
  });
}

/**
 * A pin or unpin from the stream (any author's, the viewer's own from another tab too): the post
 * is marked everywhere it shows, and the loaded profiles' pinned posts are read again. This tab's
 * own toggles settle themselves.
 */
export const onPinEvent: LiveEventHandler<'post.pinned' | 'post.unpinned'> = (
  { type, payload: { postId } },
  { queryClient },
) => {
  if (postTogglePending(queryClient, 'pin', postId)) return;
  const pinned = type === 'post.pinned';
  updatePostInCaches(queryClient, postId, (post) =>
    post.pinned === pinned ? post : { ...post, pinned },
  );
  void queryClient.invalidateQueries({ queryKey: [...postKeys.lists(), { kind: 'pinned' }] });
};
