import { ErrorMessages, type Comment, type Post } from '@perch/contract';
import type { Viewer } from '../../lib/viewer';
import { badRequest } from '../../lib/errors';
import { encodeEntities } from '../discovery/entities.codec';
import { recordMentions } from '../discovery/entities.service';
import { commentView, lockedCommentOnPost } from './comment-view';
import type { CommentsServiceDeps } from './comments.deps';
import * as repo from './comments.repository';

/** Only the comment's author may change its text. */
export async function editComment(
  deps: CommentsServiceDeps,
  viewer: Viewer,
  postId: string,
  commentId: string,
  text: string,
): Promise<{ comment: Comment; post: Post }> {
  const { transact, entities, posts } = deps;
  return transact(async (trx, events) => {
    const { comment } = await lockedCommentOnPost(deps, trx, postId, commentId, viewer);
    if (comment.user_id !== viewer.id) throw badRequest(ErrorMessages.editCommentNotOwner);
    const found = await entities.resolve(trx, text);
    await repo.updateCommentText(trx, commentId, text, encodeEntities(found), Date.now());
    const mentioned = await entities.record(trx, 'comment', {
      id: commentId,
      authorId: viewer.id,
      createdAt: comment.created_at,
      entities: found,
      fresh: false,
    });
    events.record({
      type: 'comment.edited',
      payload: { postId, commentId, userId: viewer.id },
    });
    recordMentions(events, { postId, commentId, authorId: viewer.id }, mentioned);
    return {
      comment: await commentView(trx, commentId, viewer),
      post: await posts.card(postId, viewer, trx),
    };
  });
}
