import { bookmarkPost, likePost, pinPost, repostPost } from '../../entities/post/posts.api';
import { followUser, unfollowUser } from '../../entities/member/users.api';
import type { Toggle, ToggleAnswer, ToggleAnswers } from '../../shared/offlineQueue/toggleQueue';

/** Sends a queued toggle of any kind with the call of its entity. */
export function sendToggle<T extends Toggle>(
  toggle: T,
  token: string,
): Promise<ToggleAnswers[T['kind']]> {
  const sent: Promise<ToggleAnswer> =
    toggle.kind === 'like'
      ? likePost(toggle.targetId, toggle.action, token)
      : toggle.kind === 'bookmark'
        ? bookmarkPost(toggle.targetId, toggle.action, token)
        : toggle.kind === 'pin'
          ? pinPost(toggle.targetId, toggle.action, token)
          : toggle.kind === 'repost'
            ? repostPost(toggle.targetId, toggle.action, token)
            : toggle.action === 'follow'
              ? followUser(toggle.targetId, token)
              : unfollowUser(toggle.targetId, token);
  // The branch taken is the one of T's kind.
  return sent as Promise<ToggleAnswers[T['kind']]>;
}
