import toast from 'react-hot-toast';
import type { LiveEventHandler } from '../../shared/live/liveEventHandlers';
import { sendOrQueueToggle } from '../../shared/offlineQueue/toggleQueue';
import { useRequiredSession } from '../session/SessionProvider';
import { pinRefusedMessage, postMessages } from './messages';
import { updatePostInCaches } from './postCache';
import { postKeys, type FeedSource } from './postKeys';
import { pinPost, type PinAction } from './posts.api';
import { postTogglePending } from './postToggles';
import { usePostToggle } from './usePostToggle';

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
  return usePostToggle<PinAction>({
    kind: 'pin',
    postId,
    send: (action) =>
      sendOrQueueToggle(
        { kind: 'pin', action, memberId: user._id, targetId: postId, token },
        (toggle, sessionToken) => pinPost(toggle.targetId, toggle.action, sessionToken),
      ),
    apply: (post, action) => ({ ...post, pinned: action === 'pin' }),
    keep: (cached, { pinned }) => ({ ...cached, pinned }),
    list: { filter: ownPins(user.username), adds: (action) => action === 'pin', order: 'top' },
    refused: (_action, error) => pinRefusedMessage(error),
    sent: (action) => {
      if (action === 'pin') toast.success(postMessages.pinned);
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
