import {
  ErrorMessages,
  commentDeleteResponseSchema,
  commentMutationResponseSchema,
  commentPageSchema,
  commentSchema,
  type Comment,
} from '@perch/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMember, type Member } from '../factories';
import { createTestApp, type TestApp } from '../helpers';
import {
  MINIMAL,
  UNKNOWN_ID,
  addComment,
  bodyOf,
  commentRequest,
  createMembers,
  createPost,
  deleteComment,
  editComment,
  editProfile,
  expectError,
  fetchPost,
  idsOf,
  keysOf,
  listComments,
  pause,
  uploadImage,
  walk,
} from './social-helpers';

let t: TestApp;
let author: Member;
let commenter: Member;
let third: Member;
beforeAll(async () => {
  t = await createTestApp();
  author = await createMember(t.app);
  commenter = await createMember(t.app, { firstName: 'Carla', lastName: 'Commenter' });
  third = await createMember(t.app);
});
afterAll(async () => {
  await t.close();
});

const setup = async () => {
  const post = await createPost(t.app, author.token, 'discuss');
  const comment = await addComment(t.app, commenter.token, post._id, 'first!');
  return { post, comment };
};

describe('POST /api/comments/add/{postId}', () => {
  it('answers 201 with the comment and the post with its new count', async () => {
    const post = await createPost(t.app, author.token, 'talk to me');
    const response = await commentRequest(
      t.app,
      commenter.token,
      post._id,
      '  Hello <b>there</b> ',
    );
    const body = bodyOf(commentMutationResponseSchema, response, 201);
    expect(body.comment).toMatchObject({
      postId: post._id,
      userId: commenter.user._id,
      username: commenter.user.username,
      firstName: 'Carla',
      lastName: 'Commenter',
      text: '  Hello <b>there</b> ',
      votes: { upvoteCount: 0, downvoteCount: 0, upvotedBy: [], downvotedBy: [] },
    });
    expect(body.post).toMatchObject({ _id: post._id, commentCount: 1 });
    expect(body.posts).toBeDefined();
    const minimal = await commentRequest(t.app, third.token, post._id, 'second', MINIMAL);
    const minimalBody = bodyOf(commentMutationResponseSchema, minimal, 201);
    expect(keysOf(minimal)).toEqual(['comment', 'post']);
    expect(minimalBody.post.commentCount).toBe(2);
    expect((await fetchPost(t.app, post._id)).commentCount).toBe(2);
  });

  it("answers the comment as it then reads, with its entities and its author's current profile", async () => {
    const member = await createMember(t.app, { firstName: 'Before', lastName: 'Edit' });
    const post = await createPost(t.app, author.token, 'what reads back');
    await editProfile(t.app, member.token, {
      firstName: 'After',
      lastName: 'Edit',
      avatarURL: await uploadImage(t.app, member.token, 'avatar'),
    });
    const text = `hey @${author.user.username} about #perch 💬`;
    const answered = bodyOf(
      commentMutationResponseSchema,
      await commentRequest(t.app, member.token, post._id, text, MINIMAL),
      201,
    ).comment;
    const listed = bodyOf(
      commentPageSchema,
      await listComments(t.app, post._id, member.token),
      200,
    );
    expect(answered).toEqual(listed.comments.find((comment) => comment.id === answered.id));
    expect(answered).toMatchObject({ firstName: 'After', text });
    expect(answered.avatarURL).not.toBeNull();
    expect(answered.entities.length).toBeGreaterThan(0);
  });

  it('accepts 1,000 characters, counted as code points, and refuses blank or longer text', async () => {
    const post = await createPost(t.app, author.token, 'limits');
    for (const text of ['c'.repeat(1000), '💬'.repeat(1000)]) {
      expect((await commentRequest(t.app, commenter.token, post._id, text)).statusCode).toBe(201);
    }
    const long = await commentRequest(t.app, commenter.token, post._id, 'c'.repeat(1001));
    expectError(long, 400, 'A comment can be at most 1000 characters.');
    for (const text of ['', '   \n ']) {
      const blank = await commentRequest(t.app, commenter.token, post._id, text);
      expectError(blank, 400, 'A comment cannot be empty.');
    }
    expect((await fetchPost(t.app, post._id)).commentCount).toBe(2);
  });

  it('answers 404 for an unknown post and 401 without a token', async () => {
    expectError(
      await commentRequest(t.app, commenter.token, UNKNOWN_ID, 'hi'),
      404,
      ErrorMessages.postNotFound,
    );
    const post = await createPost(t.app, author.token, 'members only');
    expectError(
      await commentRequest(t.app, undefined, post._id, 'hi'),
      401,
      ErrorMessages.invalidToken,
    );
    expect((await fetchPost(t.app, post._id)).commentCount).toBe(0);
  });
});

