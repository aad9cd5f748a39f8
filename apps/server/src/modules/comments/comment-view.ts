import { ErrorMessages, type Comment } from '@perch/contract';
import type { Viewer } from '../../lib/viewer';
import { notFound } from '../../lib/errors';
import type { CommentsServiceDeps, Db } from './comments.deps';
import { toComment } from './comments.mapper';
import * as repo from './comments.repository';

/** The comment as `viewer` sees it, read in `trx`; 404 when it is gone. */
export async function commentView(
  trx: Db,
  commentId: string,
  viewer: Viewer | null,
): Promise<Comment> {
  const row = await repo.findCommentView(trx, commentId, viewer?.id ?? null);
  if (!row) throw notFound(ErrorMessages.commentNotFound);
  return toComment(row, viewer);
}

/**
 * For a change: locks the post (as every change under a post does, see lockPostForChange), then
 * finds the comment, which must belong to that post.
 */
export async function lockedCommentOnPost(
  { posts }: Pick<CommentsServiceDeps, 'posts'>,
  trx: Db,
  postId: string,
  commentId: string,
  viewer: Viewer,
) {
  const post = await posts.lockedPost(trx, postId, viewer, 'none');
  const comment = await repo.findCommentOwner(trx, commentId);
  if (!comment) throw notFound(ErrorMessages.commentNotFound);
  if (comment.post_id !== postId) throw notFound(ErrorMessages.commentNotOnPost);
  return { post, comment };
}
