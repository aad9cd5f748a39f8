import { afterAll, beforeAll, expect, it } from 'vitest';
import { call, createTestApp, type TestApp } from '../helpers';
import { postIdOf, rssOf, storedSize } from './feed-helpers';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ seedDemoData: true, publicUrl: 'https://perch.example' });
});
afterAll(async () => {
  await t.close();
});

it('attaches the demo images, which no upload records, with their size and type', async () => {
  const newest = await t.app.db
    .selectFrom('posts as p')
    .innerJoin('users as u', 'u.id', 'p.user_id')
    .select(['p.id', 'p.media_url', 'u.username'])
    .where('p.media_url', 'like', '/media/demo/%')
    .orderBy('p.created_at', 'desc')
    .limit(1)
    .executeTakeFirstOrThrow();
  const mediaURL = newest.media_url ?? '';
  for (let read = 0; read < 2; read += 1) {
    const { item } = rssOf(await call(t.app, { method: 'GET', url: `/@${newest.username}.rss` }));
    const enclosure = item.find((each) => postIdOf(each.link) === newest.id)?.enclosure;
    expect(enclosure?.['@url']).toBe(`https://perch.example${mediaURL}`);
    expect(enclosure?.['@type']).toBe('image/svg+xml');
    expect(Number(enclosure?.['@length'])).toBe(storedSize(t.config.dataDir, mediaURL));
  }
});
