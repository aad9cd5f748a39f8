import { ErrorMessages, type Comment } from '@perch/contract';
import type { Viewer } from '../../lib/viewer';
import { badRequest, notFound } from '../../lib/errors';
import { COMMENT_VOTES, type CommentVote } from '../interactions/comment-vote';
import { commentView, lockedCommentOnPost } from './comment-view';
import type { CommentsServiceDeps, Db } from './comments.deps';

export type VoteDirection = keyof typeof COMMENT_VOTES;

/** Stores the vote, replacing an opposite one; false when the same vote is already there. */
async function storeVote(
  trx: Db,
  vote: CommentVote,
  commentId: string,
  userId: string,
): Promise<boolean> {
  if (await vote.add(trx, commentId, userId, Date.now())) {
    await vote.counter?.adjust(trx, commentId, 1);
    return true;
  }
  return vote.replaceOpposite(trx, commentId, userId);
}

/** A vote replaces the member's opposite vote; the same vote twice is refused. */
export async function voteOnComment(
  deps: CommentsServiceDeps,
  viewer: Viewer,
  postId: string,
  commentId: string,
  direction: VoteDirection,
): Promise<Comment> {
  const { transact, hidden } = deps;
  const vote = COMMENT_VOTES[direction];
  return transact(async (trx, events) => {
    const { comment } = await lockedCommentOnPost(deps, trx, postId, commentId, viewer);
    // The post's author was checked with the post; no vote reaches a blocked commenter either.
    if (
      comment.user_id !== null &&
      (await hidden.isBlockedEitherWay(trx, viewer.id, comment.user_id))
    ) {
      throw notFound(ErrorMessages.commentNotFound);
    }
    if (!(await storeVote(trx, vote, commentId, viewer.id))) throw badRequest(vote.refusal);
    const counted = await commentView(trx, commentId, viewer);
    const subject = { postId, commentId, ...counted.votes };
    events.record(
      vote.events.of({ subject, memberId: viewer.id, added: true, count: 0, rowId: null }),
    );
    return counted;
  });
}
