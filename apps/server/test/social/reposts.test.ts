import {
  ErrorMessages,
  notificationPageSchema,
  postMutationResponseSchema,
  postPageSchema,
  postSchema,
  type Post,
} from '@perch/contract';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  counterMismatches,
  deleteOwnAccount,
  jsonOf,
  NO_MISMATCH,
  NO_ORPHANS,
  orphanRows,
  unzip,
} from '../account/account-helpers';
import { lastOutboxId, outboxAfter } from '../events/event-helpers';
import type { Member } from '../factories';
import { call, createTestApp, type TestApp } from '../helpers';
import { block, mute } from '../safety/safety-helpers';
import {
  MINIMAL,
  UNKNOWN_ID,
  bodyOf,
  createMembers,
  createPost,
  deletePost,
  expectClientError,
  expectError,
  fetchPost,
  follow,
  unfollow,
  walk,
} from './social-helpers';

const write = (path: string) => (app: FastifyInstance, token: string | undefined, id: string) =>
  call(app, { method: 'POST', url: `/api/posts/${path}/${id}`, token, headers: MINIMAL });
const repostRequest = write('repost');
const unrepostRequest = write('unrepost');

async function repost(app: FastifyInstance, member: Member, post: Post): Promise<Post> {
  return bodyOf(postMutationResponseSchema, await repostRequest(app, member.token, post._id), 201)
    .post;
}

async function unrepost(app: FastifyInstance, member: Member, post: Post): Promise<Post> {
  return bodyOf(postMutationResponseSchema, await unrepostRequest(app, member.token, post._id), 201)
    .post;
}

const settle = async (app: FastifyInstance) => {
  await app.services.relay.drain();
  await app.services.timelines.idle();
};

/** Home as the member reads it, every page, each post with who reposted it. */
async function home(app: FastifyInstance, member: Member, limit = 3) {
  const { items } = await walk(app, '/api/posts/feed', 'posts', postSchema, {
    token: member.token,
    limit,
    query: { sort: 'latest' },
  });
  return items.map((post) => ({ id: post._id, by: post.repostedBy?.username ?? null }));
}

/** Reads Home once, which starts the member's timeline, and waits until it is built. */
async function startTimeline(app: FastifyInstance, member: Member): Promise<void> {
  bodyOf(
    postPageSchema,
    await call(app, { method: 'GET', url: '/api/posts/feed', token: member.token }),
    200,
  );
  await app.services.timelines.idle();
}

