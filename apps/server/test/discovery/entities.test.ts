import {
  ENTITIES_MAX,
  commentMutationResponseSchema,
  commentPageSchema,
  postPageSchema,
  tagListSchema,
  type Entity,
  type Post,
} from '@perch/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMember, type Member } from '../factories';
import { call, createTestApp, type TestApp } from '../helpers';
import {
  addComment,
  bodyOf,
  createPost,
  deleteComment,
  deletePost,
  editComment,
  fetchPost,
  listComments,
} from '../social/social-helpers';
import {
  distinctTags,
  editPost,
  mentionAt,
  mentionRowsOf,
  postTagRowCount,
  searchIds,
  storedCountOf,
  storedEntitiesOf,
  tagAt,
  tagNamesOf,
  tagPageOf,
  tagRowsOf,
  tagState,
} from './discovery-helpers';

let t: TestApp;
let alice: Member;
let bob: Member;
let carol: Member;
beforeAll(async () => {
  t = await createTestApp();
  alice = await createMember(t.app, { username: 'alice_a' });
  bob = await createMember(t.app, { username: 'Bob_Caps' });
  carol = await createMember(t.app, { username: 'carol_c' });
});
afterAll(async () => {
  await t.close();
});

const pageEntities = async (url: string, token: string | undefined, postId: string) => {
  const page = bodyOf(postPageSchema, await call(t.app, { method: 'GET', url, token }), 200);
  return page.posts.find((post) => post._id === postId)?.entities;
};

/** The post's entities in every answer that carries it, and its rows, equal `expected`. */
async function expectPostEntities(post: Post, expected: Entity[]) {
  expect(post.entities).toEqual(expected);
  expect((await fetchPost(t.app, post._id)).entities).toEqual(expected);
  expect((await fetchPost(t.app, post._id, bob.token)).entities).toEqual(expected);
  expect(await pageEntities('/api/posts?limit=50', undefined, post._id)).toEqual(expected);
  expect(await pageEntities('/api/posts/user/alice_a?limit=50', undefined, post._id)).toEqual(
    expected,
  );
  expect(await pageEntities('/api/posts/feed?limit=50', alice.token, post._id)).toEqual(expected);
  expect(await storedEntitiesOf(t.app, 'post', post._id)).toEqual(expected);
  const rows = await tagRowsOf(t.app, 'post', post._id);
  expect(rows.map((row) => row.tag)).toEqual(distinctTags(expected));
  for (const row of rows) {
    expect(row).toMatchObject({
      author_id: alice.user._id,
      created_at: Date.parse(post.createdAt),
    });
  }
  const mentioned = expected.flatMap((entity) =>
    entity.type === 'mention' ? [entity.userId] : [],
  );
  expect(await mentionRowsOf(t.app, 'post', post._id)).toEqual([...new Set(mentioned)].sort());
}

