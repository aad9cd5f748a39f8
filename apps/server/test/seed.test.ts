import { GUEST_CREDENTIALS, trendingTagsSchema, type LoginResponse } from '@perch/contract';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedDemoDataIfEmpty } from '../src/platform/db/seed';
import { call, createTestApp, type TestApp } from './helpers';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ seedDemoData: true });
});
afterAll(async () => {
  await t.close();
});

describe('demo data', () => {
  it('has five featured members among them the guest, and eight posts with comments', async () => {
    const posts = await t.app.db.selectFrom('posts').selectAll().execute();
    expect(posts).toHaveLength(8);
    expect(posts.every((p) => p.comment_count > 0)).toBe(true);
    const withAvatars = await t.app.db
      .selectFrom('users')
      .select(['username', 'avatar_url'])
      .where('avatar_url', 'is not', null)
      .execute();
    expect(withAvatars.map((u) => u.username)).toContain(GUEST_CREDENTIALS.username);
    expect(withAvatars).toHaveLength(5);
    for (const { avatar_url } of withAvatars) {
      const file = path.join(t.config.dataDir, avatar_url ?? '');
      expect(existsSync(file), file).toBe(true);
    }
  });

  it('keeps every counter equal to the rows it counts, with like counts from 6 to 15', async () => {
    const posts = await t.app.db
      .selectFrom('posts')
      .select([
        'like_count',
        'comment_count',
        sql<number>`(select count(*) from likes where likes.post_id = posts.id)`.as('likes'),
        sql<number>`(select count(*) from comments where comments.post_id = posts.id)`.as(
          'comments',
        ),
      ])
      .execute();
    for (const post of posts) {
      expect(post.likes).toBe(post.like_count);
      expect(post.comments).toBe(post.comment_count);
      expect(post.like_count).toBeGreaterThanOrEqual(6);
      expect(post.like_count).toBeLessThanOrEqual(15);
    }
    const users = await t.app.db
      .selectFrom('users')
      .select([
        'followers_count',
        'following_count',
        'posts_count',
        sql<number>`(select count(*) from follows where followee_id = users.id)`.as('followers'),
        sql<number>`(select count(*) from follows where follower_id = users.id)`.as('following'),
        sql<number>`(select count(*) from posts where user_id = users.id)`.as('posts'),
      ])
      .execute();
    for (const user of users) {
      expect(user.followers).toBe(user.followers_count);
      expect(user.following).toBe(user.following_count);
      expect(user.posts).toBe(user.posts_count);
    }
  });

  it('lets the guest log in with the built-in credentials', async () => {
    const response = await call(t.app, {
      method: 'POST',
      url: '/api/auth/login',
      payload: GUEST_CREDENTIALS,
    });
    expect(response.statusCode).toBe(200);
    expect(response.json<LoginResponse>().foundUser.username).toBe(GUEST_CREDENTIALS.username);
  });

  it('has tags and mentions recognised, two of its tags trending', async () => {
    const trends = await call(t.app, { method: 'GET', url: '/api/trends/tags' });
    expect(trends.statusCode).toBe(200);
    const tags = trendingTagsSchema.parse(trends.json()).tags.map((trend) => trend.tag);
    expect(tags).toEqual(expect.arrayContaining(['astronomy', 'sourdough']));
    const mentions = await t.app.db.selectFrom('comment_mentions').selectAll().execute();
    const noah = await t.app.db
      .selectFrom('users')
      .select('id')
      .where('username', '=', 'noahw')
      .executeTakeFirstOrThrow();
    expect(mentions.map((mention) => mention.user_id)).toEqual([noah.id]);
  });

  it('is never added over existing data', async () => {
    const before = await t.app.db.selectFrom('users').select('id').execute();
    const added = await seedDemoDataIfEmpty(t.app.db, {
      passwordHashCost: 1024,
      mediaDir: path.join(t.config.dataDir, 'media'),
    });
    expect(added).toBe(false);
    const after = await t.app.db.selectFrom('users').select('id').execute();
    expect(after).toHaveLength(before.length);
  });
});
