import { ErrorMessages } from '@perch/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Member } from '../factories';
import { call, createTestApp, type TestApp } from '../helpers';
import {
  MINIMAL,
  addComment,
  bookmark,
  commentRequest,
  createMembers,
  createPost,
  deleteComment,
  deletePost,
  expectError,
  fetchPost,
  getUser,
  like,
  uploadImage,
} from './social-helpers';

let t: TestApp;
let author: Member;
let writer: Member;
let members: Member[];
beforeAll(async () => {
  t = await createTestApp();
  [author, writer] = await createMembers(t.app, 2);
  members = await createMembers(t.app, 8);
});
afterAll(async () => {
  await t.close();
});

const rowsFor = (table: 'likes' | 'comments' | 'bookmarks', postId: string) =>
  t.app.db.selectFrom(table).select('post_id').where('post_id', '=', postId).execute();

const editPost = (token: string, postId: string, postData: Record<string, unknown>) =>
  call(t.app, {
    method: 'POST',
    url: `/api/posts/edit/${postId}`,
    token,
    payload: { postData },
    headers: MINIMAL,
  });

const storedPost = (postId: string) =>
  t.app.db.selectFrom('posts').selectAll().where('id', '=', postId).executeTakeFirst();

describe('counts and rows under concurrent requests', () => {
  it('counts every comment added at once', async () => {
    const post = await createPost(t.app, author.token, 'busy thread');
    const responses = await Promise.all(
      members.map((m, i) => commentRequest(t.app, m.token, post._id, `comment ${i}`, MINIMAL)),
    );
    expect(responses.map((r) => r.statusCode)).toEqual(Array(members.length).fill(201));
    expect((await fetchPost(t.app, post._id)).commentCount).toBe(members.length);
    expect(await rowsFor('comments', post._id)).toHaveLength(members.length);
  });

  it('counts one removal when a comment is deleted several times at once', async () => {
    const extraSuccesses: string[] = [];
    for (let round = 0; round < 4; round += 1) {
      const post = await createPost(t.app, author.token, 'pruned thread');
      await addComment(t.app, author.token, post._id, 'stays');
      const comment = await addComment(t.app, writer.token, post._id, 'goes');
      const responses = await Promise.all(
        Array.from({ length: 5 }, (_, i) =>
          deleteComment(t.app, i % 2 ? author.token : writer.token, post._id, comment._id, MINIMAL),
        ),
      );
      expect((await fetchPost(t.app, post._id)).commentCount).toBe(1);
      expect(await rowsFor('comments', post._id)).toHaveLength(1);
      const failures = responses.filter((r) => r.statusCode !== 201);
      for (const response of failures) expectError(response, 404, ErrorMessages.commentNotFound);
      // Only one of the deletes removed the comment; the others found it gone.
      if (failures.length !== 4) extraSuccesses.push(`${5 - failures.length} x 201`);
    }
    expect(extraSuccesses, 'rounds where more than one delete answered 201').toEqual([]);
  });

  it('deletes a post once when its author deletes it several times at once', async () => {
    const before = await getUser(t.app, author.user.username);
    const extraSuccesses: string[] = [];
    for (let round = 0; round < 4; round += 1) {
      const post = await createPost(t.app, author.token, 'gone once');
      const responses = await Promise.all(
        Array.from({ length: 5 }, () => deletePost(t.app, author.token, post._id, MINIMAL)),
      );
      expect(await storedPost(post._id)).toBeUndefined();
      expect((await getUser(t.app, author.user.username)).postsCount).toBe(before.postsCount);
      const failures = responses.filter((r) => r.statusCode !== 201);
      for (const response of failures) expectError(response, 404, ErrorMessages.postNotFound);
      if (failures.length !== 4) extraSuccesses.push(`${5 - failures.length} x 201`);
    }
    expect(extraSuccesses, 'rounds where more than one delete answered 201').toEqual([]);
  });

  it('leaves nothing behind when likes, bookmarks and comments race a delete', async () => {
    for (let round = 0; round < 3; round += 1) {
      const post = await createPost(t.app, author.token, 'short-lived and popular');
      const responses = await Promise.all([
        ...members.map((m) => like(t.app, m.token, post._id, MINIMAL)),
        ...members.map((m) => bookmark(t.app, m.token, post._id, MINIMAL)),
        ...members.map((m) => commentRequest(t.app, m.token, post._id, 'quick!', MINIMAL)),
        deletePost(t.app, author.token, post._id, MINIMAL),
      ]);
      const unexpected = responses
        .filter((r) => ![200, 201, 404].includes(r.statusCode))
        .map((r) => `${r.statusCode} ${r.body}`);
      expect(unexpected, `round ${round}`).toEqual([]);
      expect(responses.at(-1)?.statusCode).toBe(201);
      expect(await storedPost(post._id)).toBeUndefined();
      for (const table of ['likes', 'comments', 'bookmarks'] as const) {
        expect(await rowsFor(table, post._id), table).toHaveLength(0);
      }
    }
  });

  it('keeps the post counts equal to the rows after a mixed burst', async () => {
    const post = await createPost(t.app, author.token, 'mixed burst');
    await Promise.all([
      ...members.map((m) => like(t.app, m.token, post._id, MINIMAL)),
      ...members.map((m) => commentRequest(t.app, m.token, post._id, 'hi', MINIMAL)),
      ...members.slice(0, 4).map((m) => like(t.app, m.token, post._id, MINIMAL)),
    ]);
    const row = await storedPost(post._id);
    expect(row?.like_count).toBe((await rowsFor('likes', post._id)).length);
    expect(row?.comment_count).toBe((await rowsFor('comments', post._id)).length);
    expect(row).toMatchObject({ like_count: members.length, comment_count: members.length });
  });

  it('never lets two racing edits leave a post with neither text nor image', async () => {
    const emptied: string[] = [];
    const bothAccepted: string[] = [];
    for (let round = 0; round < 10; round += 1) {
      const picture = await uploadImage(t.app, author.token);
      const post = await createPost(t.app, author.token, 'caption', picture);
      const [dropText, dropImage] = await Promise.all([
        editPost(author.token, post._id, { content: '' }),
        editPost(author.token, post._id, { mediaURL: null }),
      ]);
      for (const response of [dropText, dropImage]) {
        expect([201, 400], response.body).toContain(response.statusCode);
      }
      const stored = await fetchPost(t.app, post._id);
      if (stored.content.trim() === '' && !stored.mediaURL) emptied.push(post._id);
      // One after the other, the second edit would empty the post and be refused.
      if (dropText.statusCode === 201 && dropImage.statusCode === 201) bothAccepted.push(post._id);
    }
    expect(emptied, 'posts left with neither text nor image').toEqual([]);
    expect(bothAccepted, 'posts where both conflicting edits answered 201').toEqual([]);
  });
});
