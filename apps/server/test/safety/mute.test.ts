import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { drain } from '../events/event-helpers';
import type { Member } from '../factories';
import { createTestApp, type TestApp } from '../helpers';
import { groupsOf, unreadOf } from '../notifications/notification-helpers';
import {
  addComment,
  createMembers,
  createPost,
  fetchPost,
  follow,
  getUser,
  idsOf,
  like,
} from '../social/social-helpers';
import {
  block,
  bookmarkIdsOf,
  commentIdsOf,
  embeddedCommentIds,
  mute,
  postIdsAt,
  unmute,
  usersAt,
} from './safety-helpers';
import { bookmark } from '../social/social-helpers';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

const settle = async () => {
  await drain(t.app);
  await t.app.services.timelines.idle();
};

describe('muting', () => {
  let muter: Member;
  let muted: Member;
  let third: Member;
  const word = `platypus${String(process.pid)}`;

  beforeAll(async () => {
    [muter, muted, third] = await createMembers(t.app, 3);
    await follow(t.app, muter.token, muted.user._id);
    await follow(t.app, muted.token, muter.user._id);
    // Home kept as a timeline, so that both its reading paths are filtered.
    await postIdsAt(t.app, '/api/posts/feed', muter);
    await settle();
  });

  it('hides the muted member’s posts, comments and notifications from the muter only', async () => {
    const mutedPost = await createPost(t.app, muted.token, `${word} by the muted member`);
    const muterPost = await createPost(t.app, muter.token, `${word} by the muter`);
    const thirdPost = await createPost(t.app, third.token, `${word} by the third`);
    const mutedComment = (await addComment(t.app, muted.token, thirdPost._id, 'muted says'))._id;
    await like(t.app, muter.token, mutedPost._id);
    await bookmark(t.app, muter.token, mutedPost._id);
    await settle();
    // Before: the muter sees the muted member, and the muted member's follow is news.
    expect(await postIdsAt(t.app, '/api/posts/feed', muter)).toContain(mutedPost._id);
    expect(await unreadOf(t.app, muter)).toBe(1);

    await mute(t.app, muter, muted);
    await like(t.app, muted.token, muterPost._id);
    await addComment(t.app, muted.token, muterPost._id, `hello @${muter.user.username}`);
    await settle();

    for (const sort of ['latest', 'trending', 'oldest']) {
      for (const url of ['/api/posts', '/api/posts/feed', '/api/posts/liked']) {
        expect(await postIdsAt(t.app, url, muter, { sort }), `${url} ${sort}`).not.toContain(
          mutedPost._id,
        );
      }
    }
    expect(await bookmarkIdsOf(t.app, muter)).not.toContain(mutedPost._id);
    expect(await postIdsAt(t.app, '/api/search/posts', muter, { q: word })).toEqual(
      expect.not.arrayContaining([mutedPost._id]),
    );
    expect(await commentIdsOf(t.app, thirdPost._id, muter)).not.toContain(mutedComment);
    expect(embeddedCommentIds(await fetchPost(t.app, thirdPost._id, muter.token))).toEqual([]);
    // Nothing from the muted member: neither the old follow nor the new like, comment, mention.
    expect(await unreadOf(t.app, muter)).toBe(0);
    expect(await groupsOf(t.app, muter)).toEqual([]);

    // Still reachable on purpose: their profile, their page of posts, a post by its link.
    expect(await getUser(t.app, muted.user.username, muter.token)).toMatchObject({
      viewerMutes: true,
      viewerBlocks: false,
    });
    expect(await postIdsAt(t.app, `/api/posts/user/${muted.user.username}`, muter)).toContain(
      mutedPost._id,
    );
    expect((await fetchPost(t.app, mutedPost._id, muter.token))._id).toBe(mutedPost._id);
    // Muting is not blocking: they stay in member search, and the follow stays.
    expect(idsOf(await usersAt(t.app, '/api/users', muter, { q: 'member_', limit: 50 }))).toContain(
      muted.user._id,
    );
    expect((await getUser(t.app, muter.user.username)).followingCount).toBe(1);

    // The muted member notices nothing.
    expect(await postIdsAt(t.app, '/api/posts/feed', muted)).toContain(muterPost._id);
    expect(await commentIdsOf(t.app, muterPost._id, muted)).toHaveLength(1);
    expect(await getUser(t.app, muter.user.username, muted.token)).toMatchObject({
      viewerMutes: false,
      viewerBlocks: false,
    });

    // Unmuted: what was only hidden shows again.
    await unmute(t.app, muter, muted);
    expect(await postIdsAt(t.app, '/api/posts/feed', muter)).toContain(mutedPost._id);
    expect(await commentIdsOf(t.app, thirdPost._id, muter)).toContain(mutedComment);
    expect(await unreadOf(t.app, muter)).toBe(1);
  });

  it('lets a third member see both as before', async () => {
    await mute(t.app, muter, muted);
    const post = await createPost(t.app, muted.token, 'seen by others');
    expect(await postIdsAt(t.app, '/api/posts', third)).toContain(post._id);
    expect(await postIdsAt(t.app, '/api/posts', undefined)).toContain(post._id);
    await unmute(t.app, muter, muted);
  });

  it('a block of a muted member hides them too, and unblocking leaves the mute', async () => {
    const [a, b] = await createMembers(t.app, 2);
    const post = await createPost(t.app, b.token, 'muted then blocked');
    await mute(t.app, a, b);
    await block(t.app, a, b);
    expect(await postIdsAt(t.app, '/api/posts', a)).not.toContain(post._id);
    await t.app.inject({
      method: 'POST',
      url: `/api/users/unblock/${b.user._id}`,
      headers: { authorization: a.token },
    });
    expect(await postIdsAt(t.app, '/api/posts', a)).not.toContain(post._id);
    expect(idsOf(await usersAt(t.app, '/api/users/me/muted', a))).toEqual([b.user._id]);
  });
});
