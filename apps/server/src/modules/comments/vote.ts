import { ErrorMessages, type Comment } from '@perch/contract';
import type { Viewer } from '../../lib/viewer';
import { badRequest, notFound } from '../../lib/errors';
import { commentCard, lockedCommentOnPost } from './comment-card';
import type { CommentsServiceDeps, Db } from './comments.deps';
import * as repo from './comments.repository';

export type VoteDirection = 'up' | 'down';

/** Stores the vote, replacing an opposite one; false when the same vote is already there. */
async function storeVote(
  trx: Db,
  commentId: string,
  userId: string,
  direction: VoteDirection,
): Promise<boolean> {
  const value = direction === 'up' ? 1 : -1;
  const one = { up: direction === 'up' ? 1 : 0, down: direction === 'down' ? 1 : 0 };
  if (await repo.insertVote(trx, commentId, userId, value)) {
    await repo.adjustVoteCounts(trx, commentId, one);
    return true;
  }
  if (await repo.flipVote(trx, commentId, userId, value)) {
    await repo.adjustVoteCounts(trx, commentId, { up: one.up - one.down, down: one.down - one.up });
    return true;
  }
  return false;
}

/** A vote replaces the member's opposite vote; the same vote twice is refused. */
export async function voteOnComment(
  deps: CommentsServiceDeps,
  viewer: Viewer,
  postId: string,
  commentId: string,
  direction: VoteDirection,
): Promise<Comment> {
  const { transact, hidden, firstComments, votes } = deps;
  const voted = await transact(async (trx, events) => {
    const { comment } = await lockedCommentOnPost(deps, trx, postId, commentId, viewer);
    // The post's author was checked with the post; no vote reaches a blocked commenter either.
    if (
      comment.user_id !== null &&
      (await hidden.isBlockedEitherWay(trx, viewer.id, comment.user_id))
    ) {
      throw notFound(ErrorMessages.commentNotFound);
    }
    if (!(await storeVote(trx, commentId, viewer.id, direction))) {
      throw badRequest(
        direction === 'up' ? ErrorMessages.alreadyUpvoted : ErrorMessages.alreadyDownvoted,
      );
    }
    const counted = await commentCard(trx, commentId, viewer);
    events.record({
      type: 'comment.voted',
      payload: {
        postId,
        commentId,
        userId: viewer.id,
        upvoteCount: counted.votes.upvoteCount,
        downvoteCount: counted.votes.downvoteCount,
      },
    });
    return counted;
  });
  firstComments.forget(postId);
  votes.forget(viewer.id);
  return voted;
}
