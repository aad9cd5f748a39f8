import { postPageSchema, postSchema, type Post } from '@perch/contract';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOnDemandAuthors } from '../../src/modules/timelines/on-demand-authors';
import type { Member } from '../factories';
import { call, createTestApp, type TestApp } from '../helpers';
import {
  bodyOf,
  createMembers,
  createPost,
  deletePost,
  follow,
  idsOf,
  like,
  unfollow,
  walk,
} from './social-helpers';

/** Home as the query over follows computes it: the member's and their followees' posts. */
async function pullIds(app: FastifyInstance, userId: string): Promise<string[]> {
  const rows = await app.db
    .selectFrom('posts')
    .select('id')
    .where((eb) =>
      eb.or([
        eb('user_id', '=', userId),
        eb(
          'user_id',
          'in',
          eb.selectFrom('follows').select('followee_id').where('follower_id', '=', userId),
        ),
      ]),
    )
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .execute();
  return rows.map((row) => row.id);
}

async function entriesOf(app: FastifyInstance, userId: string): Promise<string[]> {
  const rows = await app.db
    .selectFrom('home_timeline_entries')
    .select('post_id')
    .where('user_id', '=', userId)
    .orderBy('post_id', 'desc')
    .execute();
  return rows.map((row) => row.post_id);
}

async function floorOf(app: FastifyInstance, userId: string): Promise<string | undefined> {
  const row = await app.db
    .selectFrom('home_timelines')
    .select('floor')
    .where('user_id', '=', userId)
    .executeTakeFirst();
  return row?.floor;
}

async function homeIds(app: FastifyInstance, member: Member, sort = 'latest'): Promise<string[]> {
  const { items } = await walk(app, '/api/posts/feed', 'posts', postSchema, {
    token: member.token,
    limit: 7,
    query: { sort },
  });
  return idsOf(items);
}

/** Reads Home once, which starts the member's timeline, and waits until it is built. */
async function startTimeline(app: FastifyInstance, member: Member): Promise<void> {
  const response = await call(app, { method: 'GET', url: '/api/posts/feed', token: member.token });
  bodyOf(postPageSchema, response, 200);
  await app.services.timelines.idle();
}

const settle = async (app: FastifyInstance) => {
  await app.services.relay.drain();
  await app.services.timelines.idle();
};

async function postMany(app: FastifyInstance, author: Member, count: number): Promise<Post[]> {
  const posts: Post[] = [];
  for (let i = 0; i < count; i += 1) posts.push(await createPost(app, author.token, `post ${i}`));
  return posts;
}

