import type { LiveEventHandler } from '../../shared/live/liveEventHandlers';
import { updatePostInCaches } from './postCache';
import { postKeys } from './postKeys';

/**
 * A pin or unpin from the stream (any author's, this viewer's from another tab too): the post is
 * marked everywhere it shows, and the loaded profiles' pinned posts are read again.
 */
export const onPinEvent: LiveEventHandler<'post.pinned' | 'post.unpinned'> = (
  { type, payload: { postId } },
  { queryClient },
) => {
  const pinned = type === 'post.pinned';
  updatePostInCaches(queryClient, postId, (post) =>
    post.pinned === pinned ? post : { ...post, pinned },
  );
  void queryClient.invalidateQueries({ queryKey: [...postKeys.lists(), { kind: 'pinned' }] });
};
