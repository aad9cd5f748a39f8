import { readFileSync } from 'node:fs';
import path from 'node:path';
import {
  AccountErrors,
  ErrorMessages,
  EXPORT_FILES,
  EXPORTS_PER_HOUR,
  exportFileName,
} from '@perch/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mediaDirOf } from '../../src/app/app';
import { drain } from '../events/event-helpers';
import { createMember, type Member } from '../factories';
import { call, createTestApp, type TestApp } from '../helpers';
import {
  MINIMAL,
  addComment,
  bookmark,
  createPost,
  expectError,
  follow,
  like,
  uploadImage,
  upvote,
} from '../social/social-helpers';
import { jsonOf, unzip } from './account-helpers';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

const download = (token: string | undefined) =>
  call(t.app, { method: 'GET', url: '/api/users/me/export', token });

const fileOf = (url: string) =>
  readFileSync(path.join(mediaDirOf(t.config), ...url.slice('/media/'.length).split('/')));

interface ExportedPost {
  id: string;
  content: string;
  mediaURL: string | null;
  mediaAlt: string | null;
  media: { url: string; alt: string | null }[];
  contentWarning: string | null;
  sensitive: boolean;
  card: unknown;
  likeCount: number;
  commentCount: number;
  createdAt: string;
  updatedAt: string;
}

