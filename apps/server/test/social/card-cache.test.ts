import {
  bookmarkMutationResponseSchema,
  commentMutationResponseSchema,
  postPageSchema,
  postResponseSchema,
  type Post,
  type PublishedEvent,
} from '@perch/contract';
import { sql } from 'kysely';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isPostgres } from '../../src/platform/db/dialect';
import { createPostViewCache } from '../../src/read-model/post/view-cache';
import { dropViews } from '../drop-views';
import { listPostKeys } from '../../src/modules/posts/posts.repository';
import { createMemberSummaries } from '../../src/read-model/member/summaries';
import { testDatabaseKind } from '../test-database';
import type { Member } from '../factories';
import { call, createTestApp, type TestApp } from '../helpers';
import {
  MINIMAL,
  addComment,
  bodyOf,
  bookmark,
  commentRequest,
  createMembers,
  createPost,
  deletePost,
  dislike,
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
    // A write's answer takes the author from the same kept stubs.
    const unliked = await dislike(t.app, liker.token, post._id, MINIMAL);
    expect(bodyOf(postResponseSchema, unliked, 201).post.author.firstName).toBe('Renamed');
  });
});

describe("a write's answer", () => {
  // Each write reads only the mark it does not settle with the post (a like reads the bookmark);
  // a comment's answer takes both from the marks kept for the reader.
  const marksOf = (answer: Post) => [answer.likedByViewer, answer.bookmarkedByViewer];
  const posted = async (response: Promise<LightMyRequestResponse>) =>
    marksOf(bodyOf(postResponseSchema, await response, 201).post);
  const bookmarked = async (response: Promise<LightMyRequestResponse>) =>
    marksOf(bodyOf(bookmarkMutationResponseSchema, await response, 200).post);
  const commented = async (token: string) =>
    marksOf(
      bodyOf(
        commentMutationResponseSchema,
        await commentRequest(t.app, token, marked._id, 'a word', MINIMAL),
        201,
      ).post,
    );
  let marked: Post;

  it("shows the reader's other mark on the post", async () => {
    marked = await createPost(t.app, author.token, 'to be marked');
    expect(await bookmarked(bookmark(t.app, reader.token, marked._id, MINIMAL))).toEqual([
      false,
      true,
    ]);
    expect(await posted(like(t.app, reader.token, marked._id, MINIMAL))).toEqual([true, true]);
    expect(await bookmarked(removeBookmark(t.app, reader.token, marked._id, MINIMAL))).toEqual([
      true,
      false,
    ]);
    expect(await posted(dislike(t.app, reader.token, marked._id, MINIMAL))).toEqual([false, false]);
    expect(await bookmarked(bookmark(t.app, reader.token, marked._id, MINIMAL))).toEqual([
      false,
      true,
    ]);
  });

  it("shows a commenter's own marks, kept or read, and no one else's", async () => {
    expect(await commented(reader.token)).toEqual([false, true]);
    expect(await posted(like(t.app, reader.token, marked._id, MINIMAL))).toEqual([true, true]);
    expect(await commented(reader.token)).toEqual([true, true]);
    expect(await bookmarked(removeBookmark(t.app, reader.token, marked._id, MINIMAL))).toEqual([
      true,
      false,
    ]);
    expect(await commented(reader.token)).toEqual([true, false]);
    expect(await commented(liker.token)).toEqual([false, false]);
  });
});

describe('cards read by the rows a list found', () => {
  const authorsKeys = (userId: string) =>
    listPostKeys(t.app.reads, {
      viewerId: null,
      filter: { kind: 'author', userId },
      sort: 'latest',
      after: null,
      limit: 5,
      hidden: [],
    });

  const freshCards = () => {
    const authors = createMemberSummaries({ reads: t.app.reads, max: 10 });
    return createPostViewCache({ reads: t.app.reads, max: 10, compactMax: 10, authors });
  };

  it('are the posts listed, with their authors', async () => {
    const [writer] = await createMembers(t.app, 1);
    const older = await createPost(t.app, writer.token, 'older words');
    const newer = await createPost(t.app, writer.token, 'newer words');
    const keys = await authorsKeys(writer.user._id);
    expect(keys.ids).toEqual([newer._id, older._id]);
    expect(keys.rows === null).toBe(isPostgres(t.app.reads));

    const views = await freshCards().of(keys.ids, keys.rows);
    expect([...views.keys()].sort()).toEqual([newer._id, older._id].sort());
    expect(views.get(older._id)?.shared).toMatchObject({
      content: 'older words',
      author: { username: writer.user.username, firstName: writer.user.firstName },
    });
  });

  it.runIf(testDatabaseKind() === 'sqlite')(
    'leave out a post deleted since, whose row another post has taken',
    async () => {
      const [writer] = await createMembers(t.app, 1);
      const gone = await createPost(t.app, writer.token, 'soon gone');
      const keys = await authorsKeys(writer.user._id);
      expect(await deletePost(t.app, writer.token, gone._id, MINIMAL)).toHaveProperty(
        'statusCode',
        201,
      );
      // SQLite numbers a new row after the highest one left: the newest post's row is reused.
      const taker = await createPost(t.app, writer.token, 'in its place');
      const { rows } = await sql<{
        rowid: number;
      }>`select rowid from posts where id = ${taker._id}`.execute(t.app.reads);
      expect(rows[0]?.rowid).toBe(keys.rows?.[0]);

      const views = await freshCards().of(keys.ids, keys.rows);
      expect(views.size).toBe(0);
    },
  );
});

