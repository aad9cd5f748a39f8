import { ErrorMessages, postMutationResponseSchema } from '@perch/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Member } from '../factories';
import { createTestApp, type TestApp } from '../helpers';
import {
  MINIMAL,
  UNKNOWN_ID,
  bodyOf,
  createMembers,
  createPost,
  dislike,
  expectError,
  keysOf,
  fetchPost,
  like,
} from './social-helpers';

let t: TestApp;
let author: Member;
let viewer: Member;
let other: Member;
beforeAll(async () => {
  t = await createTestApp();
  [author, viewer, other] = await createMembers(t.app, 3);
});
afterAll(async () => {
  await t.close();
});

const likeRows = (postId: string) =>
  t.app.db.selectFrom('likes').selectAll().where('post_id', '=', postId).execute();

const storedCount = async (postId: string) =>
  (
    await t.app.db
      .selectFrom('posts')
      .select('like_count')
      .where('id', '=', postId)
      .executeTakeFirstOrThrow()
  ).like_count;

describe('POST /api/posts/like/{postId}', () => {
  it('answers 201 with the liked post and the first page of posts', async () => {
    const post = await createPost(t.app, author.token, 'likeable');
    const body = bodyOf(postMutationResponseSchema, await like(t.app, viewer.token, post._id), 201);
    expect(body.post).toMatchObject({
      _id: post._id,
      likes: {
        likeCount: 1,
        likedBy: [{ _id: viewer.user._id, id: viewer.user._id, username: viewer.user.username }],
        dislikedBy: [],
      },
      likedByViewer: true,
    });
    expect(body.posts).toBeDefined();
    expect(body.posts?.find((p) => p._id === post._id)?.likedByViewer).toBe(true);
    expect(await likeRows(post._id)).toHaveLength(1);
    expect(await storedCount(post._id)).toBe(1);
  });

  it('answers only the post with Prefer: return=minimal', async () => {
    const post = await createPost(t.app, author.token, 'minimal like');
    const response = await like(t.app, viewer.token, post._id, MINIMAL);
    expect(bodyOf(postMutationResponseSchema, response, 201).post.likedByViewer).toBe(true);
    expect(keysOf(response)).toEqual(['post']);
  });

  it('refuses a second like from the same member and keeps the count', async () => {
    const post = await createPost(t.app, author.token, 'like me once');
    expect((await like(t.app, viewer.token, post._id)).statusCode).toBe(201);
    // The product's wording, trailing space included.
    expectError(
      await like(t.app, viewer.token, post._id),
      400,
      'Cannot like a post that is already liked. ',
    );
    expect((await fetchPost(t.app, post._id)).likes.likeCount).toBe(1);
    expect(await likeRows(post._id)).toHaveLength(1);
  });

  it('counts likes of different members, and shows each viewer only their own', async () => {
    const post = await createPost(t.app, author.token, 'popular');
    expect((await like(t.app, viewer.token, post._id)).statusCode).toBe(201);
    const second = bodyOf(
      postMutationResponseSchema,
      await like(t.app, other.token, post._id),
      201,
    );
    expect(second.post.likes.likeCount).toBe(2);
    expect(second.post.likes.likedBy).toEqual([
      { _id: other.user._id, id: other.user._id, username: other.user.username },
    ]);
    const seenByAuthor = await fetchPost(t.app, post._id, author.token);
    expect(seenByAuthor).toMatchObject({
      likedByViewer: false,
      likes: { likeCount: 2, likedBy: [] },
    });
  });

  it('lets the author like their own post', async () => {
    const post = await createPost(t.app, author.token, 'self-love');
    const body = bodyOf(postMutationResponseSchema, await like(t.app, author.token, post._id), 201);
    expect(body.post.likes.likeCount).toBe(1);
  });

  it('answers 404 for an unknown post and 401 without a token', async () => {
    expectError(await like(t.app, viewer.token, UNKNOWN_ID), 404, ErrorMessages.postNotFound);
    const post = await createPost(t.app, author.token, 'no anonymous likes');
    expectError(await like(t.app, undefined, post._id), 401, ErrorMessages.invalidToken);
    expect(await likeRows(post._id)).toHaveLength(0);
  });
});