describe('entities of posts', () => {
  it('answers what was written: tags normalised, known members with their id and name', async () => {
    const text =
      'Hi #Café and #CAFÉ, ask @bob_caps (not @ghost_member) 😀 #日本語 me@example.com #123 @BOB_CAPS';
    const post = await createPost(t.app, alice.token, text);
    const expected: Entity[] = [
      tagAt(text, '#Café', 'café'),
      tagAt(text, '#CAFÉ', 'café'),
      mentionAt(text, '@bob_caps', bob),
      tagAt(text, '#日本語', '日本語'),
      mentionAt(text, '@BOB_CAPS', bob),
    ];
    expect(expected[2]).toMatchObject({ username: 'Bob_Caps', userId: bob.user._id });
    await expectPostEntities(post, expected);
    const page = await tagPageOf(t.app, 'café');
    expect(page.tag).toEqual({ tag: 'café', postCount: 1 });
    expect(page.posts.map((each) => each.entities)).toEqual([expected]);
    expect(await searchIds(t.app, 'ask')).toEqual([post._id]);
    expect(await storedCountOf(t.app, '日本語')).toBe(1);
  });

  it('stores no entities for plain text', async () => {
    const post = await createPost(t.app, alice.token, 'just words, a#b and x@y.org');
    await expectPostEntities(post, []);
    const row = await t.app.db
      .selectFrom('posts')
      .select('entities')
      .where('id', '=', post._id)
      .executeTakeFirst();
    expect(row?.entities).toBeNull();
  });

  it('keeps at most ENTITIES_MAX distinct tags of a post', async () => {
    const names = Array.from({ length: ENTITIES_MAX + 10 }, (_, i) => `many${i}`);
    const post = await createPost(t.app, alice.token, names.map((name) => `#${name}`).join(' '));
    expect(distinctTags(post.entities)).toEqual(names.slice(0, ENTITIES_MAX).sort());
    expect(await tagNamesOf(t.app, 'post', post._id)).toEqual(names.slice(0, ENTITIES_MAX).sort());
    expect(await tagState(t.app, `many${ENTITIES_MAX - 1}`)).toEqual({
      postCount: 1,
      posts: [post._id],
    });
    expect(await tagState(t.app, `many${ENTITIES_MAX}`)).toEqual({ postCount: 0, posts: [] });
  });

  it('follows an edit: tag pages, counts, rows and mentions', async () => {
    const mine = await createPost(t.app, alice.token, '#alpha and #beta');
    const theirs = await createPost(t.app, carol.token, 'also #Beta');
    expect(await tagState(t.app, 'beta')).toEqual({ postCount: 2, posts: [theirs._id, mine._id] });

    const text = '#beta, #Gamma for @carol_c and @nobody_at_all';
    const edited = await editPost(t.app, alice.token, mine._id, text);
    await expectPostEntities(edited, [
      tagAt(text, '#beta', 'beta'),
      tagAt(text, '#Gamma', 'gamma'),
      mentionAt(text, '@carol_c', carol),
    ]);
    expect(await tagState(t.app, 'alpha')).toEqual({ postCount: 0, posts: [] });
    expect(await tagState(t.app, 'beta')).toEqual({ postCount: 2, posts: [theirs._id, mine._id] });
    expect(await tagState(t.app, 'gamma')).toEqual({ postCount: 1, posts: [mine._id] });
    expect(await storedCountOf(t.app, 'alpha')).toBeNull();
    expect(await storedCountOf(t.app, 'beta')).toBe(2);
    const listed = bodyOf(
      tagListSchema,
      await call(t.app, { method: 'GET', url: '/api/tags?q=alp' }),
      200,
    );
    expect(listed.tags).toEqual([]);

    const plain = await editPost(t.app, alice.token, mine._id, 'no tags any more');
    await expectPostEntities(plain, []);
    expect(await tagState(t.app, 'gamma')).toEqual({ postCount: 0, posts: [] });
    expect(await tagState(t.app, 'beta')).toEqual({ postCount: 1, posts: [theirs._id] });
    expect(await postTagRowCount(t.app, 'beta')).toBe(1);
  });

  it('resolves a mention of a member who signed up after the post when it is edited', async () => {
    const text = 'waiting for @late_comer';
    const post = await createPost(t.app, alice.token, text);
    expect(post.entities).toEqual([]);
    const late = await createMember(t.app, { username: 'Late_Comer' });
    expect((await fetchPost(t.app, post._id)).entities).toEqual([]);
    const edited = await editPost(t.app, alice.token, post._id, text);
    await expectPostEntities(edited, [mentionAt(text, '@late_comer', late)]);
  });

  it('takes a deleted post off its tag pages and counts', async () => {
    const kept = await createPost(t.app, carol.token, '#delta stays');
    const post = await createPost(t.app, alice.token, '#delta #epsilon @carol_c');
    expect(await tagState(t.app, 'delta')).toEqual({ postCount: 2, posts: [post._id, kept._id] });
    expect((await deletePost(t.app, alice.token, post._id)).statusCode).toBe(201);
    expect(await tagState(t.app, 'delta')).toEqual({ postCount: 1, posts: [kept._id] });
    expect(await tagState(t.app, 'epsilon')).toEqual({ postCount: 0, posts: [] });
    expect(await storedCountOf(t.app, 'epsilon')).toBeNull();
    expect(await tagRowsOf(t.app, 'post', post._id)).toEqual([]);
    expect(await mentionRowsOf(t.app, 'post', post._id)).toEqual([]);
  });
});

