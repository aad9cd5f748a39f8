import { postPageSchema, type Post } from '@perch/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Member } from '../factories';
import { call, createTestApp, type TestApp } from '../helpers';
import {
  MINIMAL,
  addComment,
  bodyOf,
  bookmark,
  createMembers,
  createPost,
  like,
  removeBookmark,
} from './social-helpers';

let t: TestApp;
let author: Member;
let reader: Member;
let liker: Member;
let post: Post;

/** The author's posts as the reader sees them, read often enough for their cards to be kept. */
async function authorsPost(): Promise<Post> {
  let found: Post | undefined;
  for (let read = 0; read < 3; read += 1) {
    const response = await call(t.app, {
      method: 'GET',
      url: `/api/posts/user/${author.user.username}`,
      token: reader.token,
      headers: MINIMAL,
    });
    found = bodyOf(postPageSchema, response, 200).posts.find((p) => p._id === post._id);
  }
  if (!found) throw new Error('the post is not listed');
  return found;
}

beforeAll(async () => {
  t = await createTestApp();
  [author, reader, liker] = await createMembers(t.app, 3);
  post = await createPost(t.app, author.token, 'first words');
});
afterAll(() => t.close());

describe('kept post cards and flags', () => {
  it("show another member's like at once", async () => {
    expect((await authorsPost()).likes.likeCount).toBe(0);
    expect(await like(t.app, liker.token, post._id)).toHaveProperty('statusCode', 201);
    const seen = await authorsPost();
    expect(seen.likes.likeCount).toBe(1);
    expect(seen.likedByViewer).toBe(false);
  });

  it("show the reader's own like and bookmark at once, and their undoing", async () => {
    await like(t.app, reader.token, post._id);
    await bookmark(t.app, reader.token, post._id);
    const marked = await authorsPost();
    expect(marked).toMatchObject({ likedByViewer: true, bookmarkedByViewer: true });
    expect(marked.likes.likeCount).toBe(2);
    await removeBookmark(t.app, reader.token, post._id);
    expect((await authorsPost()).bookmarkedByViewer).toBe(false);
  });

  it('show an edit, a comment and a profile change', async () => {
    const edited = await call(t.app, {
      method: 'POST',
      url: `/api/posts/edit/${post._id}`,
      token: author.token,
      payload: { postData: { content: 'second thoughts' } },
      headers: MINIMAL,
    });
    expect(edited.statusCode).toBe(201);
    expect((await authorsPost()).content).toBe('second thoughts');

    await addComment(t.app, liker.token, post._id, 'nice');
    expect((await authorsPost()).commentCount).toBe(1);

    const profile = await call(t.app, {
      method: 'POST',
      url: '/api/users/edit',
      token: author.token,
      payload: { userData: { firstName: 'Renamed', lastName: author.user.lastName } },
    });
    expect(profile.statusCode).toBe(200);
    // Other processes hear of it through the relay; this one too.
    await t.app.services.relay.drain();
    expect((await authorsPost()).author.firstName).toBe('Renamed');
  });
});