describe('POST /api/posts/dislike/{postId}', () => {
  it('takes the like back: 201 with the count decremented', async () => {
    const post = await createPost(t.app, author.token, 'changed my mind');
    await like(t.app, viewer.token, post._id);
    await like(t.app, other.token, post._id);
    const body = bodyOf(
      postMutationResponseSchema,
      await dislike(t.app, viewer.token, post._id),
      201,
    );
    expect(body.post).toMatchObject({
      likes: { likeCount: 1, likedBy: [], dislikedBy: [] },
      likedByViewer: false,
    });
    expect(body.posts).toBeDefined();
    expect((await likeRows(post._id)).map((row) => row.user_id)).toEqual([other.user._id]);
    expect(await storedCount(post._id)).toBe(1);
  });

  it('lets a member like again after disliking', async () => {
    const post = await createPost(t.app, author.token, 'back and forth');
    for (let round = 0; round < 3; round += 1) {
      expect((await like(t.app, viewer.token, post._id)).statusCode).toBe(201);
      expect((await dislike(t.app, viewer.token, post._id)).statusCode).toBe(201);
    }
    expect((await fetchPost(t.app, post._id)).likes.likeCount).toBe(0);
  });

  it('refuses to go below zero when nobody likes the post', async () => {
    const post = await createPost(t.app, author.token, 'unloved');
    expectError(
      await dislike(t.app, viewer.token, post._id),
      400,
      'Cannot decrement like less than 0.',
    );
    expect((await fetchPost(t.app, post._id)).likes.likeCount).toBe(0);
  });

  it('refuses a dislike from a member who does not like a post others like', async () => {
    const post = await createPost(t.app, author.token, 'liked by others');
    await like(t.app, other.token, post._id);
    expectError(
      await dislike(t.app, viewer.token, post._id),
      400,
      'Cannot dislike a post that is already disliked. ',
    );
    expect((await fetchPost(t.app, post._id)).likes.likeCount).toBe(1);
    expect(await likeRows(post._id)).toHaveLength(1);
  });

  it('answers 404 for an unknown post and 401 without a token', async () => {
    expectError(await dislike(t.app, viewer.token, UNKNOWN_ID), 404, ErrorMessages.postNotFound);
    const post = await createPost(t.app, author.token, 'guarded');
    await like(t.app, viewer.token, post._id);
    expectError(await dislike(t.app, undefined, post._id), 401, ErrorMessages.invalidToken);
    expect((await fetchPost(t.app, post._id)).likes.likeCount).toBe(1);
  });
});

describe('likes under concurrent requests', () => {
  it('counts 20 members liking one post at once', async () => {
    const likers = await createMembers(t.app, 20);
    const post = await createPost(t.app, author.token, 'viral');
    const responses = await Promise.all(likers.map((m) => like(t.app, m.token, post._id, MINIMAL)));
    expect(responses.map((r) => r.statusCode)).toEqual(Array(20).fill(201));
    expect((await fetchPost(t.app, post._id)).likes.likeCount).toBe(20);
    expect(await likeRows(post._id)).toHaveLength(20);
    expect(await storedCount(post._id)).toBe(20);

    const undo = await Promise.all(likers.map((m) => dislike(t.app, m.token, post._id, MINIMAL)));
    expect(undo.map((r) => r.statusCode)).toEqual(Array(20).fill(201));
    expect(await storedCount(post._id)).toBe(0);
    expect(await likeRows(post._id)).toHaveLength(0);
  });

  it('counts one like when a member likes ten times at once', async () => {
    const post = await createPost(t.app, author.token, 'double tap');
    const responses = await Promise.all(
      Array.from({ length: 10 }, () => like(t.app, viewer.token, post._id, MINIMAL)),
    );
    const statuses = responses.map((r) => r.statusCode);
    expect(statuses.filter((s) => s === 201)).toHaveLength(1);
    expect(statuses.filter((s) => s === 400)).toHaveLength(9);
    for (const response of responses.filter((r) => r.statusCode === 400)) {
      expectError(response, 400, ErrorMessages.alreadyLiked);
    }
    expect((await fetchPost(t.app, post._id)).likes.likeCount).toBe(1);
    expect(await likeRows(post._id)).toHaveLength(1);
  });

  it('never lets the count drift below the likes when dislikes race', async () => {
    const post = await createPost(t.app, author.token, 'race to zero');
    await like(t.app, viewer.token, post._id);
    const responses = await Promise.all(
      Array.from({ length: 10 }, () => dislike(t.app, viewer.token, post._id, MINIMAL)),
    );
    expect(responses.filter((r) => r.statusCode === 201)).toHaveLength(1);
    expect(responses.filter((r) => r.statusCode === 400)).toHaveLength(9);
    expect(await storedCount(post._id)).toBe(0);
    expect(await likeRows(post._id)).toHaveLength(0);
  });
});
