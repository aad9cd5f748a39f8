import { postSchema } from '@perch/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '../../src/lib/ids';
import { call, createTestApp, type TestApp } from '../helpers';
import { createMembers, follow, idsOf, like, MINIMAL, walk } from './social-helpers';

const DAY = 24 * 60 * 60 * 1000;
let t: TestApp;

beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

/** Writes a post as if it had been made `daysAgo` days ago (ids carry their creation time). */
async function oldPost(userId: string, daysAgo: number, content: string): Promise<string> {
  const createdAt = Date.now() - daysAgo * DAY;
  const id = newId(createdAt);
  await t.app.db
    .insertInto('posts')
    .values({
      id,
      user_id: userId,
      content,
      media_url: null,
      created_at: createdAt,
      updated_at: createdAt,
    })
    .execute();
  return id;
}

describe('feeds over a long history', () => {
  it('walks the home feed past quiet weeks down to the oldest post, newest first', async () => {
    const [viewer, quiet] = await createMembers(t.app, 2);
    expect((await follow(t.app, viewer.token, quiet.user._id, MINIMAL)).statusCode).toBe(200);
    const ages = [1, 3, 20, 45, 90, 200, 400];
    const ids = [];
    for (const age of ages) ids.push(await oldPost(quiet.user._id, age, `${age} days ago`));

    for (const limit of [1, 2, 5, 20]) {
      const { items } = await walk(t.app, '/api/posts/feed', 'posts', postSchema, {
        token: viewer.token,
        limit,
      });
      expect(idsOf(items)).toEqual(ids);
    }
  });

  it('pages the liked posts in creation order, whenever they were liked', async () => {
    const [viewer, author] = await createMembers(t.app, 2);
    const ids = [];
    for (const age of [5, 50, 500]) ids.push(await oldPost(author.user._id, age, `${age} days`));
    // Liked oldest first: the order of liking must not matter.
    for (const id of [...ids].reverse()) {
      expect((await like(t.app, viewer.token, id, MINIMAL)).statusCode).toBe(201);
    }
    const latest = await walk(t.app, '/api/posts/liked', 'posts', postSchema, {
      token: viewer.token,
      limit: 1,
    });
    expect(idsOf(latest.items)).toEqual(ids);
    const oldest = await walk(t.app, '/api/posts/liked', 'posts', postSchema, {
      token: viewer.token,
      limit: 2,
      query: { sort: 'oldest' },
    });
    expect(idsOf(oldest.items)).toEqual([...ids].reverse());
    const response = await call(t.app, {
      method: 'GET',
      url: '/api/posts/liked?sort=trending',
      token: viewer.token,
    });
    expect(response.statusCode).toBe(200);
  });
});