describe('GET /api/users/me/export', () => {
  it('needs a signed-in member', async () => {
    expectError(await download(undefined), 401, ErrorMessages.invalidToken);
  });

  it('is a zip of everything the member made, with their images', async () => {
    const [m, a, b] = [
      await createMember(t.app),
      await createMember(t.app),
      await createMember(t.app),
    ];
    const avatar = await uploadImage(t.app, m.token, 'avatar');
    const edit = await call(t.app, {
      method: 'POST',
      url: '/api/users/edit',
      token: m.token,
      payload: {
        userData: { firstName: 'Export', lastName: 'Me', bio: 'my bio', avatarURL: avatar },
      },
    });
    expect(edit.statusCode, edit.body).toBe(200);
    const picture = await uploadImage(t.app, m.token);
    const p1 = await createPost(t.app, m.token, 'first, with a "quote" and ünïcödé', picture);
    const p2 = await createPost(t.app, m.token, '#second post', null);
    const p3 = await createPost(t.app, m.token, 'the same picture again', picture);
    const a1 = await createPost(t.app, a.token, 'a writes');
    const c1 = await addComment(t.app, m.token, a1._id, 'm comments on a1');
    const c2 = await addComment(t.app, m.token, p1._id, 'm comments on p1');
    const aOnP1 = await addComment(t.app, a.token, p1._id, 'a comments on p1');
    for (const post of [a1, p2]) {
      const liked = await like(t.app, m.token, post._id, MINIMAL);
      expect(liked.statusCode).toBe(201);
    }
    await like(t.app, b.token, p1._id, MINIMAL);
    await upvote(t.app, b.token, p1._id, c2._id, MINIMAL);
    await bookmark(t.app, m.token, a1._id, MINIMAL);
    await follow(t.app, m.token, a.user._id, MINIMAL);
    await follow(t.app, b.token, m.user._id, MINIMAL);
    await follow(t.app, a.token, m.user._id, MINIMAL);
    await drain(t.app);

    const response = await download(m.token);
    expect(response.statusCode, response.body.slice(0, 200)).toBe(200);
    expect(response.headers['content-type']).toBe('application/zip');
    expect(response.headers['content-disposition']).toBe(
      `attachment; filename="${exportFileName(m.user.username, new Date())}"`,
    );
    expect(response.headers['cache-control']).toBe('no-store');
    const files = await unzip(response.rawPayload);

    const images = [avatar, picture].map((url) => `media${url.slice('/media'.length)}`);
    expect([...files.keys()].sort()).toEqual([...EXPORT_FILES, ...images].sort());
    for (const url of [avatar, picture]) {
      expect(files.get(`media${url.slice('/media'.length)}`)?.equals(fileOf(url))).toBe(true);
    }

    expect(jsonOf(files, 'profile.json')).toMatchObject({
      id: m.user._id,
      username: m.user.username,
      firstName: 'Export',
      lastName: 'Me',
      email: m.user.email,
      bio: 'my bio',
      avatarURL: avatar,
      followersCount: 2,
      followingCount: 1,
      postsCount: 3,
    });
    const posts = jsonOf(files, 'posts.json') as ExportedPost[];
    expect(posts.map((post) => post.id)).toEqual([p1._id, p2._id, p3._id]);
    expect(posts[0]).toEqual({
      id: p1._id,
      content: p1.content,
      mediaURL: picture,
      mediaAlt: null,
      media: [{ url: picture, alt: null }],
      contentWarning: null,
      sensitive: false,
      card: null,
      poll: null,
      likeCount: 1,
      commentCount: 2,
      createdAt: p1.createdAt,
      updatedAt: p1.updatedAt,
      quoteId: null,
    });
    expect(jsonOf(files, 'comments.json')).toEqual([
      {
        id: c1._id,
        postId: a1._id,
        text: 'm comments on a1',
        upvoteCount: 0,
        downvoteCount: 0,
        createdAt: c1.createdAt,
        updatedAt: c1.updatedAt,
      },
      {
        id: c2._id,
        postId: p1._id,
        text: 'm comments on p1',
        upvoteCount: 1,
        downvoteCount: 0,
        createdAt: c2.createdAt,
        updatedAt: c2.updatedAt,
      },
    ]);
    // Others' comments are theirs, not the member's.
    expect(files.get('comments.json')?.toString()).not.toContain(aOnP1._id);
    const likes = jsonOf(files, 'likes.json') as { postId: string; likedAt: string }[];
    expect(likes.map((entry) => entry.postId)).toEqual([p2._id, a1._id].sort());
    expect(likes.every((entry) => !Number.isNaN(Date.parse(entry.likedAt)))).toBe(true);
    expect(jsonOf(files, 'bookmarks.json')).toEqual([
      { postId: a1._id, bookmarkedAt: expect.any(String) as unknown },
    ]);
    const follows = jsonOf(files, 'follows.json') as {
      following: { id: string; username: string }[];
      followers: { id: string; username: string }[];
    };
    expect(follows.following.map((entry) => entry.username)).toEqual([a.user.username]);
    expect(follows.followers.map((entry) => entry.id)).toEqual([a.user._id, b.user._id].sort());
    const notifications = jsonOf(files, 'notifications.json') as {
      kind: string;
      actor: { username: string };
    }[];
    expect(notifications.map((entry) => `${entry.kind} ${entry.actor.username}`).sort()).toEqual(
      [
        `comment ${a.user.username}`,
        `follow ${a.user.username}`,
        `follow ${b.user.username}`,
        `like ${b.user.username}`,
      ].sort(),
    );
  });

  it('writes empty lists for a member who made nothing', async () => {
    const member = await createMember(t.app);
    const files = await unzip((await download(member.token)).rawPayload);
    expect([...files.keys()].sort()).toEqual([...EXPORT_FILES].sort());
    for (const name of ['posts.json', 'comments.json', 'likes.json', 'notifications.json']) {
      expect(jsonOf(files, name), name).toEqual([]);
    }
    expect(jsonOf(files, 'follows.json')).toEqual({ following: [], followers: [] });
  });

  it(`allows ${EXPORTS_PER_HOUR} exports an hour to each member`, async () => {
    const member: Member = await createMember(t.app);
    for (let i = 0; i < EXPORTS_PER_HOUR; i += 1) {
      const response = await download(member.token);
      expect(response.statusCode, response.body.slice(0, 200)).toBe(200);
    }
    const refused = await download(member.token);
    expectError(refused, 429, AccountErrors.exportTooOften);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(60);
    // Another member's allowance is their own.
    const other = await createMember(t.app);
    expect((await download(other.token)).statusCode).toBe(200);
  });
});