describe('home timelines', () => {
  let t: TestApp;
  let reader: Member;
  let author: Member;
  let other: Member;
  let stranger: Member;

  beforeAll(async () => {
    t = await createTestApp();
    [reader, author, other, stranger] = await createMembers(t.app, 4);
    await follow(t.app, reader.token, author.user._id);
    await follow(t.app, reader.token, other.user._id);
    await postMany(t.app, author, 3);
    await postMany(t.app, other, 2);
    await postMany(t.app, stranger, 2);
    await postMany(t.app, reader, 1);
  });
  afterAll(() => t.close());

  it('builds a timeline on the first read of Home, holding what the query over follows finds', async () => {
    expect(await floorOf(t.app, reader.user._id)).toBeUndefined();
    const expected = await pullIds(t.app, reader.user._id);
    expect(expected).toHaveLength(6);
    // The first read is answered from follows while the timeline is built.
    expect(await homeIds(t.app, reader)).toEqual(expected);
    await t.app.services.timelines.idle();
    expect(await floorOf(t.app, reader.user._id)).toBe('');
    expect(await entriesOf(t.app, reader.user._id)).toEqual(expected);
    expect(await homeIds(t.app, reader)).toEqual(expected);
  });

  it("puts a post in its author's timeline in the post's transaction and in followers' after commit", async () => {
    await startTimeline(t.app, author);
    await startTimeline(t.app, stranger);
    const post = await createPost(t.app, author.token, 'fresh');
    expect((await entriesOf(t.app, author.user._id))[0]).toBe(post._id);
    await settle(t.app);
    expect((await entriesOf(t.app, reader.user._id))[0]).toBe(post._id);
    expect(await entriesOf(t.app, stranger.user._id)).not.toContain(post._id);
    expect(await homeIds(t.app, reader)).toEqual(await pullIds(t.app, reader.user._id));
  });

  it('adds the posts of a member at once when followed, and removes them when unfollowed', async () => {
    const strangers = await pullIds(t.app, stranger.user._id);
    expect(await follow(t.app, reader.token, stranger.user._id)).toHaveProperty('statusCode', 200);
    const entries = await entriesOf(t.app, reader.user._id);
    for (const id of strangers) expect(entries).toContain(id);
    expect(await homeIds(t.app, reader)).toEqual(await pullIds(t.app, reader.user._id));

    expect(await unfollow(t.app, reader.token, stranger.user._id)).toHaveProperty(
      'statusCode',
      200,
    );
    const after = await entriesOf(t.app, reader.user._id);
    for (const id of strangers) expect(after).not.toContain(id);
    await settle(t.app);
    expect(await homeIds(t.app, reader)).toEqual(await pullIds(t.app, reader.user._id));
  });

  it('drops a deleted post from every timeline', async () => {
    const post = await createPost(t.app, author.token, 'short-lived');
    await settle(t.app);
    expect(await entriesOf(t.app, reader.user._id)).toContain(post._id);
    expect(await deletePost(t.app, author.token, post._id)).toHaveProperty('statusCode', 201);
    expect(await entriesOf(t.app, reader.user._id)).not.toContain(post._id);
    expect(await entriesOf(t.app, author.user._id)).not.toContain(post._id);
    expect(await homeIds(t.app, reader)).not.toContain(post._id);
  });

  it("ranks trending on Home from the timeline's posts, the member's own likes at once", async () => {
    const candidates = await entriesOf(t.app, reader.user._id);
    const [first, second] = candidates.slice(-2);
    if (!first || !second) throw new Error('expected two posts');
    // Ranked once (and kept for a while)…
    expect((await homeIds(t.app, reader, 'trending')).length).toBe(candidates.length);
    await like(t.app, reader.token, first);
    await like(t.app, author.token, first);
    await like(t.app, reader.token, second);
    await settle(t.app);
    // …and again after the member's own like.
    const trending = await homeIds(t.app, reader, 'trending');
    expect(trending.slice(0, 2)).toEqual([first, second]);
    expect([...trending].sort()).toEqual([...candidates].sort());
  });

  it('drops timelines unread for long; the next read builds them again', async () => {
    expect(await t.app.services.timelines.dropIdle(Date.now() + 1)).toBeGreaterThan(0);
    expect(await entriesOf(t.app, reader.user._id)).toEqual([]);
    const expected = await pullIds(t.app, reader.user._id);
    expect(await homeIds(t.app, reader)).toEqual(expected);
    await t.app.services.timelines.idle();
    expect(await entriesOf(t.app, reader.user._id)).toEqual(expected);
  });
});

describe('a home timeline of bounded length', () => {
  let t: TestApp;
  let reader: Member;
  let author: Member;
  let prolific: Member;

  beforeAll(async () => {
    t = await createTestApp({ homeTimelineLength: 20 });
    [reader, author, prolific] = await createMembers(t.app, 3);
    await follow(t.app, reader.token, author.user._id);
    await postMany(t.app, author, 30);
  });
  afterAll(() => t.close());

  it('keeps the newest posts and reads older ones from follows, so paging never ends early', async () => {
    await startTimeline(t.app, reader);
    const expected = await pullIds(t.app, reader.user._id);
    expect(expected).toHaveLength(30);
    expect(await entriesOf(t.app, reader.user._id)).toEqual(expected.slice(0, 20));
    expect(await floorOf(t.app, reader.user._id)).toBe(expected[19]);
    expect(await homeIds(t.app, reader)).toEqual(expected);
  });

  it('trims what fan-out added past the length, and a follow of a prolific member', async () => {
    await postMany(t.app, author, 5);
    await settle(t.app);
    expect((await entriesOf(t.app, reader.user._id)).length).toBe(25);
    await t.app.services.timelines.trimAll();
    const expected = await pullIds(t.app, reader.user._id);
    expect(await entriesOf(t.app, reader.user._id)).toEqual(expected.slice(0, 20));
    expect(await homeIds(t.app, reader)).toEqual(expected);

    await postMany(t.app, prolific, 25);
    await follow(t.app, reader.token, prolific.user._id);
    const withProlific = await pullIds(t.app, reader.user._id);
    expect(await entriesOf(t.app, reader.user._id)).toEqual(withProlific.slice(0, 20));
    expect(await homeIds(t.app, reader)).toEqual(withProlific);
  });
});

