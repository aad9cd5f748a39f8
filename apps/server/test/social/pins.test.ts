import {
  ErrorMessages,
  PINNED_POSTS_MAX,
  pinnedPostsSchema,
  postMutationResponseSchema,
  postPageSchema,
  type Post,
} from '@perch/contract';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jsonOf, unzip } from '../account/account-helpers';
import { lastOutboxId, outboxAfter } from '../events/event-helpers';
import { createMember, type Member } from '../factories';
import { call, createTestApp, type TestApp } from '../helpers';
import { block, mute } from '../safety/safety-helpers';
import {
  MINIMAL,
  UNKNOWN_ID,
  bodyOf,
  createPost,
  deletePost,
  expectError,
  fetchPost,
  idsOf,
  keysOf,
  pause,
} from './social-helpers';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

const write =
  (path: string) =>
  (app: FastifyInstance, token: string | undefined, id: string, headers = {}) =>
    call(app, { method: 'POST', url: `/api/posts/${path}/${id}`, token, headers });
const pin = write('pin');
const unpin = write('unpin');

/** Pins the post, asserting the answer, and waits a millisecond so pins' times differ. */
async function pinned(member: Member, post: Post): Promise<Post> {
  const body = bodyOf(postMutationResponseSchema, await pin(t.app, member.token, post._id), 201);
  await pause(2);
  return body.post;
}

const pinnedOf = async (member: Member, token?: string) =>
  bodyOf(
    pinnedPostsSchema,
    await call(t.app, {
      method: 'GET',
      url: `/api/posts/user/${member.user.username}/pinned`,
      token,
    }),
    200,
  ).posts;

const postsOf = async (member: Member, token?: string) =>
  bodyOf(
    postPageSchema,
    await call(t.app, { method: 'GET', url: `/api/posts/user/${member.user.username}`, token }),
    200,
  ).posts;

const pinRows = (userId: string) =>
  t.app.db.selectFrom('pinned_posts').selectAll().where('user_id', '=', userId).execute();

/** Makes `count` posts, the first one oldest (at least two, named by the tuple). */
async function postsBy(member: Member, count: number): Promise<[Post, Post, ...Post[]]> {
  const posts: Post[] = [];
  for (let i = 0; i < count; i += 1) posts.push(await createPost(t.app, member.token, `post ${i}`));
  return posts as [Post, Post, ...Post[]];
}

