import { ErrorMessages, followResponseSchema } from '@perch/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers';
import {
  UNKNOWN_ID,
  bodyOf,
  countsOf,
  createMembers,
  expectError,
  follow,
  getUser,
  unfollow,
} from './social-helpers';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

const pair = () => createMembers(t.app, 2);

const followRows = (followerId: string, followeeId: string) =>
  t.app.db
    .selectFrom('follows')
    .selectAll()
    .where('follower_id', '=', followerId)
    .where('followee_id', '=', followeeId)
    .execute();

describe('POST /api/users/follow/{userId}', () => {
  it('answers 200 with the viewer and the followed member, both counted', async () => {
    const [viewer, star] = await pair();
    const body = bodyOf(
      followResponseSchema,
      await follow(t.app, viewer.token, star.user._id),
      200,
    );
    expect(body.user).toMatchObject({
      _id: viewer.user._id,
      username: viewer.user.username,
      followingCount: 1,
      followersCount: 0,
    });
    expect(body.followUser).toMatchObject({
      _id: star.user._id,
      username: star.user.username,
      followersCount: 1,
      followingCount: 0,
      followedByViewer: true,
    });
    expect(body.followUser.email).toBeUndefined();
    expect(await followRows(viewer.user._id, star.user._id)).toHaveLength(1);
    expect(countsOf(await getUser(t.app, star.user.username))).toEqual({
      followersCount: 1,
      followingCount: 0,
      postsCount: 0,
    });
    expect((await getUser(t.app, viewer.user.username)).followingCount).toBe(1);
  });

  it('refuses to follow twice and keeps the counts', async () => {
    const [viewer, star] = await pair();
    expect((await follow(t.app, viewer.token, star.user._id)).statusCode).toBe(200);
    expectError(
      await follow(t.app, viewer.token, star.user._id),
      400,
      ErrorMessages.alreadyFollowing,
    );
    expect((await getUser(t.app, star.user.username)).followersCount).toBe(1);
    expect((await getUser(t.app, viewer.user.username)).followingCount).toBe(1);
  });

  it('refuses to follow oneself with 404', async () => {
    const [viewer] = await pair();
    expectError(await follow(t.app, viewer.token, viewer.user._id), 404, ErrorMessages.followSelf);
    expect(countsOf(await getUser(t.app, viewer.user.username))).toEqual({
      followersCount: 0,
      followingCount: 0,
      postsCount: 0,
    });
  });

  it('answers 404 for an unknown member and 401 without a token', async () => {
    const [viewer, star] = await pair();
    expectError(await follow(t.app, viewer.token, UNKNOWN_ID), 404, ErrorMessages.userNotFound);
    expectError(await follow(t.app, undefined, star.user._id), 401, ErrorMessages.invalidToken);
    expect((await getUser(t.app, star.user.username)).followersCount).toBe(0);
    expect((await getUser(t.app, viewer.user.username)).followingCount).toBe(0);
  });

  it('counts one follow when a member follows five times at once', async () => {
    const [viewer, star] = await pair();
    const responses = await Promise.all(
      Array.from({ length: 5 }, () => follow(t.app, viewer.token, star.user._id)),
    );
    expect(responses.filter((r) => r.statusCode === 200)).toHaveLength(1);
    expect(responses.filter((r) => r.statusCode === 400)).toHaveLength(4);
    for (const response of responses.filter((r) => r.statusCode === 400)) {
      expectError(response, 400, ErrorMessages.alreadyFollowing);
    }
    expect((await getUser(t.app, star.user.username)).followersCount).toBe(1);
    expect((await getUser(t.app, viewer.user.username)).followingCount).toBe(1);
    expect(await followRows(viewer.user._id, star.user._id)).toHaveLength(1);
  });

  it('counts every follower when many follow one member at once', async () => {
    const [star] = await pair();
    const fans = await createMembers(t.app, 8);
    const responses = await Promise.all(fans.map((fan) => follow(t.app, fan.token, star.user._id)));
    expect(responses.map((r) => r.statusCode)).toEqual(Array(8).fill(200));
    expect((await getUser(t.app, star.user.username)).followersCount).toBe(8);
  });
});

describe('POST /api/users/unfollow/{userId}', () => {
  it('answers 200 and puts both counts back', async () => {
    const [viewer, star] = await pair();
    await follow(t.app, viewer.token, star.user._id);
    const body = bodyOf(
      followResponseSchema,
      await unfollow(t.app, viewer.token, star.user._id),
      200,
    );
    expect(body.user).toMatchObject({ _id: viewer.user._id, followingCount: 0 });
    expect(body.followUser).toMatchObject({
      _id: star.user._id,
      followersCount: 0,
      followedByViewer: false,
    });
    expect(await followRows(viewer.user._id, star.user._id)).toHaveLength(0);
    expect((await getUser(t.app, star.user.username)).followersCount).toBe(0);
    expect((await getUser(t.app, viewer.user.username)).followingCount).toBe(0);
  });

  it('refuses to unfollow without a follow', async () => {
    const [viewer, star] = await pair();
    expectError(
      await unfollow(t.app, viewer.token, star.user._id),
      400,
      ErrorMessages.notFollowing,
    );
    await follow(t.app, viewer.token, star.user._id);
    expect((await unfollow(t.app, viewer.token, star.user._id)).statusCode).toBe(200);
    expectError(
      await unfollow(t.app, viewer.token, star.user._id),
      400,
      ErrorMessages.notFollowing,
    );
    expect((await getUser(t.app, star.user.username)).followersCount).toBe(0);
  });

  it('keeps the counts right when unfollows race', async () => {
    const [viewer, star] = await pair();
    await follow(t.app, viewer.token, star.user._id);
    const responses = await Promise.all(
      Array.from({ length: 5 }, () => unfollow(t.app, viewer.token, star.user._id)),
    );
    expect(responses.filter((r) => r.statusCode === 200)).toHaveLength(1);
    expect((await getUser(t.app, star.user.username)).followersCount).toBe(0);
    expect((await getUser(t.app, viewer.user.username)).followingCount).toBe(0);
  });

  it('answers 404 for an unknown member and 401 without a token', async () => {
    const [viewer, star] = await pair();
    expectError(await unfollow(t.app, viewer.token, UNKNOWN_ID), 404, ErrorMessages.userNotFound);
    await follow(t.app, viewer.token, star.user._id);
    expectError(await unfollow(t.app, undefined, star.user._id), 401, ErrorMessages.invalidToken);
    expect((await getUser(t.app, star.user.username)).followersCount).toBe(1);
  });
});

describe('followedByViewer on profiles', () => {
  it('tells a viewer whether they follow the member, and is absent without a token', async () => {
    const [viewer, star] = await pair();
    expect((await getUser(t.app, star.user.username, viewer.token)).followedByViewer).toBe(false);
    await follow(t.app, viewer.token, star.user._id);
    expect((await getUser(t.app, star.user.username, viewer.token)).followedByViewer).toBe(true);
    expect((await getUser(t.app, viewer.user.username, star.token)).followedByViewer).toBe(false);
    expect((await getUser(t.app, star.user.username)).followedByViewer).toBeUndefined();
    await unfollow(t.app, viewer.token, star.user._id);
    expect((await getUser(t.app, star.user.username, viewer.token)).followedByViewer).toBe(false);
  });
});