describe('GET /api/comments/{postId}', () => {
  it('lists the comments oldest first, page by page', async () => {
    const post = await createPost(t.app, author.token, 'long thread');
    const written: Comment[] = [];
    for (let i = 0; i < 5; i += 1) {
      written.push(
        await addComment(t.app, i % 2 ? third.token : commenter.token, post._id, `c${i}`),
      );
      await pause(2);
    }
    const page = bodyOf(commentPageSchema, await listComments(t.app, post._id), 200);
    expect(idsOf(page.comments)).toEqual(idsOf(written));
    expect(page.nextCursor).toBeNull();
    const paged = await walk(t.app, `/api/comments/${post._id}`, 'comments', commentSchema, {
      limit: 2,
    });
    expect(idsOf(paged.items)).toEqual(idsOf(written));
    expect(paged.pages).toBeGreaterThanOrEqual(3);
  });

  it('answers an empty page for a post without comments and 404 for an unknown post', async () => {
    const post = await createPost(t.app, author.token, 'quiet');
    expect(bodyOf(commentPageSchema, await listComments(t.app, post._id), 200)).toEqual({
      comments: [],
      nextCursor: null,
    });
    expectError(await listComments(t.app, UNKNOWN_ID), 404, ErrorMessages.postNotFound);
  });

  it('still lists a comment whose author is gone, with the author fields null', async () => {
    const [leaver] = await createMembers(t.app, 1);
    const post = await createPost(t.app, author.token, 'outlives its commenters');
    const comment = await addComment(t.app, leaver.token, post._id, 'goodbye');
    await t.app.db.deleteFrom('users').where('id', '=', leaver.user._id).execute();
    const { comments } = bodyOf(commentPageSchema, await listComments(t.app, post._id), 200);
    expect(comments).toHaveLength(1);
    expect(comments[0]).toMatchObject({
      _id: comment._id,
      text: 'goodbye',
      userId: null,
      username: null,
      firstName: null,
      lastName: null,
      profileAvatar: null,
      avatarURL: null,
    });
    expect((await fetchPost(t.app, post._id)).commentCount).toBe(1);
  });
});