describe('reposts', () => {
  let t: TestApp;
  let reader: Member;
  let ana: Member;
  let bo: Member;
  let cy: Member;

  beforeAll(async () => {
    t = await createTestApp();
    [reader, ana, bo, cy] = await createMembers(t.app, 4);
    await follow(t.app, reader.token, ana.user._id);
    await follow(t.app, reader.token, bo.user._id);
  });
  afterAll(() => t.close());

  it('counts a repost, marks it for the reposter, and undoes it', async () => {
    const post = await createPost(t.app, cy.token, 'worth sharing');
    expect(post).toMatchObject({ repostCount: 0, repostedByViewer: false });
    const before = await lastOutboxId(t.app);
    const reposted = await repost(t.app, ana, post);
    expect(reposted).toMatchObject({ repostCount: 1, repostedByViewer: true });
    expect(await fetchPost(t.app, post._id, ana.token)).toMatchObject({
      repostCount: 1,
      repostedByViewer: true,
    });
    expect(await fetchPost(t.app, post._id, bo.token)).toMatchObject({
      repostCount: 1,
      repostedByViewer: false,
    });
    expectError(
      await repostRequest(t.app, ana.token, post._id),
      400,
      ErrorMessages.alreadyReposted,
    );
    const undone = await unrepost(t.app, ana, post);
    expect(undone).toMatchObject({ repostCount: 0, repostedByViewer: false });
    expectError(await unrepostRequest(t.app, ana.token, post._id), 400, ErrorMessages.notReposted);
    const events = (await outboxAfter(t.app, before)).filter((event) =>
      event.type.startsWith('post.'),
    );
    const types = events.map((event) => event.type);
    expect(types).toEqual(['post.reposted', 'post.unreposted']);
    const [added, removed] = events;
    expect(added?.payload).toMatchObject({
      postId: post._id,
      userId: ana.user._id,
      repostCount: 1,
    });
    expect(removed?.payload).toMatchObject({ repostCount: 0 });
    expect((added?.payload as { repostId: string }).repostId).toMatch(/^[0-9A-Z]{26}$/);
    expect((removed?.payload as { repostId: string }).repostId).toBe(
      (added?.payload as { repostId: string }).repostId,
    );
  });

  it('refuses strangers, unknown posts and posts across a block', async () => {
    const post = await createPost(t.app, cy.token, 'mine');
    expectClientError(await repostRequest(t.app, undefined, post._id), 401);
    expectError(await repostRequest(t.app, ana.token, UNKNOWN_ID), 404, ErrorMessages.postNotFound);
    const [blocker, blocked] = await createMembers(t.app, 2);
    const guarded = await createPost(t.app, blocker.token, 'not for you');
    await block(t.app, blocker, blocked);
    expectClientError(await repostRequest(t.app, blocked.token, guarded._id), 404);
    expect(await fetchPost(t.app, guarded._id, blocker.token)).toMatchObject({ repostCount: 0 });
  });

  it("tells the post's author, once per reposter, and takes it back when undone unread", async () => {
    const [author, fan] = await createMembers(t.app, 2);
    const post = await createPost(t.app, author.token, 'notify me');
    await repost(t.app, fan, post);
    await repost(t.app, author, post);
    await settle(t.app);
    const page = async () =>
      bodyOf(
        notificationPageSchema,
        await call(t.app, { method: 'GET', url: '/api/notifications', token: author.token }),
        200,
      );
    const first = await page();
    expect(first.notifications).toHaveLength(1);
    expect(first.notifications[0]).toMatchObject({
      kind: 'repost',
      actorCount: 1,
      post: { _id: post._id },
    });
    expect(first.notifications[0]?.actors[0]?.username).toBe(fan.user.username);
    await unrepost(t.app, fan, post);
    await settle(t.app);
    expect((await page()).notifications).toHaveLength(0);
  });

  it('brings a post into Home once, with the newest reposter, and follows undos and unfollows', async () => {
    await startTimeline(t.app, reader);
    const post = await createPost(t.app, cy.token, 'from a stranger');
    const own = await createPost(t.app, ana.token, 'ana writes');
    await settle(t.app);
    expect((await home(t.app, reader))[0]).toEqual({ id: own._id, by: null });
    await repost(t.app, ana, post);
    await settle(t.app);
    expect((await home(t.app, reader))[0]).toEqual({ id: post._id, by: ana.user.username });
    await repost(t.app, bo, post);
    await settle(t.app);
    let seen = await home(t.app, reader);
    expect(seen[0]).toEqual({ id: post._id, by: bo.user.username });
    expect(seen.filter((item) => item.id === post._id)).toHaveLength(1);
    // Bo's repost undone: Ana's still brings it.
    await unrepost(t.app, bo, post);
    await settle(t.app);
    seen = await home(t.app, reader);
    expect(seen[0]).toEqual({ id: post._id, by: ana.user.username });
    // Ana unfollowed: nothing brings it any more, and Ana's own posts leave too.
    await unfollow(t.app, reader.token, ana.user._id);
    await settle(t.app);
    seen = await home(t.app, reader);
    expect(seen.map((item) => item.id)).not.toContain(post._id);
    expect(seen.map((item) => item.id)).not.toContain(own._id);
    // Followed again: Ana's repost comes back with her posts.
    await follow(t.app, reader.token, ana.user._id);
    await settle(t.app);
    seen = await home(t.app, reader);
    expect(seen[0]).toEqual({ id: post._id, by: ana.user.username });
    expect(seen.map((item) => item.id)).toContain(own._id);
  });

  it("moves a followed author's post up when reposted, and back when the repost is undone", async () => {
    const older = await createPost(t.app, bo.token, 'bo, earlier');
    const newer = await createPost(t.app, bo.token, 'bo, later');
    await settle(t.app);
    let seen = await home(t.app, reader);
    expect(seen.slice(0, 2)).toEqual([
      { id: newer._id, by: null },
      { id: older._id, by: null },
    ]);
    await repost(t.app, ana, older);
    await settle(t.app);
    seen = await home(t.app, reader);
    expect(seen[0]).toEqual({ id: older._id, by: ana.user.username });
    expect(seen.filter((item) => item.id === older._id)).toHaveLength(1);
    await unrepost(t.app, ana, older);
    await settle(t.app);
    seen = await home(t.app, reader);
    expect(seen.slice(0, 2)).toEqual([
      { id: newer._id, by: null },
      { id: older._id, by: null },
    ]);
  });

  it('reads reposts from follows for a member who keeps no timeline yet, once each', async () => {
    const [fresh] = await createMembers(t.app, 1);
    await follow(t.app, fresh.token, ana.user._id);
    await follow(t.app, fresh.token, bo.user._id);
    const post = await createPost(t.app, cy.token, 'for the newcomer');
    await repost(t.app, ana, post);
    await repost(t.app, bo, post);
    await settle(t.app);
    // The first read is answered from follows while the timeline is built: one page, as a page
    // walked on after the build is read from the timeline.
    const first = await home(t.app, fresh, 50);
    expect(first[0]).toEqual({ id: post._id, by: bo.user.username });
    expect(first.filter((item) => item.id === post._id)).toHaveLength(1);
    await t.app.services.timelines.idle();
    expect(await home(t.app, fresh, 2)).toEqual(first);
  });

  it('takes the reposts with a deleted post, and leaves out reposts of hidden members', async () => {
    const post = await createPost(t.app, cy.token, 'going away');
    await repost(t.app, ana, post);
    await settle(t.app);
    expect((await home(t.app, reader))[0]?.id).toBe(post._id);
    expect((await deletePost(t.app, cy.token, post._id)).statusCode).toBeLessThan(300);
    await settle(t.app);
    expect((await home(t.app, reader)).map((item) => item.id)).not.toContain(post._id);
    const rows = await t.app.db
      .selectFrom('reposts')
      .selectAll()
      .where('post_id', '=', post._id)
      .execute();
    expect(rows).toHaveLength(0);

    const [loud] = await createMembers(t.app, 1);
    const noisy = await createPost(t.app, loud.token, 'muted author');
    await repost(t.app, bo, noisy);
    await settle(t.app);
    expect((await home(t.app, reader))[0]?.id).toBe(noisy._id);
    await mute(t.app, reader, loud);
    expect((await home(t.app, reader)).map((item) => item.id)).not.toContain(noisy._id);
  });

  it('lists reposts in the export and drops their counts with a deleted account', async () => {
    const [leaving, author] = await createMembers(t.app, 2);
    const post = await createPost(t.app, author.token, 'reposted then orphaned');
    await repost(t.app, leaving, post);
    const exported = await call(t.app, {
      method: 'GET',
      url: '/api/users/me/export',
      token: leaving.token,
    });
    expect(exported.statusCode).toBe(200);
    const files = await unzip(exported.rawPayload);
    expect(jsonOf(files, 'reposts.json')).toEqual([
      { postId: post._id, repostedAt: expect.any(String) as string },
    ]);
    await follow(t.app, reader.token, leaving.user._id);
    await settle(t.app);
    expect((await deleteOwnAccount(t.app, leaving)).statusCode).toBeLessThan(300);
    await settle(t.app);
    expect(await counterMismatches(t.app.db)).toEqual(NO_MISMATCH);
    expect(await orphanRows(t.app.db)).toEqual(NO_ORPHANS);
    expect(await fetchPost(t.app, post._id, author.token)).toMatchObject({ repostCount: 0 });
  });
});