describe('home timelines under concurrent posting and unfollowing', () => {
  let t: TestApp;
  let members: Member[];

  beforeAll(async () => {
    t = await createTestApp();
    members = await createMembers(t.app, 4);
  });
  afterAll(() => t.close());

  it('ends with every Home equal to the query over follows', async () => {
    const [author, ...readers] = members;
    if (!author) throw new Error('expected members');
    for (const reader of readers) {
      await follow(t.app, reader.token, author.user._id);
      await startTimeline(t.app, reader);
    }
    const writes: Promise<unknown>[] = [];
    for (let round = 0; round < 12; round += 1) {
      writes.push(createPost(t.app, author.token, `race ${round}`));
      for (const [i, reader] of readers.entries()) {
        const toggle = (round + i) % 2 === 0 ? unfollow : follow;
        writes.push(toggle(t.app, reader.token, author.user._id));
      }
    }
    await Promise.all(writes);
    await settle(t.app);
    for (const reader of readers) {
      const expected = await pullIds(t.app, reader.user._id);
      expect(await entriesOf(t.app, reader.user._id)).toEqual(expected);
      expect(await homeIds(t.app, reader)).toEqual(expected);
    }
  });
});

describe('widely followed authors', () => {
  let t: TestApp;
  let celebrity: Member;
  let reader: Member;
  let fan: Member;
  let friend: Member;

  const pulledSince = async (userId: string) =>
    (
      await t.app.db
        .selectFrom('pulled_authors')
        .select('since')
        .where('user_id', '=', userId)
        .executeTakeFirst()
    )?.since;

  beforeAll(async () => {
    // From two followers on, an author's posts are read into Home rather than written out.
    t = await createTestApp({ homePullFollowers: 2 });
    [celebrity, reader, fan, friend] = await createMembers(t.app, 4);
    await follow(t.app, reader.token, celebrity.user._id);
    await follow(t.app, fan.token, celebrity.user._id);
    await follow(t.app, reader.token, friend.user._id);
    await postMany(t.app, celebrity, 2);
    await postMany(t.app, friend, 2);
    await startTimeline(t.app, reader);
    await startTimeline(t.app, fan);
  });
  afterAll(() => t.close());

  it("are not written to followers' timelines, yet Home shows their posts in order, page by page", async () => {
    const posts: Post[] = [];
    for (let i = 0; i < 6; i += 1) {
      posts.push(await createPost(t.app, celebrity.token, `news ${i}`));
      posts.push(await createPost(t.app, friend.token, `chat ${i}`));
    }
    await settle(t.app);
    const celebrityIds = posts.filter((post) => post.author._id === celebrity.user._id);
    // Pulled since their first post (they had two followers already).
    const firstPost = (await pullIds(t.app, celebrity.user._id)).at(-1);
    expect(await pulledSince(celebrity.user._id)).toBe(firstPost);
    const entries = await entriesOf(t.app, reader.user._id);
    for (const post of celebrityIds) expect(entries).not.toContain(post._id);
    // The friend's posts still go out.
    for (const post of posts.filter((p) => p.author._id === friend.user._id)) {
      expect(entries).toContain(post._id);
    }
    const expected = await pullIds(t.app, reader.user._id);
    expect(expected).toHaveLength(16);
    expect(await homeIds(t.app, reader)).toEqual(expected);
    expect(await homeIds(t.app, fan)).toEqual(await pullIds(t.app, fan.user._id));
  });

  it('ranks their posts in trending on Home', async () => {
    const newest = (await pullIds(t.app, fan.user._id))[0];
    if (!newest) throw new Error('expected a post');
    await like(t.app, fan.token, newest);
    await settle(t.app);
    const trending = await homeIds(t.app, fan, 'trending');
    expect(trending[0]).toBe(newest);
    expect([...trending].sort()).toEqual([...(await pullIds(t.app, fan.user._id))].sort());
  });

  it('leaves them out for members who hide them or stop following them', async () => {
    const page = await t.app.services.timelines.page(reader.user._id, 'latest', null, 20, [
      celebrity.user._id,
    ]);
    const shown = page?.keys.map((key) => key.id) ?? [];
    const friendsOnly = await pullIds(t.app, reader.user._id);
    const celebrityPosts = new Set(await pullIds(t.app, celebrity.user._id));
    expect(shown).toEqual(friendsOnly.filter((id) => !celebrityPosts.has(id)));

    await unfollow(t.app, fan.token, celebrity.user._id);
    await settle(t.app);
    expect(await homeIds(t.app, fan)).toEqual(await pullIds(t.app, fan.user._id));
    expect(await homeIds(t.app, fan)).toEqual([]);
  });

  it('stay pulled below the count, and an earlier post that arrives late moves the start back', async () => {
    // One follower left: their posts are still read, not written.
    const post = await createPost(t.app, celebrity.token, 'still here');
    await settle(t.app);
    expect(await entriesOf(t.app, reader.user._id)).not.toContain(post._id);
    expect((await homeIds(t.app, reader))[0]).toBe(post._id);

    const pulled = createOnDemandAuthors({ reads: t.app.db, followers: 2, length: 800 });
    const earlier = '00000000000000000000000001';
    const later = '00000000000000000000000002';
    const left = await pulled.onDemandAmong(t.app.db, [
      { postId: later, authorId: celebrity.user._id, followersCount: 1 },
      { postId: earlier, authorId: celebrity.user._id, followersCount: 1 },
      { postId: later, authorId: friend.user._id, followersCount: 1 },
    ]);
    expect(left).toEqual(new Set([later, earlier]));
    expect(await pulledSince(celebrity.user._id)).toBe(earlier);
    const [friendsPost] = await pulled.onDemandAmong(t.app.db, [
      { postId: earlier, authorId: friend.user._id, followersCount: 1 },
    ]);
    expect(friendsPost).toBeUndefined();
    expect(await pulledSince(friend.user._id)).toBeUndefined();
  });
});

