import {
  ErrorMessages,
  bookmarkMutationResponseSchema,
  bookmarkPageSchema,
  postSchema,
  type Post,
} from '@perch/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Member } from '../factories';
import { call, createTestApp, type TestApp } from '../helpers';
import {
  MINIMAL,
  UNKNOWN_ID,
  bodyOf,
  bookmark,
  createMembers,
  createPost,
  expectError,
  fetchPost,
  idsOf,
  keysOf,
  pause,
  removeBookmark,
  walk,
} from './social-helpers';

let t: TestApp;
let author: Member;
let reader: Member;
let other: Member;
beforeAll(async () => {
  t = await createTestApp();
  [author, reader, other] = await createMembers(t.app, 3);
});
afterAll(async () => {
  await t.close();
});

const bookmarkRows = (userId: string) =>
  t.app.db.selectFrom('bookmarks').selectAll().where('user_id', '=', userId).execute();

const listBookmarks = (token: string | undefined, query = '') =>
  call(t.app, { method: 'GET', url: `/api/users/bookmark${query}`, token });

describe('POST /api/users/bookmark/{postId}', () => {
  it('answers 200 with the post flagged and the first page of bookmarks', async () => {
    const post = await createPost(t.app, author.token, 'worth keeping');
    const body = bodyOf(
      bookmarkMutationResponseSchema,
      await bookmark(t.app, reader.token, post._id),
      200,
    );
    expect(body.post).toMatchObject({ _id: post._id, bookmarkedByViewer: true });
    expect(body.bookmarks?.[0]?._id).toBe(post._id);
    expect(body.bookmarks?.[0]?.bookmarkedByViewer).toBe(true);
    expect((await fetchPost(t.app, post._id, reader.token)).bookmarkedByViewer).toBe(true);
    expect((await fetchPost(t.app, post._id, other.token)).bookmarkedByViewer).toBe(false);
  });

  it('answers only the post with Prefer: return=minimal', async () => {
    const post = await createPost(t.app, author.token, 'minimal bookmark');
    const response = await bookmark(t.app, reader.token, post._id, MINIMAL);
    expect(bodyOf(bookmarkMutationResponseSchema, response, 200).post.bookmarkedByViewer).toBe(
      true,
    );
    expect(keysOf(response)).toEqual(['post']);
  });

  it('refuses the same bookmark twice', async () => {
    const post = await createPost(t.app, author.token, 'once is enough');
    expect((await bookmark(t.app, reader.token, post._id)).statusCode).toBe(200);
    expectError(
      await bookmark(t.app, reader.token, post._id),
      400,
      ErrorMessages.alreadyBookmarked,
    );
    const rows = (await bookmarkRows(reader.user._id)).filter((row) => row.post_id === post._id);
    expect(rows).toHaveLength(1);
  });

  it('keeps one bookmark when the same member bookmarks five times at once', async () => {
    const post = await createPost(t.app, author.token, 'eager');
    const responses = await Promise.all(
      Array.from({ length: 5 }, () => bookmark(t.app, other.token, post._id, MINIMAL)),
    );
    expect(responses.filter((r) => r.statusCode === 200)).toHaveLength(1);
    expect(responses.filter((r) => r.statusCode === 400)).toHaveLength(4);
    const rows = (await bookmarkRows(other.user._id)).filter((row) => row.post_id === post._id);
    expect(rows).toHaveLength(1);
  });

  it('answers 404 for an unknown post and 401 without a token', async () => {
    expectError(await bookmark(t.app, reader.token, UNKNOWN_ID), 404, ErrorMessages.postNotFound);
    const post = await createPost(t.app, author.token, 'private list');
    expectError(await bookmark(t.app, undefined, post._id), 401, ErrorMessages.invalidToken);
    expectError(await bookmark(t.app, 'garbage', post._id), 401, ErrorMessages.invalidToken);
  });
});

