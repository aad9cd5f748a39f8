import { ErrorMessages } from '@perch/contract';
import type { Kysely } from 'kysely';
import type { Database } from '../../platform/db/schema';
import type { Interaction } from './interaction';

type Db = Kysely<Database>;
type Value = 1 | -1;

/**
 * The comment a vote changed, as counted after the change: a vote that replaces the opposite one
 * moves both counters, so its event carries both.
 */
export interface VotedComment {
  postId: string;
  commentId: string;
  upvoteCount: number;
  downvoteCount: number;
}

/**
 * A member's vote on a comment, up or down: one row per member and comment holding its value, so
 * a vote replaces the member's opposite vote (`replaceOpposite`) instead of standing beside it.
 */
export interface CommentVote extends Interaction<VotedComment> {
  /** The value stored in the vote's row. */
  value: Value;
  /** Turns the member's opposite vote into this one; false when there was none. */
  replaceOpposite: (trx: Db, commentId: string, memberId: string) => Promise<boolean>;
  /** The message of the same vote twice. */
  refusal: string;
}

async function insertVote(trx: Db, commentId: string, userId: string, vote: Value) {
  const result = await trx
    .insertInto('comment_votes')
    .values({ comment_id: commentId, user_id: userId, vote })
    .onConflict((oc) => oc.columns(['comment_id', 'user_id']).doNothing())
    .executeTakeFirst();
  return (result.numInsertedOrUpdatedRows ?? 0n) > 0n;
}

async function deleteVote(trx: Db, commentId: string, userId: string, vote: Value) {
  const result = await trx
    .deleteFrom('comment_votes')
    .where('comment_id', '=', commentId)
    .where('user_id', '=', userId)
    .where('vote', '=', vote)
    .executeTakeFirst();
  return result.numDeletedRows > 0n;
}

async function flipVote(trx: Db, commentId: string, userId: string, vote: Value) {
  const result = await trx
    .updateTable('comment_votes')
    .set({ vote })
    .where('comment_id', '=', commentId)
    .where('user_id', '=', userId)
    .where('vote', '=', -vote)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

async function adjustVoteCounts(trx: Db, commentId: string, up: number, down: number) {
  await trx
    .updateTable('comments')
    .set((eb) => ({
      upvote_count: eb('upvote_count', '+', up),
      downvote_count: eb('downvote_count', '+', down),
    }))
    .where('id', '=', commentId)
    .execute();
}

const events: CommentVote['events'] = {
  added: 'comment.voted',
  removed: 'comment.voted',
  of: ({ subject, memberId }) => ({
    type: 'comment.voted',
    payload: {
      postId: subject.postId,
      commentId: subject.commentId,
      userId: memberId,
      upvoteCount: subject.upvoteCount,
      downvoteCount: subject.downvoteCount,
    },
  }),
};

/** A vote's declaration; `up` says which of the two, and so which counter it keeps. */
function commentVote(up: boolean): CommentVote {
  const value: Value = up ? 1 : -1;
  return {
    name: up ? 'upvote' : 'downvote',
    table: 'comment_votes',
    value,
    add: (trx, commentId, memberId) => insertVote(trx, commentId, memberId, value),
    remove: (trx, commentId, memberId) => deleteVote(trx, commentId, memberId, value),
    counter: {
      column: up ? 'upvote_count' : 'downvote_count',
      adjust: (trx, commentId, delta) =>
        adjustVoteCounts(trx, commentId, up ? delta : 0, up ? 0 : delta),
    },
    // One statement for both counters: this one up, the opposite one down.
    replaceOpposite: async (trx, commentId, memberId) => {
      if (!(await flipVote(trx, commentId, memberId, value))) return false;
      await adjustVoteCounts(trx, commentId, value, -value);
      return true;
    },
    events,
    audience: 'public',
    notification: null,
    view: {
      count: up ? 'votes.upvoteCount' : 'votes.downvoteCount',
      viewerState: up ? 'votes.upvotedBy' : 'votes.downvotedBy',
    },
    export: null,
    refusal: up ? ErrorMessages.alreadyUpvoted : ErrorMessages.alreadyDownvoted,
  };
}

/** Members vote comments up and down: public, counted on the comment, no one notified. */
export const COMMENT_VOTES = { up: commentVote(true), down: commentVote(false) } as const;