describe("a widely followed author's posts kept in memory", () => {
  let t: TestApp;
  let celebrity: Member;
  let reader: Member;

  beforeAll(async () => {
    t = await createTestApp({ homePullFollowers: 1, homeTimelineLength: 20 });
    [celebrity, reader] = await createMembers(t.app, 2);
    await follow(t.app, reader.token, celebrity.user._id);
    await startTimeline(t.app, reader);
  });
  afterAll(() => t.close());

  it('follow new and deleted posts, and older ones than the length are read from the posts', async () => {
    await postMany(t.app, celebrity, 30);
    await settle(t.app);
    expect(await entriesOf(t.app, reader.user._id)).toEqual([]);
    expect(await homeIds(t.app, reader)).toEqual(await pullIds(t.app, reader.user._id));

    const fresh = await createPost(t.app, celebrity.token, 'fresh');
    await settle(t.app);
    expect((await homeIds(t.app, reader))[0]).toBe(fresh._id);
    await deletePost(t.app, celebrity.token, fresh._id);
    const [older] = await pullIds(t.app, celebrity.user._id);
    if (!older) throw new Error('expected a post');
    await deletePost(t.app, celebrity.token, older);
    await settle(t.app);
    const expected = await pullIds(t.app, reader.user._id);
    expect(expected).toHaveLength(29);
    expect(await homeIds(t.app, reader)).toEqual(expected);
  });
});