describe('POST /api/posts/pin/{postId} and /api/posts/unpin/{postId}', () => {
  it('pins an own post for every reader to see, and takes the pin off', async () => {
    const [author, reader] = [await createMember(t.app), await createMember(t.app)];
    const post = await createPost(t.app, author.token, 'my best one');
    expect(post.pinned).toBe(false);

    const response = await pin(t.app, author.token, post._id);
    const body = bodyOf(postMutationResponseSchema, response, 201);
    expect(body.post).toMatchObject({ _id: post._id, pinned: true });
    expect(body.posts).toBeDefined();
    expect((await fetchPost(t.app, post._id, reader.token)).pinned).toBe(true);
    expect((await fetchPost(t.app, post._id)).pinned).toBe(true);
    expect(idsOf(await pinnedOf(author, reader.token))).toEqual([post._id]);

    const minimal = await unpin(t.app, author.token, post._id, MINIMAL);
    expect(bodyOf(postMutationResponseSchema, minimal, 201).post.pinned).toBe(false);
    expect(keysOf(minimal)).toEqual(['post']);
    expect((await fetchPost(t.app, post._id, reader.token)).pinned).toBe(false);
    expect(await pinnedOf(author)).toEqual([]);
    expect(await pinRows(author.user._id)).toEqual([]);
  });

  it("keeps the pinner's own marks in the answer", async () => {
    const author = await createMember(t.app);
    const post = await createPost(t.app, author.token, 'liked and kept');
    await call(t.app, { method: 'POST', url: `/api/posts/like/${post._id}`, token: author.token });
    await call(t.app, {
      method: 'POST',
      url: `/api/users/bookmark/${post._id}`,
      token: author.token,
    });
    const answered = await pinned(author, post);
    expect(answered).toMatchObject({ pinned: true, likedByViewer: true, bookmarkedByViewer: true });
  });

  it('records post.pinned and post.unpinned', async () => {
    const author = await createMember(t.app);
    const post = await createPost(t.app, author.token, 'evented');
    const before = await lastOutboxId(t.app);
    await pinned(author, post);
    await unpin(t.app, author.token, post._id, MINIMAL);
    const events = (await outboxAfter(t.app, before)).map(({ type, payload }) => ({
      type,
      payload,
    }));
    const payload = { postId: post._id, userId: author.user._id };
    expect(events).toEqual([
      { type: 'post.pinned', payload },
      { type: 'post.unpinned', payload },
    ]);
  });

  it('needs a signed-in member and a post that exists', async () => {
    const author = await createMember(t.app);
    const post = await createPost(t.app, author.token, 'guarded');
    expectError(await pin(t.app, undefined, post._id), 401, ErrorMessages.invalidToken);
    expectError(await unpin(t.app, undefined, post._id), 401, ErrorMessages.invalidToken);
    expectError(await pin(t.app, author.token, UNKNOWN_ID), 404, ErrorMessages.postNotFound);
    expectError(await unpin(t.app, author.token, UNKNOWN_ID), 404, ErrorMessages.postNotFound);
  });

  it("refuses someone else's post", async () => {
    const [author, other] = [await createMember(t.app), await createMember(t.app)];
    const post = await createPost(t.app, author.token, 'not yours');
    expectError(await pin(t.app, other.token, post._id), 400, ErrorMessages.pinNotOwner);
    expect(await pinRows(other.user._id)).toEqual([]);
    expect((await fetchPost(t.app, post._id)).pinned).toBe(false);
  });

  it('refuses a pin twice and an unpin of a post not pinned', async () => {
    const author = await createMember(t.app);
    const post = await createPost(t.app, author.token, 'once');
    expectError(await unpin(t.app, author.token, post._id), 400, ErrorMessages.notPinned);
    await pinned(author, post);
    expectError(await pin(t.app, author.token, post._id), 400, ErrorMessages.alreadyPinned);
    expect(await pinRows(author.user._id)).toHaveLength(1);
  });

  it(`pins at most ${PINNED_POSTS_MAX} posts`, async () => {
    const author = await createMember(t.app);
    const [last, first, ...others] = (await postsBy(author, PINNED_POSTS_MAX + 1)).reverse() as [
      Post,
      Post,
      ...Post[],
    ];
    for (const post of [first, ...others]) await pinned(author, post);
    expectError(await pin(t.app, author.token, last._id), 400, ErrorMessages.pinLimit);
    expect(await pinRows(author.user._id)).toHaveLength(PINNED_POSTS_MAX);
    // A pinned post is still answered as pinned already, not as one too many.
    expectError(await pin(t.app, author.token, first._id), 400, ErrorMessages.alreadyPinned);
    // Room again once one comes off.
    await unpin(t.app, author.token, first._id, MINIMAL);
    expect((await pinned(author, last)).pinned).toBe(true);
  });

  it(`keeps ${PINNED_POSTS_MAX} pins when more are asked for at once`, async () => {
    const author = await createMember(t.app);
    const posts = await postsBy(author, PINNED_POSTS_MAX + 4);
    const responses = await Promise.all(
      posts.map((post) => pin(t.app, author.token, post._id, MINIMAL)),
    );
    const statuses = responses.map((r) => r.statusCode).sort();
    expect(statuses).toEqual([
      ...Array<number>(PINNED_POSTS_MAX).fill(201),
      ...Array<number>(4).fill(400),
    ]);
    for (const refused of responses.filter((r) => r.statusCode === 400)) {
      expectError(refused, 400, ErrorMessages.pinLimit);
    }
    expect(await pinRows(author.user._id)).toHaveLength(PINNED_POSTS_MAX);
    expect(await pinnedOf(author)).toHaveLength(PINNED_POSTS_MAX);
  });

  it('shows a pin on a post whose view lists had cached', async () => {
    const author = await createMember(t.app);
    const post = await createPost(t.app, author.token, 'read often');
    const latest = async () => {
      const page = bodyOf(
        postPageSchema,
        await call(t.app, { method: 'GET', url: '/api/posts?limit=50' }),
        200,
      );
      return page.posts.find((p) => p._id === post._id);
    };
    // A view is cached on its second read.
    expect((await latest())?.pinned).toBe(false);
    expect((await latest())?.pinned).toBe(false);
    await pinned(author, post);
    expect((await latest())?.pinned).toBe(true);
    await unpin(t.app, author.token, post._id, MINIMAL);
    expect((await latest())?.pinned).toBe(false);
  });
});