describe('cards that no longer fit whole', () => {
  const edited = (postId: string, authorId: string): PublishedEvent => ({
    id: 1,
    createdAt: Date.now(),
    type: 'post.edited',
    payload: { postId, authorId, previousMediaURL: null, previousMediaURLs: [] },
  });
  const profileEdited = (userId: string): PublishedEvent => ({
    id: 2,
    createdAt: Date.now(),
    type: 'profile.edited',
    payload: { userId, previousAvatarURL: null },
  });

  /** Rewrites the posts' text in the database, with no event: what a kept card must not show yet. */
  const rewriteBehindTheBack = (postIds: string[], content: string) =>
    t.app.db.updateTable('posts').set({ content }).where('id', 'in', postIds).execute();

  /**
   * A writer's two posts read into cards keeping one whole (each kept on its second read), the
   * first pushed out by the second; then the first's row rewritten behind the cache's back.
   */
  async function pushedOutThenRewritten(compactMax: number) {
    const [writer] = await createMembers(t.app, 1);
    const first = await createPost(t.app, writer.token, 'first as written 🐦');
    const second = await createPost(t.app, writer.token, 'second as written');
    const authors = createMemberSummaries({ reads: t.app.reads, max: 10 });
    const cards = createPostViewCache({ reads: t.app.reads, max: 1, compactMax, authors });
    for (const id of [first._id, first._id, second._id, second._id]) await cards.of([id]);
    await rewriteBehindTheBack([first._id], 'first behind the back');
    const contentOf = async (post: Post) =>
      (await cards.of([post._id])).get(post._id)?.shared.content;
    return { writer, first, second, cards, contentOf };
  }

  it('are kept packed and served as they were, until an event drops them', async () => {
    const { writer, first, second, cards, contentOf } = await pushedOutThenRewritten(10);
    // Not read again: the packed card is the post as it was kept.
    expect(await contentOf(first)).toBe('first as written 🐦');
    expect(await contentOf(second)).toBe('second as written');
    dropViews(cards, edited(first._id, writer.user._id));
    expect(await contentOf(first)).toBe('first behind the back');
  });

  it("are dropped when their author's profile changes", async () => {
    const { writer, first, cards, contentOf } = await pushedOutThenRewritten(10);
    expect(await contentOf(first)).toBe('first as written 🐦');
    dropViews(cards, profileEdited(writer.user._id));
    expect(await contentOf(first)).toBe('first behind the back');
  });

  /**
   * One card kept whole and one packed (`kept` pushed out by `other`), `readsOfOther` reads of
   * `other` and `readsOfKept` of `kept` after that; then both rows rewritten behind the cache's
   * back, and a third post kept, which packs the whole card and drops the packed one.
   */
  async function packedCardReadAgain(readsOfOther: number, readsOfKept: number) {
    const [writer] = await createMembers(t.app, 1);
    const kept = await createPost(t.app, writer.token, 'kept');
    const other = await createPost(t.app, writer.token, 'other');
    const fresh = await createPost(t.app, writer.token, 'fresh');
    const authors = createMemberSummaries({ reads: t.app.reads, max: 10 });
    const cards = createPostViewCache({ reads: t.app.reads, max: 1, compactMax: 1, authors });
    const read = async (post: Post) => (await cards.of([post._id])).get(post._id)?.shared.content;
    for (const post of [kept, kept, other, other]) await read(post);
    for (let time = 0; time < readsOfOther; time += 1) await read(other);
    for (let time = 0; time < readsOfKept; time += 1) await read(kept);
    await rewriteBehindTheBack([kept._id, other._id], 'behind the back');
    for (const post of [fresh, fresh]) await read(post);
    return { kept: await read(kept), other: await read(other) };
  }

  it('are kept whole again once read more often than the card they would push out', async () => {
    expect(await packedCardReadAgain(1, 2)).toEqual({ kept: 'kept', other: 'behind the back' });
  });

  it('stay packed while read less often than the card they would push out', async () => {
    expect(await packedCardReadAgain(3, 1)).toEqual({ kept: 'behind the back', other: 'other' });
  });

  it('are read again when none are kept packed', async () => {
    const { first, contentOf } = await pushedOutThenRewritten(0);
    expect(await contentOf(first)).toBe('first behind the back');
  });
});
