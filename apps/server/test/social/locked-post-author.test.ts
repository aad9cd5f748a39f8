import { postResponseSchema } from '@perch/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '../../src/lib/ids';
import { createTestApp, type TestApp } from '../helpers';
import { insertMembers } from './bulk';
import { MINIMAL, bodyOf, createMembers, like } from './social-helpers';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

describe("a post's author, read for a change", () => {
  it('is read within the write even when no stub of them is kept, however many writes at once', async () => {
    // Written straight to the database: no process has read these authors yet. More writes
    // than the test pool's five connections run at once, each holding its transaction.
    const authors = await insertMembers(t.app, 12);
    const now = Date.now();
    const posts = authors.map((userId, index) => ({
      id: newId(now),
      user_id: userId,
      content: `post ${String(index)}`,
      created_at: now,
      updated_at: now,
    }));
    await t.app.db.insertInto('posts').values(posts).execute();
    const likers = await createMembers(t.app, 12);

    const answers = await Promise.all(
      posts.map((post, index) => like(t.app, likers[index]?.token, post.id, MINIMAL)),
    );
    const liked = answers.map((answer) => bodyOf(postResponseSchema, answer, 201).post);
    expect(liked.map((post) => post.author._id)).toEqual(authors);
    expect(liked.every((post) => post.likes.likeCount === 1 && post.likedByViewer)).toBe(true);
  });
});
