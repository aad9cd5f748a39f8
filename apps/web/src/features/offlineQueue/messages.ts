import toast from 'react-hot-toast';
import { isApiError } from '../../shared/lib/api';
import { postMessages } from '../../entities/post/messages';
import { usersMessages } from '../../entities/member/messages';
import type { ToggleChange } from '../../shared/offlineQueue/queueStore';

/** Toasts about what waits on this device for the connection to return. */
export const outboxMessages = {
  toggleQueued: 'No connection: this will be sent when you are back online.',
} as const;

/** Says, once however many toggles wait, that they will go out when the connection returns. */
export function toastToggleQueued(): void {
  toast(outboxMessages.toggleQueued, { id: outboxMessages.toggleQueued });
}

/**
 * The spec's toast for a like, bookmark or follow the server refused, made now or sent from the
 * outbox (a 400 is a conflict with what the server has).
 */
export function toggleRefusedMessage(change: ToggleChange, error: unknown): string {
  const conflict = isApiError(error) && error.status === 400;
  switch (change.action) {
    case 'like':
      return conflict ? postMessages.alreadyLiked : postMessages.likeFailed;
    case 'dislike':
      return postMessages.dislikeFailed;
    case 'add':
      return conflict ? postMessages.alreadyBookmarked : postMessages.bookmarkFailed;
    case 'remove':
      return conflict ? postMessages.notBookmarked : postMessages.bookmarkFailed;
    case 'follow':
    case 'unfollow':
      return usersMessages.followFailure;
  }
}