describe('reposts by widely followed members, read into Home on demand', () => {
  let t: TestApp;
  let reader: Member;
  let star: Member;
  let cy: Member;

  beforeAll(async () => {
    // Every member with a follower is read on demand.
    t = await createTestApp({ homePullFollowers: 1 });
    [reader, star, cy] = await createMembers(t.app, 3);
    await follow(t.app, reader.token, star.user._id);
    await startTimeline(t.app, reader);
  });
  afterAll(() => t.close());

  const entries = async (userId: string) =>
    (
      await t.app.db
        .selectFrom('home_timeline_entries')
        .select('post_id')
        .where('user_id', '=', userId)
        .execute()
    ).map((row) => row.post_id);

  it('merges their reposts into Home when it is read, without writing them to timelines', async () => {
    const older = await createPost(t.app, cy.token, 'older');
    const post = await createPost(t.app, cy.token, 'lifted by a star');
    const own = await createPost(t.app, star.token, 'the star writes');
    await repost(t.app, star, post);
    await settle(t.app);
    expect(await entries(reader.user._id)).not.toContain(post._id);
    const seen = await home(t.app, reader, 1);
    expect(seen.slice(0, 2)).toEqual([
      { id: post._id, by: star.user.username },
      { id: own._id, by: null },
    ]);
    expect(seen.map((item) => item.id)).not.toContain(older._id);
    await unrepost(t.app, star, post);
    await settle(t.app);
    expect((await home(t.app, reader, 1)).map((item) => item.id)).toEqual([own._id]);
  });
});

