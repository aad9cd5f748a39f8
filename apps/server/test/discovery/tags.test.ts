import {
  SearchErrors,
  TRENDING_TAGS_MAX,
  postSchema,
  tagListSchema,
  trendingTagsSchema,
  type Post,
} from '@perch/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMember, type Member } from '../factories';
import { call, createTestApp, type TestApp } from '../helpers';
import {
  addComment,
  bodyOf,
  createPost,
  deletePost,
  expectError,
  idsOf,
  walk,
  withQuery,
} from '../social/social-helpers';
import { editPost, tagPageOf, tagState, tagUrl } from './discovery-helpers';

let t: TestApp;
let members: Member[];
beforeAll(async () => {
  t = await createTestApp();
  members = [];
  for (let i = 0; i < 4; i += 1)
    members.push(await createMember(t.app, { username: `tagger_${i}` }));
});
afterAll(async () => {
  await t.close();
});

const member = (i: number): Member => {
  const found = members[i];
  if (!found) throw new Error(`no member ${i}`);
  return found;
};

const get = (url: string) => call(t.app, { method: 'GET', url });

const cursorOf = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

async function tagList(query: Record<string, string | number>) {
  return bodyOf(tagListSchema, await get(withQuery('/api/tags', query)), 200).tags;
}

async function trending(limit?: number) {
  return bodyOf(trendingTagsSchema, await get(withQuery('/api/trends/tags', { limit })), 200).tags;
}

const trendOf = async (tag: string) => (await trending()).find((each) => each.tag === tag);

describe('tag pages', () => {
  it('lists the tag’s posts newest first, page by page', async () => {
    const posts: Post[] = [];
    for (let i = 0; i < 5; i += 1) {
      posts.push(await createPost(t.app, member(i % 2).token, `walk #WalkMe ${i}`));
      await createPost(t.app, member(2).token, `not tagged walkme ${i}`);
    }
    const { items, pages } = await walk(t.app, tagUrl('walkme'), 'posts', postSchema, { limit: 2 });
    expect(idsOf(items)).toEqual(idsOf(posts).reverse());
    expect(pages).toBe(3);
    const first = await tagPageOf(t.app, 'walkme', { limit: 2 });
    expect(first.tag).toEqual({ tag: 'walkme', postCount: 5 });
    expect(first.nextCursor).not.toBeNull();
  });

  it('reads the tag of the path without case, with or without #, in any script', async () => {
    const post = await createPost(t.app, member(0).token, '#Perch #Café #日本語 #Ünïcödé #ﬁsh');
    const lower = (await get(tagUrl('perch'))).json<unknown>();
    for (const path of ['Perch', 'PERCH', '#perch']) {
      expect((await get(tagUrl(path))).json<unknown>(), path).toEqual(lower);
    }
    const cases: [string, string][] = [
      ['CAFÉ', 'café'],
      ['Cafe\u0301', 'café'],
      ['日本語', '日本語'],
      ['ÜNÏCÖDÉ', 'ünïcödé'],
      ['FISH', 'fish'],
      ['ﬁsh', 'fish'],
    ];
    for (const [path, tag] of cases) {
      const page = await tagPageOf(t.app, path);
      expect(page.tag, path).toEqual({ tag, postCount: 1 });
      expect(idsOf(page.posts), path).toEqual([post._id]);
    }
    expect(await tagPageOf(t.app, 'nosuchtag')).toEqual({
      tag: { tag: 'nosuchtag', postCount: 0 },
      posts: [],
      nextCursor: null,
    });
  });

  it('refuses what cannot be a tag, forged cursors and bad limits', async () => {
    for (const path of [
      '123',
      '%23',
      '%23%23',
      'a'.repeat(300),
      'a'.repeat(65),
      'a%20b',
      'a-b',
      '%F0%9F%98%80',
    ]) {
      expectError(await get(`/api/tags/${path}`), 400, SearchErrors.badTag);
    }
    for (const cursor of [
      'garbage!!',
      cursorOf([1]),
      cursorOf(['a\u0000']),
      cursorOf(['a', 'b']),
    ]) {
      expectError(await get(withQuery(tagUrl('perch'), { cursor })), 400, 'cursor is invalid.');
    }
    expectError(
      await get(withQuery(tagUrl('perch'), { limit: 0 })),
      400,
      'limit must be at least 1.',
    );
    expectError(
      await get(withQuery(tagUrl('perch'), { limit: 51 })),
      400,
      'limit must be at most 50.',
    );
  });
});

