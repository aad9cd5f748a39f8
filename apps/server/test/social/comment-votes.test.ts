import { ErrorMessages, commentPageSchema, commentVoteResponseSchema } from '@perch/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Member } from '../factories';
import { createTestApp, type TestApp } from '../helpers';
import {
  MINIMAL,
  UNKNOWN_ID,
  addComment,
  bodyOf,
  createMembers,
  createPost,
  deleteComment,
  downvote,
  expectError,
  idsOf,
  keysOf,
  listComments,
  upvote,
} from './social-helpers';

let t: TestApp;
let author: Member;
let commenter: Member;
let third: Member;
let fourth: Member;
beforeAll(async () => {
  t = await createTestApp();
  [author, commenter, third, fourth] = await createMembers(t.app, 4);
});
afterAll(async () => {
  await t.close();
});

const setup = async () => {
  const post = await createPost(t.app, author.token, 'vote on this');
  const comment = await addComment(t.app, commenter.token, post._id, 'controversial');
  return { post, comment };
};

const voteRows = (commentId: string) =>
  t.app.db.selectFrom('comment_votes').selectAll().where('comment_id', '=', commentId).execute();

describe('comment votes', () => {
  it('counts an upvote and refuses a second one', async () => {
    const { post, comment } = await setup();
    const body = bodyOf(
      commentVoteResponseSchema,
      await upvote(t.app, third.token, post._id, comment._id),
      201,
    );
    expect(body.comment.votes).toEqual({
      upvoteCount: 1,
      downvoteCount: 0,
      upvotedBy: [{ _id: third.user._id, id: third.user._id, username: third.user.username }],
      downvotedBy: [],
    });
    expect(idsOf(body.comments ?? [])).toEqual([comment._id]);
    expectError(
      await upvote(t.app, third.token, post._id, comment._id),
      400,
      ErrorMessages.alreadyUpvoted,
    );
    const seenByOther = bodyOf(
      commentPageSchema,
      await listComments(t.app, post._id, author.token),
      200,
    ).comments[0];
    expect(seenByOther?.votes).toMatchObject({ upvoteCount: 1, upvotedBy: [] });
  });

  it('moves the vote when the member changes their mind, and refuses a second downvote', async () => {
    const { post, comment } = await setup();
    await upvote(t.app, third.token, post._id, comment._id);
    const response = await downvote(t.app, third.token, post._id, comment._id, MINIMAL);
    const body = bodyOf(commentVoteResponseSchema, response, 201);
    expect(keysOf(response)).toEqual(['comment']);
    expect(body.comment.votes).toEqual({
      upvoteCount: 0,
      downvoteCount: 1,
      upvotedBy: [],
      downvotedBy: [{ _id: third.user._id, id: third.user._id, username: third.user.username }],
    });
    expectError(
      await downvote(t.app, third.token, post._id, comment._id),
      400,
      ErrorMessages.alreadyDownvoted,
    );
    const back = bodyOf(
      commentVoteResponseSchema,
      await upvote(t.app, third.token, post._id, comment._id),
      201,
    );
    expect(back.comment.votes).toMatchObject({ upvoteCount: 1, downvoteCount: 0 });
    expect(await voteRows(comment._id)).toEqual([
      { comment_id: comment._id, user_id: third.user._id, vote: 1 },
    ]);
  });

  it('counts the votes of different members and shows each viewer only their own', async () => {
    const { post, comment } = await setup();
    await upvote(t.app, third.token, post._id, comment._id);
    await upvote(t.app, author.token, post._id, comment._id);
    const body = bodyOf(
      commentVoteResponseSchema,
      await downvote(t.app, fourth.token, post._id, comment._id),
      201,
    );
    expect(body.comment.votes).toEqual({
      upvoteCount: 2,
      downvoteCount: 1,
      upvotedBy: [],
      downvotedBy: [{ _id: fourth.user._id, id: fourth.user._id, username: fourth.user.username }],
    });
    const seenByThird = bodyOf(
      commentPageSchema,
      await listComments(t.app, post._id, third.token),
      200,
    ).comments[0];
    expect(seenByThird?.votes).toEqual({
      upvoteCount: 2,
      downvoteCount: 1,
      upvotedBy: [{ _id: third.user._id, id: third.user._id, username: third.user.username }],
      downvotedBy: [],
    });
    const anonymous = bodyOf(commentPageSchema, await listComments(t.app, post._id), 200)
      .comments[0];
    expect(anonymous?.votes).toMatchObject({ upvotedBy: [], downvotedBy: [] });
    expect(await voteRows(comment._id)).toHaveLength(3);
  });

  it('lets the comment’s author vote on it', async () => {
    const { post, comment } = await setup();
    const response = await upvote(t.app, commenter.token, post._id, comment._id, MINIMAL);
    expect(bodyOf(commentVoteResponseSchema, response, 201).comment.votes.upvoteCount).toBe(1);
  });

  it('removes the votes with the comment', async () => {
    const { post, comment } = await setup();
    await upvote(t.app, third.token, post._id, comment._id);
    await downvote(t.app, fourth.token, post._id, comment._id);
    const deleted = await deleteComment(t.app, commenter.token, post._id, comment._id, MINIMAL);
    expect(deleted.statusCode).toBe(201);
    expect(await voteRows(comment._id)).toHaveLength(0);
  });

  it('keeps one vote per member under concurrent upvotes', async () => {
    const { post, comment } = await setup();
    const responses = await Promise.all(
      Array.from({ length: 6 }, () => upvote(t.app, third.token, post._id, comment._id, MINIMAL)),
    );
    expect(responses.filter((r) => r.statusCode === 201)).toHaveLength(1);
    expect(responses.filter((r) => r.statusCode === 400)).toHaveLength(5);
    const { comments } = bodyOf(commentPageSchema, await listComments(t.app, post._id), 200);
    expect(comments[0]?.votes.upvoteCount).toBe(1);
    expect(await voteRows(comment._id)).toHaveLength(1);
  });

  it('keeps the counts equal to the votes when up and down votes race', async () => {
    const { post, comment } = await setup();
    const responses = await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        (i % 2 ? downvote : upvote)(t.app, third.token, post._id, comment._id, MINIMAL),
      ),
    );
    for (const response of responses) expect([201, 400]).toContain(response.statusCode);
    const rows = await voteRows(comment._id);
    expect(rows).toHaveLength(1);
    const votes = bodyOf(commentPageSchema, await listComments(t.app, post._id), 200).comments[0]
      ?.votes;
    expect(votes?.upvoteCount).toBe(rows[0]?.vote === 1 ? 1 : 0);
    expect(votes?.downvoteCount).toBe(rows[0]?.vote === -1 ? 1 : 0);
  });

  it('answers 404 for unknown ids and 401 without a token', async () => {
    const { post, comment } = await setup();
    expectError(
      await upvote(t.app, third.token, UNKNOWN_ID, comment._id),
      404,
      ErrorMessages.postNotFound,
    );
    expectError(
      await downvote(t.app, third.token, post._id, UNKNOWN_ID),
      404,
      ErrorMessages.commentNotFound,
    );
    const elsewhere = await createPost(t.app, author.token, 'elsewhere');
    expectError(
      await upvote(t.app, third.token, elsewhere._id, comment._id),
      404,
      ErrorMessages.commentNotOnPost,
    );
    expectError(
      await upvote(t.app, undefined, post._id, comment._id),
      401,
      ErrorMessages.invalidToken,
    );
    expect(await voteRows(comment._id)).toHaveLength(0);
  });
});
