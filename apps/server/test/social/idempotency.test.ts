import {
  IDEMPOTENCY_HEADER,
  IdempotencyErrors,
  commentMutationResponseSchema,
  postMutationResponseSchema,
} from '@perch/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMember, type Member } from '../factories';
import { call, createTestApp, type TestApp } from '../helpers';
import { MINIMAL, bodyOf, deletePost, expectError, postRequest } from './social-helpers';

let t: TestApp;
let author: Member;
let other: Member;
beforeAll(async () => {
  t = await createTestApp();
  author = await createMember(t.app);
  other = await createMember(t.app);
});
afterAll(async () => {
  await t.close();
});

let keySequence = 0;
const freshKey = () =>
  `key-${String(process.pid)}-${String((keySequence += 1))}-${String(Date.now())}`;

const createWithKey = (member: Member, content: string, key: string) =>
  postRequest(t.app, member.token, { content }, { ...MINIMAL, [IDEMPOTENCY_HEADER]: key });

const commentWithKey = (member: Member, postId: string, text: string, key: string) =>
  call(t.app, {
    method: 'POST',
    url: `/api/comments/add/${postId}`,
    token: member.token,
    payload: { commentData: { text } },
    headers: { ...MINIMAL, [IDEMPOTENCY_HEADER]: key },
  });

const postsOf = async (member: Member, content: string) =>
  (
    await t.app.db
      .selectFrom('posts')
      .select('id')
      .where('user_id', '=', member.user._id)
      .where('content', '=', content)
      .execute()
  ).map((row) => row.id);

const commentsOn = async (postId: string) =>
  (await t.app.db.selectFrom('comments').select('id').where('post_id', '=', postId).execute()).map(
    (row) => row.id,
  );

describe('Idempotency-Key on creates', () => {
  it('answers the first post to a retry with the same key, and makes it once', async () => {
    const key = freshKey();
    const first = bodyOf(
      postMutationResponseSchema,
      await createWithKey(author, 'Once only', key),
      201,
    );
    const again = bodyOf(
      postMutationResponseSchema,
      await createWithKey(author, 'Once only', key),
      201,
    );
    expect(again.post._id).toBe(first.post._id);
    expect(await postsOf(author, 'Once only')).toEqual([first.post._id]);
    const counted = await t.app.db
      .selectFrom('users')
      .select('posts_count')
      .where('id', '=', author.user._id)
      .executeTakeFirstOrThrow();
    const rows = await t.app.db
      .selectFrom('posts')
      .select((eb) => eb.fn.countAll<number | string>().as('n'))
      .where('user_id', '=', author.user._id)
      .executeTakeFirstOrThrow();
    expect(counted.posts_count).toBe(Number(rows.n));
  });

  it('makes one post of many retries sent at once', async () => {
    const key = freshKey();
    const answers = await Promise.all(
      Array.from({ length: 8 }, () => createWithKey(author, 'Raced', key)),
    );
    const ids = answers.map((answer) => bodyOf(postMutationResponseSchema, answer, 201).post._id);
    expect(new Set(ids).size).toBe(1);
    expect(await postsOf(author, 'Raced')).toEqual([ids[0]]);
  });

  it('keeps keys apart by member, and different keys make different posts', async () => {
    const key = freshKey();
    const mine = bodyOf(
      postMutationResponseSchema,
      await createWithKey(author, 'Shared key', key),
      201,
    );
    const theirs = bodyOf(
      postMutationResponseSchema,
      await createWithKey(other, 'Shared key', key),
      201,
    );
    expect(theirs.post._id).not.toBe(mine.post._id);
    const second = bodyOf(
      postMutationResponseSchema,
      await createWithKey(author, 'Shared key', freshKey()),
      201,
    );
    expect(second.post._id).not.toBe(mine.post._id);
    expect(await postsOf(author, 'Shared key')).toHaveLength(2);
  });

  it('creates anew when the post the key made was deleted', async () => {
    const key = freshKey();
    const first = bodyOf(postMutationResponseSchema, await createWithKey(author, 'Gone', key), 201);
    expect((await deletePost(t.app, author.token, first.post._id)).statusCode).toBe(201);
    const again = bodyOf(postMutationResponseSchema, await createWithKey(author, 'Gone', key), 201);
    expect(again.post._id).not.toBe(first.post._id);
    expect(await postsOf(author, 'Gone')).toEqual([again.post._id]);
  });

  it('answers the first comment to a retry, also when sent at once', async () => {
    const post = bodyOf(
      postMutationResponseSchema,
      await createWithKey(author, 'Comment here', freshKey()),
      201,
    ).post;
    const key = freshKey();
    const answers = await Promise.all(
      Array.from({ length: 6 }, () => commentWithKey(other, post._id, 'Just once', key)),
    );
    const ids = answers.map(
      (answer) => bodyOf(commentMutationResponseSchema, answer, 201).comment._id,
    );
    expect(new Set(ids).size).toBe(1);
    expect(await commentsOn(post._id)).toEqual([ids[0]]);
    const stored = await t.app.db
      .selectFrom('posts')
      .select('comment_count')
      .where('id', '=', post._id)
      .executeTakeFirstOrThrow();
    expect(stored.comment_count).toBe(1);
  });

  it('refuses a key used for another kind of create, or on another post, and a malformed key', async () => {
    const key = freshKey();
    const post = bodyOf(
      postMutationResponseSchema,
      await createWithKey(author, 'Kinds', key),
      201,
    ).post;
    expectError(
      await commentWithKey(author, post._id, 'reuse', key),
      422,
      IdempotencyErrors.reused,
    );
    const commentKey = freshKey();
    expect((await commentWithKey(author, post._id, 'first', commentKey)).statusCode).toBe(201);
    const elsewhere = bodyOf(
      postMutationResponseSchema,
      await createWithKey(author, 'Elsewhere', freshKey()),
      201,
    ).post;
    expectError(
      await commentWithKey(author, elsewhere._id, 'first', commentKey),
      422,
      IdempotencyErrors.reused,
    );
    expectError(await createWithKey(author, 'Kinds', commentKey), 422, IdempotencyErrors.reused);
    for (const bad of ['short', 'has space in it', 'x'.repeat(101), 'ünïcode-key-here']) {
      expectError(await createWithKey(author, 'Bad key', bad), 400, IdempotencyErrors.invalid);
    }
    expect(await postsOf(author, 'Bad key')).toEqual([]);
  });

  it('forgets keys past their time', async () => {
    const key = freshKey();
    const first = bodyOf(
      postMutationResponseSchema,
      await createWithKey(author, 'Old key', key),
      201,
    );
    await t.app.db
      .updateTable('idempotency_keys')
      .set({ created_at: Date.now() - 25 * 60 * 60 * 1000 })
      .where('key', '=', key)
      .execute();
    expect(await t.app.services.idempotency.prune()).toBeGreaterThanOrEqual(1);
    const again = bodyOf(
      postMutationResponseSchema,
      await createWithKey(author, 'Old key', key),
      201,
    );
    expect(again.post._id).not.toBe(first.post._id);
  });
});
