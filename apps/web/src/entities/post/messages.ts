import { isApiError } from '../../shared/lib/api';
import type { BookmarkAction, LikeAction } from './posts.api';

/** Toasts about posts, word for word. */
export const postMessages = {
  created: 'New post created',
  createFailed: 'Something went wrong, try again!',
  edited: 'Post Edited',
  editFailed: 'Smething went wrong, please try again.',
  deleted: 'Post Deleted',
  queued: 'No connection: your post will be sent when you are back online.',
  deleteFailed: 'Post can not be delete',
  alreadyLiked: 'Cannot like a post that is already liked.',
  likeFailed: 'Something went wrong',
  dislikeFailed: 'Something went wrong.',
  bookmarked: 'Added to bookmarks.',
  alreadyBookmarked: 'Post is already bookmarked.',
  bookmarkFailed: 'Something went wrong!',
  notBookmarked: 'Post not bookmarked yet',
  pinned: 'Pinned to your profile.',
  pinFailed: 'Something went wrong!',
  repostFailed: 'Something went wrong!',
} as const;

/** A 400 answer to a toggle is a conflict with what the server has. */
const isConflict = (error: unknown): boolean => isApiError(error) && error.status === 400;

/** The toast for a like or unlike the server refused, made now or sent from the offline queue. */
export function likeRefusedMessage(action: LikeAction, error: unknown): string {
  if (action === 'dislike') return postMessages.dislikeFailed;
  return isConflict(error) ? postMessages.alreadyLiked : postMessages.likeFailed;
}

/**
 * The toast for a pin change the server refused, made now or sent from the offline queue: its own
 * reason when it gave one (another post's pin took the last place, say), else a generic one.
 */
export function pinRefusedMessage(error: unknown): string {
  return isConflict(error) && isApiError(error) ? error.message : postMessages.pinFailed;
}

/**
 * The toast for a repost or its undoing the server refused, made now or sent from the offline
 * queue: its own reason for a conflict ("This Post is already reposted"), else a generic one.
 */
export function repostRefusedMessage(error: unknown): string {
  return isConflict(error) && isApiError(error) ? error.message : postMessages.repostFailed;
}

/** The toast for a bookmark change the server refused, made now or sent from the offline queue. */
export function bookmarkRefusedMessage(action: BookmarkAction, error: unknown): string {
  if (!isConflict(error)) return postMessages.bookmarkFailed;
  return action === 'add' ? postMessages.alreadyBookmarked : postMessages.notBookmarked;
}