describe('tag search', () => {
  it('lists tags starting with the prefix, most posts first', async () => {
    const uses: [string, number][] = [
      ['pfxalpha', 3],
      ['pfxbeta', 1],
      ['pfxgamma', 2],
      ['pfxdelta', 1],
    ];
    for (const [tag, count] of uses) {
      for (let i = 0; i < count; i += 1) await createPost(t.app, member(i).token, `#${tag} ${i}`);
    }
    await createPost(t.app, member(0).token, '#otherpfx #2024goals');
    const expected = [
      { tag: 'pfxalpha', postCount: 3 },
      { tag: 'pfxgamma', postCount: 2 },
      { tag: 'pfxbeta', postCount: 1 },
      { tag: 'pfxdelta', postCount: 1 },
    ];
    expect(await tagList({ q: 'pfx' })).toEqual(expected);
    expect(await tagList({ q: '#PFX' })).toEqual(expected);
    expect(await tagList({ q: 'pfx', limit: 2 })).toEqual(expected.slice(0, 2));
    expect(await tagList({ q: 'pfxg' })).toEqual([{ tag: 'pfxgamma', postCount: 2 }]);
    expect(await tagList({ q: 'pfxalpha' })).toEqual([{ tag: 'pfxalpha', postCount: 3 }]);
    expect(await tagList({ q: 'pfxalphab' })).toEqual([]);
    expect(await tagList({ q: '20' })).toEqual([{ tag: '2024goals', postCount: 1 }]);
    const all = await tagList({ q: '', limit: 50 });
    expect(all.map((each) => each.postCount)).toEqual(
      all.map((each) => each.postCount).sort((a, b) => b - a),
    );
    expect(all.map((each) => each.tag)).toEqual(expect.arrayContaining(['pfxalpha', 'otherpfx']));
    expectError(await get(withQuery('/api/tags', { q: 'a b' })), 400, SearchErrors.badTag);
    expectError(
      await get(withQuery('/api/tags', { q: 'x'.repeat(300) })),
      400,
      SearchErrors.badTag,
    );
  });
});

describe('trending tags', () => {
  it('trends a tag two members used, counting each member once', async () => {
    await createPost(t.app, member(0).token, 'first #TwoMembers');
    expect(await trendOf('twomembers')).toBeUndefined();
    await createPost(t.app, member(1).token, 'second #twomembers');
    await createPost(t.app, member(1).token, 'again #twomembers');
    expect(await trendOf('twomembers')).toEqual({
      tag: 'twomembers',
      postCount: 3,
      memberCount: 2,
    });
  });

  it('does not trend a tag one member used twenty times; a comment by another does', async () => {
    const posts: Post[] = [];
    for (let i = 0; i < 20; i += 1)
      posts.push(await createPost(t.app, member(2).token, `#solo ${i}`));
    await addComment(t.app, member(2).token, posts[0]?._id ?? '', 'me again #solo');
    expect(await trendOf('solo')).toBeUndefined();
    expect((await tagState(t.app, 'solo')).postCount).toBe(20);
    await addComment(t.app, member(3).token, posts[0]?._id ?? '', 'me too #Solo');
    expect(await trendOf('solo')).toEqual({ tag: 'solo', postCount: 20, memberCount: 2 });
  });

  it('leaves out uses older than 24 hours', async () => {
    const old = [
      await createPost(t.app, member(0).token, 'long ago #oldnews'),
      await createPost(t.app, member(1).token, 'long ago too #oldnews'),
    ];
    const comment = await addComment(t.app, member(2).token, old[0]?._id ?? '', 'old #oldnews');
    expect(await trendOf('oldnews')).toMatchObject({ memberCount: 3 });
    const dayAgo = Date.now() - 25 * 60 * 60 * 1000;
    await t.app.db
      .updateTable('post_tags')
      .set({ created_at: dayAgo })
      .where('post_id', 'in', idsOf(old))
      .execute();
    await t.app.db
      .updateTable('comment_tags')
      .set({ created_at: dayAgo })
      .where('comment_id', '=', comment._id)
      .execute();
    expect(await trendOf('oldnews')).toBeUndefined();
    await createPost(t.app, member(2).token, 'now #oldnews');
    expect(await trendOf('oldnews')).toBeUndefined();
    await createPost(t.app, member(3).token, 'now too #oldnews');
    expect(await trendOf('oldnews')).toEqual({ tag: 'oldnews', postCount: 4, memberCount: 2 });
  });

  it('follows edits and deletes, ranks more members first and bounds the limit', async () => {
    const kept = await createPost(t.app, member(0).token, '#fleeting');
    const edited = await createPost(t.app, member(1).token, '#fleeting');
    expect(await trendOf('fleeting')).toMatchObject({ memberCount: 2 });
    await editPost(t.app, member(1).token, edited._id, 'changed my mind');
    expect(await trendOf('fleeting')).toBeUndefined();
    await editPost(t.app, member(1).token, edited._id, 'back to #fleeting');
    expect(await trendOf('fleeting')).toMatchObject({ memberCount: 2 });
    expect((await deletePost(t.app, member(0).token, kept._id)).statusCode).toBe(201);
    expect(await trendOf('fleeting')).toBeUndefined();

    for (let i = 0; i < 3; i += 1) await createPost(t.app, member(i).token, '#threeway');
    const tags = (await trending()).map((each) => each.tag);
    expect(tags[0]).toBe('threeway');
    expect(tags.length).toBeLessThanOrEqual(TRENDING_TAGS_MAX);
    expect(await trending(1)).toEqual([{ tag: 'threeway', postCount: 3, memberCount: 3 }]);
    expectError(await get('/api/trends/tags?limit=0'), 400, 'limit must be at least 1.');
    expectError(
      await get(`/api/trends/tags?limit=${TRENDING_TAGS_MAX + 1}`),
      400,
      `limit must be at most ${TRENDING_TAGS_MAX}.`,
    );
  });
});