describe('GET /api/posts/user/{username}/pinned', () => {
  it('answers the pins newest first, and leaves the list of posts as it was', async () => {
    const author = await createMember(t.app);
    const posts = await postsBy(author, 4);
    const [first, second, third] = posts as [Post, Post, Post, Post];
    const before = idsOf(await postsOf(author));
    await pinned(author, second);
    await pinned(author, first);
    await pinned(author, third);

    const pins = await pinnedOf(author);
    expect(idsOf(pins)).toEqual([third._id, first._id, second._id]);
    expect(pins.every((post) => post.pinned)).toBe(true);
    // The member's posts stay in time order, pinned ones in their place, marked.
    const after = await postsOf(author);
    expect(idsOf(after)).toEqual(before);
    expect(after.filter((post) => post.pinned).map((post) => post._id)).toEqual(
      [third, second, first].map((post) => post._id),
    );
  });

  it('leaves out a deleted post, its pin gone with it', async () => {
    const author = await createMember(t.app);
    const [kept, gone] = await postsBy(author, 2);
    await pinned(author, kept);
    await pinned(author, gone);
    expect((await deletePost(t.app, author.token, gone._id, MINIMAL)).statusCode).toBe(201);
    expect(idsOf(await pinnedOf(author))).toEqual([kept._id]);
    expect((await pinRows(author.user._id)).map((row) => row.post_id)).toEqual([kept._id]);
  });

  it('answers 404 for an unknown member and across a block; a muted member still shows', async () => {
    const [author, blocker, muter] = [
      await createMember(t.app),
      await createMember(t.app),
      await createMember(t.app),
    ];
    const post = await createPost(t.app, author.token, 'pinned for all');
    await pinned(author, post);
    const missing = await call(t.app, { method: 'GET', url: '/api/posts/user/nobody_here/pinned' });
    expectError(missing, 404, ErrorMessages.userNotFound);

    await block(t.app, blocker, author);
    const across = await call(t.app, {
      method: 'GET',
      url: `/api/posts/user/${author.user.username}/pinned`,
      token: blocker.token,
    });
    expectError(across, 404, ErrorMessages.userNotFound);
    await mute(t.app, muter, author);
    expect(idsOf(await pinnedOf(author, muter.token))).toEqual([post._id]);
  });
});

describe('the export', () => {
  it('lists the pins in pins.json', async () => {
    const author = await createMember(t.app);
    const [a, b] = await postsBy(author, 2);
    await pinned(author, a);
    await pinned(author, b);
    const response = await call(t.app, {
      method: 'GET',
      url: '/api/users/me/export',
      token: author.token,
    });
    expect(response.statusCode).toBe(200);
    const pins = jsonOf(await unzip(response.rawPayload), 'pins.json') as {
      postId: string;
      pinnedAt: string;
    }[];
    expect(pins.map((pin) => pin.postId)).toEqual([a._id, b._id]);
    for (const pin of pins) expect(Number.isNaN(Date.parse(pin.pinnedAt))).toBe(false);
  });
});