describe('POST /api/comments/edit/{postId}/{commentId}', () => {
  it('lets the comment’s author edit it', async () => {
    const { post, comment } = await setup();
    const body = bodyOf(
      commentMutationResponseSchema,
      await editComment(t.app, commenter.token, post._id, comment._id, 'edited'),
      201,
    );
    expect(body.comment).toMatchObject({
      _id: comment._id,
      text: 'edited',
      createdAt: comment.createdAt,
    });
    expect(body.post.commentCount).toBe(1);
    const { comments } = bodyOf(commentPageSchema, await listComments(t.app, post._id), 200);
    expect(comments[0]?.text).toBe('edited');
  });

  it('refuses anyone else, the post’s author included', async () => {
    const { post, comment } = await setup();
    for (const member of [author, third]) {
      expectError(
        await editComment(t.app, member.token, post._id, comment._id, 'mine now'),
        400,
        ErrorMessages.editCommentNotOwner,
      );
    }
    expect(
      bodyOf(commentPageSchema, await listComments(t.app, post._id), 200).comments[0]?.text,
    ).toBe('first!');
  });

  it('applies the limits of a new comment', async () => {
    const { post, comment } = await setup();
    expectError(
      await editComment(t.app, commenter.token, post._id, comment._id, ' '),
      400,
      'A comment cannot be empty.',
    );
    expectError(
      await editComment(t.app, commenter.token, post._id, comment._id, 'x'.repeat(1001)),
      400,
      'A comment can be at most 1000 characters.',
    );
  });

  it('answers 404 for unknown ids and for a comment of another post', async () => {
    const { post, comment } = await setup();
    const elsewhere = await createPost(t.app, author.token, 'elsewhere');
    expectError(
      await editComment(t.app, commenter.token, UNKNOWN_ID, comment._id, 'x'),
      404,
      ErrorMessages.postNotFound,
    );
    expectError(
      await editComment(t.app, commenter.token, post._id, UNKNOWN_ID, 'x'),
      404,
      ErrorMessages.commentNotFound,
    );
    expectError(
      await editComment(t.app, commenter.token, elsewhere._id, comment._id, 'x'),
      404,
      ErrorMessages.commentNotOnPost,
    );
    expectError(
      await editComment(t.app, undefined, post._id, comment._id, 'x'),
      401,
      ErrorMessages.invalidToken,
    );
  });
});

describe('DELETE /api/comments/delete/{postId}/{commentId}', () => {
  it('lets the comment’s author delete it and decrements the count', async () => {
    const { post, comment } = await setup();
    const body = bodyOf(
      commentDeleteResponseSchema,
      await deleteComment(t.app, commenter.token, post._id, comment._id),
      201,
    );
    expect(body.commentId).toBe(comment._id);
    expect(body.post).toMatchObject({ _id: post._id, commentCount: 0 });
    expect(body.posts).toBeDefined();
    expect(bodyOf(commentPageSchema, await listComments(t.app, post._id), 200).comments).toEqual(
      [],
    );
  });

  it('lets the post’s author delete it, and refuses a third member', async () => {
    const { post, comment } = await setup();
    expectError(
      await deleteComment(t.app, third.token, post._id, comment._id),
      400,
      ErrorMessages.deleteCommentNotOwner,
    );
    expect((await fetchPost(t.app, post._id)).commentCount).toBe(1);
    const body = bodyOf(
      commentDeleteResponseSchema,
      await deleteComment(t.app, author.token, post._id, comment._id, MINIMAL),
      201,
    );
    expect(body).toMatchObject({ commentId: comment._id, post: { commentCount: 0 } });
    expect(body.posts).toBeUndefined();
    expectError(
      await deleteComment(t.app, author.token, post._id, comment._id),
      404,
      ErrorMessages.commentNotFound,
    );
  });

  it('answers 404 for unknown ids and 401 without a token', async () => {
    const { post, comment } = await setup();
    const elsewhere = await createPost(t.app, author.token, 'elsewhere');
    expectError(
      await deleteComment(t.app, commenter.token, UNKNOWN_ID, comment._id),
      404,
      ErrorMessages.postNotFound,
    );
    expectError(
      await deleteComment(t.app, commenter.token, post._id, UNKNOWN_ID),
      404,
      ErrorMessages.commentNotFound,
    );
    expectError(
      await deleteComment(t.app, commenter.token, elsewhere._id, comment._id),
      404,
      ErrorMessages.commentNotOnPost,
    );
    expectError(
      await deleteComment(t.app, undefined, post._id, comment._id),
      401,
      ErrorMessages.invalidToken,
    );
    expect((await fetchPost(t.app, post._id)).commentCount).toBe(1);
  });
});
