import { ErrorMessages, postPageSchema, postSchema, type Post } from '@perch/contract';
import type { Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../src/platform/db/schema';
import { listPostKeys, type PostListQuery } from '../../src/modules/posts/posts.repository';
import type { Member } from '../factories';
import { firstQuerySent, sqlitePlanOf } from '../first-query';
import { call, createTestApp, type TestApp } from '../helpers';
import { testDatabaseKind } from '../test-database';
import {
  MINIMAL,
  bodyOf,
  createMembers,
  createPost,
  dislike,
  expectClientError,
  expectError,
  follow,
  idsOf,
  unfollow,
  like,
  pause,
  walk,
  withQuery,
} from './social-helpers';

let t: TestApp;
let viewer: Member;
let followed: Member;
let stranger: Member;
let other: Member;
/** Every post, in the order written; createdAt strictly increases along it. */
const written: Post[] = [];
const byAuthor = (member: Member) => written.filter((p) => p.userId === member.user._id);
const likesOf = new Map<string, number>();

const page = async (url: string, token?: string) =>
  bodyOf(postPageSchema, await call(t.app, { method: 'GET', url, token }), 200);
const sortedIds = (posts: Post[]) => idsOf(posts).sort();

beforeAll(async () => {
  t = await createTestApp();
  [viewer, followed, stranger, other] = await createMembers(t.app, 4);
  await follow(t.app, viewer.token, followed.user._id);
  await follow(t.app, followed.token, stranger.user._id);
  const authors = [followed, stranger, viewer, other, followed, stranger, viewer, followed];
  for (const [i, member] of authors.entries()) {
    written.push(await createPost(t.app, member.token, `post ${i} by ${member.user.username}`));
    await pause(3);
  }
  // Likes per post index: 0→2, 2→1, 3→3, 5→2, 7→1; the rest none.
  const likers = [viewer, followed, stranger, other];
  for (const [index, count] of [
    [0, 2],
    [2, 1],
    [3, 3],
    [5, 2],
    [7, 1],
  ] as const) {
    const post = written[index];
    if (!post) throw new Error('missing post');
    for (const member of likers.slice(0, count)) {
      expect((await like(t.app, member.token, post._id, MINIMAL)).statusCode).toBe(201);
    }
    likesOf.set(post._id, count);
  }
});
afterAll(async () => {
  await t.close();
});

describe('who sees which posts', () => {
  it('feed: the viewer’s and followed members’ posts only', async () => {
    const { items } = await walk(t.app, '/api/posts/feed', 'posts', postSchema, {
      token: viewer.token,
    });
    const visible = new Set([viewer.user._id, followed.user._id]);
    const expected = written.filter((p) => visible.has(p.userId)).reverse();
    expect(idsOf(items)).toEqual(idsOf(expected));
  });

  it('explore: only posts of members the viewer does not follow', async () => {
    const { items } = await walk(t.app, '/api/posts/explore', 'posts', postSchema, {
      token: viewer.token,
    });
    expect(sortedIds(items)).toEqual(sortedIds([...byAuthor(stranger), ...byAuthor(other)]));
    const forFollowed = await walk(t.app, '/api/posts/explore', 'posts', postSchema, {
      token: followed.token,
    });
    expect(sortedIds(forFollowed.items)).toEqual(
      sortedIds([...byAuthor(viewer), ...byAuthor(other)]),
    );
  });

  it('liked: exactly the posts the viewer likes, flagged as liked', async () => {
    const expected = [0, 2, 3, 5, 7].map((i) => written[i]).filter((p) => p !== undefined);
    const { items } = await walk(t.app, '/api/posts/liked', 'posts', postSchema, {
      token: viewer.token,
    });
    expect(sortedIds(items)).toEqual(sortedIds(expected));
    for (const post of items) expect(post.likedByViewer).toBe(true);

    const { items: ofStranger } = await walk(t.app, '/api/posts/liked', 'posts', postSchema, {
      token: stranger.token,
    });
    expect(idsOf(ofStranger)).toEqual([written[3]?._id]);
    const { items: ofOther } = await walk(t.app, '/api/posts/liked', 'posts', postSchema, {
      token: other.token,
    });
    expect(ofOther).toEqual([]);

    const unliked = written[7];
    if (!unliked) throw new Error('missing post');
    expect((await dislike(t.app, viewer.token, unliked._id, MINIMAL)).statusCode).toBe(201);
    const after = await page('/api/posts/liked', viewer.token);
    expect(idsOf(after.posts)).not.toContain(unliked._id);
    expect((await like(t.app, viewer.token, unliked._id, MINIMAL)).statusCode).toBe(201);
  });

  it('user: that member’s posts, whatever the case of the name', async () => {
    const name = followed.user.username.toUpperCase();
    const { items, pages } = await walk(t.app, `/api/posts/user/${name}`, 'posts', postSchema);
    expect(idsOf(items)).toEqual(idsOf(byAuthor(followed)).reverse());
    // Two a page: the last page is the last one holding posts, none empty after it.
    expect(pages).toBe(Math.ceil(items.length / 2));
    const oldest = await walk(t.app, `/api/posts/user/${name}`, 'posts', postSchema, {
      query: { sort: 'oldest' },
    });
    expect(idsOf(oldest.items)).toEqual(idsOf(byAuthor(followed)));
    expect(oldest.pages).toBe(pages);
    const unknown = await call(t.app, { method: 'GET', url: '/api/posts/user/nobody_here' });
    expectError(unknown, 404, ErrorMessages.userNotFound);
  });

  it('all posts are open to anyone; the personal lists need a token', async () => {
    const { items } = await walk(t.app, '/api/posts', 'posts', postSchema);
    expect(idsOf(items)).toEqual(idsOf(written).reverse());
    for (const post of items) expect(post.likedByViewer).toBe(false);
    for (const path of ['feed', 'explore', 'liked']) {
      const response = await call(t.app, { method: 'GET', url: `/api/posts/${path}` });
      expectError(response, 401, ErrorMessages.invalidToken);
    }
    // An open call with a bad token is refused rather than answered anonymously.
    const badToken = await call(t.app, { method: 'GET', url: '/api/posts', token: 'garbage' });
    expectError(badToken, 401, ErrorMessages.invalidToken);
  });
});

describe('explore for a member who follows nearly everyone', () => {
  it('is read author by author, with the same posts as the scan of newest posts', async () => {
    const members = [viewer, followed, stranger, other];
    const db = t.app.reads;
    for (const member of members) {
      for (const sort of ['latest', 'trending', 'oldest'] as const) {
        const query = (kind: 'explore' | 'unfollowed') => ({
          viewerId: member.user._id,
          filter: { kind, viewerId: member.user._id },
          sort,
          after: null,
          limit: 3,
          hidden: [],
        });
        const scanned = await listPostKeys(db, query('explore'));
        expect(await listPostKeys(db, query('unfollowed')), sort).toEqual(scanned);
        const last = written.find((post) => post._id === scanned.ids[2]);
        if (!last || sort === 'trending') continue;
        const after = [Date.parse(last.createdAt), last._id] as const;
        expect(await listPostKeys(db, { ...query('unfollowed'), after })).toEqual(
          await listPostKeys(db, { ...query('explore'), after }),
        );
      }
    }
  });

  it('is empty for a member who follows everyone, and lists the one they do not follow', async () => {
    const [fan] = await createMembers(t.app, 1);
    for (const member of [viewer, followed, stranger]) {
      expect((await follow(t.app, fan.token, member.user._id)).statusCode).toBe(200);
    }
    const explore = async () =>
      (await walk(t.app, '/api/posts/explore', 'posts', postSchema, { token: fan.token })).items;
    expect(sortedIds(await explore())).toEqual(sortedIds(byAuthor(other)));
    expect((await follow(t.app, fan.token, other.user._id)).statusCode).toBe(200);
    expect(await explore()).toEqual([]);
    expect((await unfollow(t.app, fan.token, other.user._id)).statusCode).toBe(200);
    expect(sortedIds(await explore())).toEqual(sortedIds(byAuthor(other)));
  });
});

/** SQLite's plan for the keys query listPostKeys sends. */
async function keysPlan(db: Kysely<Database>, query: PostListQuery): Promise<string> {
  return sqlitePlanOf(db, await firstQuerySent(db, (catching) => listPostKeys(catching, query)));
}

describe('explore read from the index of newest posts', () => {
  // PostgreSQL keeps the narrow index (see migration 0022).
  it.runIf(testDatabaseKind() === 'sqlite')('finds each post’s author in the index', async () => {
    const db = t.app.reads;
    const query = (after: PostListQuery['after'], hidden: string[]): PostListQuery => ({
      viewerId: viewer.user._id,
      filter: { kind: 'explore', viewerId: viewer.user._id },
      sort: 'latest',
      after,
      limit: 3,
      hidden,
    });
    const newest = written.at(-1);
    if (!newest) throw new Error('no posts');
    for (const plan of [
      await keysPlan(db, query(null, [])),
      await keysPlan(db, query([Date.parse(newest.createdAt), newest._id], [other.user._id])),
    ]) {
      expect(plan).toMatch(/(SCAN|SEARCH) p USING COVERING INDEX posts_created_idx\b/);
      expect(plan).not.toMatch(/TEMP B-TREE/);
    }
  });
});

describe('sorting', () => {
  const expectedTrending = () =>
    [...written]
      .reverse()
      .sort((a, b) => (likesOf.get(b._id) ?? 0) - (likesOf.get(a._id) ?? 0))
      .map((p) => p._id);

  it.each(['/api/posts', '/api/posts/feed', '/api/posts/explore'])(
    'orders %s latest, oldest and trending, in one page or many',
    async (url) => {
      const whole = await page(withQuery(url, { limit: 50 }), viewer.token);
      const ids = idsOf(whole.posts);
      expect(whole.nextCursor).toBeNull();
      const latest = idsOf(written)
        .reverse()
        .filter((id) => ids.includes(id));
      expect(ids).toEqual(latest);
      const oldest = await page(withQuery(url, { sort: 'oldest', limit: 50 }), viewer.token);
      expect(idsOf(oldest.posts)).toEqual([...latest].reverse());
      const trending = await page(withQuery(url, { sort: 'trending', limit: 50 }), viewer.token);
      expect(idsOf(trending.posts)).toEqual(expectedTrending().filter((id) => ids.includes(id)));
      for (const post of trending.posts) {
        expect(post.likes.likeCount).toBe(likesOf.get(post._id) ?? 0);
      }

      for (const sort of ['latest', 'oldest', 'trending']) {
        const single = await page(withQuery(url, { sort, limit: 50 }), viewer.token);
        const walked = await walk(t.app, url, 'posts', postSchema, {
          token: viewer.token,
          limit: 2,
          query: { sort },
        });
        expect(idsOf(walked.items), sort).toEqual(idsOf(single.posts));
        expect(walked.pages).toBeGreaterThanOrEqual(Math.ceil(single.posts.length / 2));
      }
    },
  );

  it('puts ties in likes newest first', async () => {
    const trending = await page('/api/posts?sort=trending&limit=50');
    const twoLikes = trending.posts.filter((p) => p.likes.likeCount === 2);
    expect(twoLikes).toHaveLength(2);
    expect(idsOf(twoLikes)).toEqual([written[5]?._id, written[0]?._id]);
    expect(trending.posts[0]?._id).toBe(written[3]?._id);
  });
});

describe('paging while posts arrive', () => {
  it('latest: newer posts neither push older ones off nor repeat them', async () => {
    const [author] = await createMembers(t.app, 1);
    const before = idsOf((await page('/api/posts?limit=50')).posts);
    const first = await page('/api/posts?limit=2');
    expect(idsOf(first.posts)).toEqual(before.slice(0, 2));
    expect(first.nextCursor).not.toBeNull();
    const arrived: Post[] = [];
    for (let i = 0; i < 3; i += 1) arrived.push(await createPost(t.app, author.token, `late ${i}`));

    const rest = await walk(t.app, '/api/posts', 'posts', postSchema, {
      limit: 2,
      cursor: first.nextCursor ?? '',
    });
    expect(idsOf(rest.items)).toEqual(before.slice(2));
    const fresh = idsOf((await page('/api/posts?limit=50')).posts);
    expect(fresh.slice(0, 3)).toEqual(idsOf(arrived).reverse());
  });

  it('oldest: posts that arrive meanwhile come at the end, once', async () => {
    const [author] = await createMembers(t.app, 1);
    const before = idsOf((await page('/api/posts?sort=oldest&limit=50')).posts);
    const first = await page('/api/posts?sort=oldest&limit=3');
    const late = await createPost(t.app, author.token, 'late to the party');
    const rest = await walk(t.app, '/api/posts', 'posts', postSchema, {
      limit: 2,
      query: { sort: 'oldest' },
      cursor: first.nextCursor ?? '',
    });
    expect([...idsOf(first.posts), ...idsOf(rest.items)]).toEqual([...before, late._id]);
  });
});

describe('paging parameters', () => {
  it.each([
    ['limit=0', 'limit must be at least 1.'],
    ['limit=51', 'limit must be at most 50.'],
    ['limit=2.5', 'limit must be a whole number.'],
    ['sort=popular', 'sort must be latest, oldest or trending.'],
  ])('answers 400 for %s', async (query, message) => {
    for (const url of [
      '/api/posts',
      '/api/posts/feed',
      `/api/posts/user/${viewer.user.username}`,
    ]) {
      const response = await call(t.app, {
        method: 'GET',
        url: `${url}?${query}`,
        token: viewer.token,
      });
      expect(response.statusCode, url).toBe(400);
      expect(response.json<{ errors: string[] }>().errors).toEqual([message]);
    }
  });

  it('answers 400 for a cursor it did not issue', async () => {
    for (const cursor of ['garbage', 'eyJ4IjoxfQ', '%00%01', 'a'.repeat(201)]) {
      for (const sort of ['latest', 'oldest', 'trending']) {
        const url = `/api/posts?sort=${sort}&cursor=${cursor}`;
        expectClientError(await call(t.app, { method: 'GET', url }), 400);
      }
    }
  });

  it('defaults to 20 posts a page and allows 50', async () => {
    const [author] = await createMembers(t.app, 1);
    for (let i = 0; i < 15; i += 1) await createPost(t.app, author.token, `filler ${i}`);
    const total = (await t.app.db.selectFrom('posts').select('id').execute()).length;
    expect(total).toBeGreaterThan(20);
    const first = await page('/api/posts');
    expect(first.posts).toHaveLength(20);
    expect(first.nextCursor).not.toBeNull();
    expect((await page('/api/posts?limit=50')).posts).toHaveLength(Math.min(total, 50));
  });
});
