import toast from 'react-hot-toast';
import type { LiveEventHandler } from '../../shared/live/liveEventHandlers';
import { sendOrQueueToggle } from '../../shared/offlineQueue/toggleQueue';
import { useRequiredSession } from '../session/SessionProvider';
import { bookmarkRefusedMessage, postMessages } from './messages';
import { isSource, updatePostInCaches } from './postCache';
import { postKeys } from './postKeys';
import { bookmarkPost, type BookmarkAction } from './posts.api';
import { postTogglePending } from './postToggles';
import { usePostToggle } from './usePostToggle';

/**
 * Bookmarks a post or removes its bookmark at once everywhere (the bookmarks list gains or
 * loses it), then confirms with the server; a failure puts everything back and says why.
 */
export function useToggleBookmark(postId: string) {
  const { token, user } = useRequiredSession();
  return usePostToggle<BookmarkAction>({
    kind: 'bookmark',
    postId,
    send: (action) =>
      sendOrQueueToggle(
        { kind: 'bookmark', action, memberId: user._id, targetId: postId, token },
        (toggle, sessionToken) => bookmarkPost(toggle.targetId, toggle.action, sessionToken),
      ),
    apply: (post, action) => ({ ...post, bookmarkedByViewer: action === 'add' }),
    keep: (cached, { bookmarkedByViewer }) => ({ ...cached, bookmarkedByViewer }),
    list: { filter: isSource('bookmarks'), adds: (action) => action === 'add', order: 'top' },
    refused: bookmarkRefusedMessage,
    sent: (action) => {
      if (action === 'add') toast.success(postMessages.bookmarked);
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