describe('reposts under concurrent requests', () => {
  let t: TestApp;
  let author: Member;

  beforeAll(async () => {
    t = await createTestApp();
    [author] = await createMembers(t.app, 1);
  });
  afterAll(() => t.close());

  const storedCount = async (postId: string) =>
    (
      await t.app.db
        .selectFrom('posts')
        .select('repost_count')
        .where('id', '=', postId)
        .executeTakeFirstOrThrow()
    ).repost_count;
  const repostRows = (postId: string) =>
    t.app.db.selectFrom('reposts').select('id').where('post_id', '=', postId).execute();

  it('counts 15 members reposting one post at once, and undoing it at once', async () => {
    const reposters = await createMembers(t.app, 15);
    const post = await createPost(t.app, author.token, 'spreading fast');
    const added = await Promise.all(reposters.map((m) => repostRequest(t.app, m.token, post._id)));
    expect(added.map((r) => r.statusCode)).toEqual(Array(15).fill(201));
    expect(await storedCount(post._id)).toBe(15);
    expect(await repostRows(post._id)).toHaveLength(15);
    expect((await fetchPost(t.app, post._id)).repostCount).toBe(15);

    const undone = await Promise.all(
      reposters.map((m) => unrepostRequest(t.app, m.token, post._id)),
    );
    expect(undone.map((r) => r.statusCode)).toEqual(Array(15).fill(201));
    expect(await storedCount(post._id)).toBe(0);
    expect(await repostRows(post._id)).toHaveLength(0);
  });

  it('keeps one repost, one entry in Home and one notification when a member reposts ten times at once', async () => {
    const [reposter, reader] = await createMembers(t.app, 2);
    await follow(t.app, reader.token, reposter.user._id);
    await startTimeline(t.app, reader);
    const post = await createPost(t.app, author.token, 'pressed twice');
    const responses = await Promise.all(
      Array.from({ length: 10 }, () => repostRequest(t.app, reposter.token, post._id)),
    );
    const statuses = responses.map((r) => r.statusCode);
    expect(statuses.filter((s) => s === 201)).toHaveLength(1);
    for (const response of responses.filter((r) => r.statusCode !== 201)) {
      expectError(response, 400, ErrorMessages.alreadyReposted);
    }
    expect(await storedCount(post._id)).toBe(1);
    expect(await repostRows(post._id)).toHaveLength(1);
    await settle(t.app);
    expect((await home(t.app, reader)).filter((item) => item.id === post._id)).toEqual([
      { id: post._id, by: reposter.user.username },
    ]);
    const notifications = bodyOf(
      notificationPageSchema,
      await call(t.app, { method: 'GET', url: '/api/notifications', token: author.token }),
      200,
    );
    const reposts = notifications.notifications.filter(
      (n) => n.kind === 'repost' && n.post?._id === post._id,
    );
    expect(reposts.map((n) => n.actorCount)).toEqual([1]);
  });

  it('leaves no repost, entry or count behind when reposts race the post being deleted', async () => {
    const [reader, ...reposters] = await createMembers(t.app, 8);
    for (const reposter of reposters) {
      await follow(t.app, reader.token, reposter.user._id);
    }
    await startTimeline(t.app, reader);
    const post = await createPost(t.app, author.token, 'here and gone');
    const [deleted] = await Promise.all([
      deletePost(t.app, author.token, post._id),
      ...reposters.map((m) => repostRequest(t.app, m.token, post._id)),
    ]);
    expect(deleted.statusCode).toBeLessThan(300);
    await settle(t.app);
    expect(await repostRows(post._id)).toHaveLength(0);
    expect((await home(t.app, reader)).map((item) => item.id)).not.toContain(post._id);
    expect(await counterMismatches(t.app.db)).toEqual(NO_MISMATCH);
    expect(await orphanRows(t.app.db)).toEqual(NO_ORPHANS);
  });
});