describe('POST /api/users/remove-bookmark/{postId}', () => {
  it('answers 200 with the post unflagged and the bookmarks without it', async () => {
    const post = await createPost(t.app, author.token, 'temporary');
    await bookmark(t.app, reader.token, post._id);
    const response = await removeBookmark(t.app, reader.token, post._id);
    const body = bodyOf(bookmarkMutationResponseSchema, response, 200);
    expect(body.post).toMatchObject({ _id: post._id, bookmarkedByViewer: false });
    expect(body.bookmarks).toBeDefined();
    expect(idsOf(body.bookmarks ?? [])).not.toContain(post._id);
    const rows = (await bookmarkRows(reader.user._id)).filter((row) => row.post_id === post._id);
    expect(rows).toHaveLength(0);
  });

  it('refuses to remove a bookmark that is not there', async () => {
    const post = await createPost(t.app, author.token, 'never kept');
    expectError(
      await removeBookmark(t.app, reader.token, post._id),
      400,
      ErrorMessages.notBookmarked,
    );
    await bookmark(t.app, reader.token, post._id);
    expect((await removeBookmark(t.app, reader.token, post._id, MINIMAL)).statusCode).toBe(200);
    expectError(
      await removeBookmark(t.app, reader.token, post._id),
      400,
      ErrorMessages.notBookmarked,
    );
  });

  it("leaves other members' bookmarks of the post alone", async () => {
    const post = await createPost(t.app, author.token, 'shared favourite');
    await bookmark(t.app, reader.token, post._id);
    await bookmark(t.app, other.token, post._id);
    await removeBookmark(t.app, reader.token, post._id);
    expect((await fetchPost(t.app, post._id, other.token)).bookmarkedByViewer).toBe(true);
  });

  it('answers 404 for an unknown post and 401 without a token', async () => {
    expectError(
      await removeBookmark(t.app, reader.token, UNKNOWN_ID),
      404,
      ErrorMessages.postNotFound,
    );
    const post = await createPost(t.app, author.token, 'still mine');
    await bookmark(t.app, reader.token, post._id);
    expectError(await removeBookmark(t.app, undefined, post._id), 401, ErrorMessages.invalidToken);
    expect((await fetchPost(t.app, post._id, reader.token)).bookmarkedByViewer).toBe(true);
  });
});

describe('GET /api/users/bookmark', () => {
  it('lists the viewer’s bookmarks, newest bookmark first, page by page', async () => {
    const [collector] = await createMembers(t.app, 1);
    const posts: Post[] = [];
    for (let i = 0; i < 5; i += 1) posts.push(await createPost(t.app, author.token, `post ${i}`));
    // Bookmarked in an order unrelated to the posts' own ages.
    const order = [posts[2], posts[0], posts[4], posts[1], posts[3]].map((p) => p?._id ?? '');
    for (const postId of order) {
      expect((await bookmark(t.app, collector.token, postId, MINIMAL)).statusCode).toBe(200);
      await pause(5);
    }
    const expected = [...order].reverse();

    const firstPage = bodyOf(bookmarkPageSchema, await listBookmarks(collector.token), 200);
    expect(idsOf(firstPage.bookmarks)).toEqual(expected);
    expect(firstPage.nextCursor).toBeNull();
    for (const post of firstPage.bookmarks) expect(post.bookmarkedByViewer).toBe(true);

    const paged = await walk(t.app, '/api/users/bookmark', 'bookmarks', postSchema, {
      token: collector.token,
      limit: 2,
    });
    expect(idsOf(paged.items)).toEqual(expected);
    expect(paged.pages).toBeGreaterThanOrEqual(3);
  });

  it('answers an empty page for a member without bookmarks', async () => {
    const [newcomer] = await createMembers(t.app, 1);
    const page = bodyOf(bookmarkPageSchema, await listBookmarks(newcomer.token), 200);
    expect(page).toEqual({ bookmarks: [], nextCursor: null });
  });

  it('refuses bad paging and answers 401 without a token', async () => {
    expectError(await listBookmarks(undefined), 401, ErrorMessages.invalidToken);
    for (const query of ['?limit=0', '?limit=51', '?cursor=garbage']) {
      const response = await listBookmarks(reader.token, query);
      expect(response.statusCode, query).toBe(400);
    }
  });
});
