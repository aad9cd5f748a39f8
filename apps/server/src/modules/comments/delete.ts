import { ErrorMessages, type Post } from '@perch/contract';
import type { Viewer } from '../../lib/viewer';
import { badRequest, notFound } from '../../lib/errors';
import { lockedCommentOnPost } from './comment-view';
import type { CommentsServiceDeps } from './comments.deps';
import * as repo from './comments.repository';

/** The comment's author or the post's author may delete it. */
export async function deleteComment(
  deps: CommentsServiceDeps,
  viewer: Viewer,
  postId: string,
  commentId: string,
): Promise<{ post: Post }> {
  const { transact, posts } = deps;
  await transact(async (trx, events) => {
    const { post, comment } = await lockedCommentOnPost(deps, trx, postId, commentId, viewer);
    if (comment.user_id !== viewer.id && post.user_id !== viewer.id) {
      throw badRequest(ErrorMessages.deleteCommentNotOwner);
    }
    if (!(await repo.deleteComment(trx, commentId))) throw notFound(ErrorMessages.commentNotFound);
    await posts.adjustCommentCount(trx, postId, -1);
    events.record({
      type: 'comment.deleted',
      payload: {
        postId,
        commentId,
        postAuthorId: post.user_id,
        userId: comment.user_id,
        commentCount: post.comment_count - 1,
      },
    });
  });
  return { post: await posts.card(postId, viewer) };
}
