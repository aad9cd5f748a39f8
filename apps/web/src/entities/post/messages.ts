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
} as const;
