import {
  bookmarkRefusedMessage,
  likeRefusedMessage,
  pinRefusedMessage,
  repostRefusedMessage,
} from '../../entities/post/messages';
import { usersMessages } from '../../entities/member/messages';
import type { ToggleChange } from '../../shared/offlineQueue/queueStore';

/**
 * The spec's toast for a like, bookmark, pin, repost or follow the server refused when sent from
 * the queue.
 */
export function toggleRefusedMessage(change: ToggleChange, error: unknown): string {
  switch (change.kind) {
    case 'like':
      return likeRefusedMessage(change.action, error);
    case 'bookmark':
      return bookmarkRefusedMessage(change.action, error);
    case 'pin':
      return pinRefusedMessage(error);
    case 'repost':
      return repostRefusedMessage(error);
    case 'follow':
      return usersMessages.followFailure;
  }
}