describe('entities of comments', () => {
  const commentEntities = async (postId: string, commentId: string) => {
    const page = bodyOf(commentPageSchema, await listComments(t.app, postId), 200);
    const listed = page.comments.find((comment) => comment._id === commentId)?.entities;
    const post = await fetchPost(t.app, postId);
    const embedded = post.comments?.find((comment) => comment._id === commentId)?.entities;
    return { listed, embedded, stored: await storedEntitiesOf(t.app, 'comment', commentId) };
  };

  it('answers and records comment tags and mentions, outside the post counts', async () => {
    const post = await createPost(t.app, alice.token, 'a sunny day');
    const text = 'Nice #Sunset, @alice_a and @ghost_member #sunset 🌅#glow';
    const comment = await addComment(t.app, bob.token, post._id, text);
    const expected = [
      tagAt(text, '#Sunset', 'sunset'),
      mentionAt(text, '@alice_a', alice),
      tagAt(text, '#sunset', 'sunset'),
      tagAt(text, '#glow', 'glow'),
    ];
    expect(comment.entities).toEqual(expected);
    expect(await commentEntities(post._id, comment._id)).toEqual({
      listed: expected,
      embedded: expected,
      stored: expected,
    });
    const rows = await tagRowsOf(t.app, 'comment', comment._id);
    expect(rows.map((row) => row.tag)).toEqual(['glow', 'sunset']);
    for (const row of rows) {
      expect(row).toMatchObject({
        author_id: bob.user._id,
        created_at: Date.parse(comment.createdAt),
      });
    }
    expect(await mentionRowsOf(t.app, 'comment', comment._id)).toEqual([alice.user._id]);
    // Tag pages and their counts are of posts.
    expect(await tagState(t.app, 'sunset')).toEqual({ postCount: 0, posts: [] });

    const newText = 'Rather #Dawn with @carol_c';
    const response = await editComment(t.app, bob.token, post._id, comment._id, newText);
    const edited = bodyOf(commentMutationResponseSchema, response, 201).comment;
    const after = [tagAt(newText, '#Dawn', 'dawn'), mentionAt(newText, '@carol_c', carol)];
    expect(edited.entities).toEqual(after);
    expect(await commentEntities(post._id, comment._id)).toEqual({
      listed: after,
      embedded: after,
      stored: after,
    });
    expect(await tagNamesOf(t.app, 'comment', comment._id)).toEqual(['dawn']);
    expect(await mentionRowsOf(t.app, 'comment', comment._id)).toEqual([carol.user._id]);

    expect((await deleteComment(t.app, bob.token, post._id, comment._id)).statusCode).toBe(201);
    expect(await tagRowsOf(t.app, 'comment', comment._id)).toEqual([]);
    expect(await mentionRowsOf(t.app, 'comment', comment._id)).toEqual([]);
  });

  it('drops the rows of comments with their post', async () => {
    const post = await createPost(t.app, alice.token, '#parent post');
    const comment = await addComment(t.app, carol.token, post._id, '#child for @Bob_Caps');
    expect(await tagNamesOf(t.app, 'comment', comment._id)).toEqual(['child']);
    expect((await deletePost(t.app, alice.token, post._id)).statusCode).toBe(201);
    expect(await tagRowsOf(t.app, 'comment', comment._id)).toEqual([]);
    expect(await mentionRowsOf(t.app, 'comment', comment._id)).toEqual([]);
    expect(await tagRowsOf(t.app, 'post', post._id)).toEqual([]);
    expect(await tagState(t.app, 'parent')).toEqual({ postCount: 0, posts: [] });
  });
});
