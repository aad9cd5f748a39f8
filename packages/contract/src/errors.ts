import { z } from 'zod';

/** Every error the API answers has this body: a list of human-readable messages. */
export const errorBodySchema = z.object({ errors: z.array(z.string()) });
export type ErrorBody = z.infer<typeof errorBodySchema>;

/**
 * The product's server messages, word for word (trailing spaces included), so that
 * the server answers them and the web app and tests can recognise them.
 */
export const ErrorMessages = {
  usernameTaken: 'Unprocessable Entity. Username Already Exists.',
  notRegistered: 'The username you entered is not Registered. Not Found error',
  invalidCredentials: 'The credentials you entered are invalid. Unauthorized access error.',
  invalidToken: 'The token is invalid. Unauthorized access error.',
  editPostNotOwner: "Cannot edit a Post doesn't belong to the logged in User.",
  deletePostNotOwner: "Cannot delete a Post doesn't belong to the logged in User.",
  alreadyLiked: 'Cannot like a post that is already liked. ',
  likeBelowZero: 'Cannot decrement like less than 0.',
  alreadyDisliked: 'Cannot dislike a post that is already disliked. ',
  alreadyBookmarked: 'This Post is already bookmarked',
  notBookmarked: 'Post not bookmarked yet',
  alreadyPinned: 'This Post is already pinned',
  notPinned: 'Post not pinned yet',
  pinNotOwner: 'You can only pin your own posts.',
  pinLimit: 'You can pin at most 5 posts.',
  alreadyReposted: 'This Post is already reposted',
  notReposted: 'Post not reposted yet',
  alreadyFollowing: 'User Already following',
  notFollowing: 'User already not following',
  followSelf: 'You cannot follow yourself',
  usernameImmutable: 'Username cannot be changed',
  editCommentNotOwner: "Cannot edit a comment doesn't belong to the User.",
  deleteCommentNotOwner: "Cannot delete a comment doesn't belong to the User.",
  alreadyUpvoted: 'Cannot upvote a post that is already upvoted. ',
  alreadyDownvoted: 'Cannot downvote a post that is already downvoted. ',
  postNotFound: 'Post not found.',
  userNotFound: 'User not found.',
  commentNotFound: 'Comment not found.',
  commentNotOnPost: 'Comment not found on this post.',
  routeNotFound: 'Not found',
  badUrl: 'The address is not valid.',
  urlTooLong: 'The address is too long.',
  badRequest: 'The request could not be read.',
  internal: 'Internal server error',
  databaseUnavailable: 'The database is not reachable right now; please try again.',
  databaseBusy: 'The server is busy right now; please try again.',
} as const;
