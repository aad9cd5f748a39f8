import type { Post } from '@perch/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMember, type Member } from '../factories';
import { call, createTestApp, type TestApp } from '../helpers';
import { createPost, uploadImage } from '../social/social-helpers';
import { expectPlainNotFound, postIdOf, rssOf, storedSize } from './feed-helpers';

const ORIGIN = 'https://perch.example';

let t: TestApp;
let ann: Member;
let ben: Member;
let hidden: Member;

const get = (url: string, headers: Record<string, string> = {}) =>
  call(t.app, { method: 'GET', url, headers });
const idsIn = async (url: string) => rssOf(await get(url)).item.map((item) => postIdOf(item.link));

beforeAll(async () => {
  t = await createTestApp({ publicUrl: ORIGIN });
  ann = await createMember(t.app, { username: 'ann_tags' });
  ben = await createMember(t.app, { username: 'ben_tags' });
  hidden = await createMember(t.app, { username: 'hid_tags' });
  await t.app.db
    .updateTable('users')
    .set({ public_profile: 0 })
    .where('id', '=', hidden.user._id)
    .execute();
});
afterAll(async () => {
  await t.close();
});

describe("a tag's RSS feed", () => {
  it('names the tag, links its page and itself', async () => {
    await createPost(t.app, ann.token, 'A #Heron today');
    const channel = rssOf(await get('/tags/heron.rss'));
    expect(channel.title).toBe('#heron');
    expect(channel.link).toBe(`${ORIGIN}/tags/heron`);
    expect(channel['atom:link']['@href']).toBe(`${ORIGIN}/tags/heron.rss`);
    expect(channel.description).toBe('Posts tagged #heron');
    expect(channel.language).toBe('en');
    expect(channel.image).toBeUndefined();
  });

  it('carries the 20 newest posts with the tag, whatever its case, newest first', async () => {
    const posts: Post[] = [];
    for (let i = 0; i < 22; i += 1) {
      const author = i % 2 === 0 ? ann : ben;
      posts.push(
        await createPost(t.app, author.token, `walk ${i} #${i % 3 === 0 ? 'Walk' : 'WALK'}`),
      );
    }
    await createPost(t.app, ann.token, 'not tagged walk');
    const expected = posts
      .slice(-20)
      .reverse()
      .map((post) => post._id);
    expect(await idsIn('/tags/walk.rss')).toEqual(expected);
    expect(await idsIn('/tags/Walk.rss')).toEqual(expected);
    expect(await idsIn('/tags/%23walk.rss')).toEqual(expected);

    const { item } = rssOf(await get('/tags/walk.rss'));
    const newest = posts.at(-1);
    expect(item[0]?.link).toBe(`${ORIGIN}/@ben_tags/${newest?._id ?? ''}`);
    expect(item[0]?.['dc:creator']).toBe(`${ben.user.firstName} ${ben.user.lastName}`);
    expect(item[0]?.category).toEqual(['walk']);
    expect(new Date(item[0]?.pubDate ?? '').getTime()).toBe(
      Math.floor(new Date(newest?.createdAt ?? 0).getTime() / 1000) * 1000,
    );
  });

  it('attaches images with their stored size and type', async () => {
    const post = await createPost(
      t.app,
      ann.token,
      'a #Pond picture',
      await uploadImage(t.app, ann.token),
    );
    const [item] = rssOf(await get('/tags/pond.rss')).item;
    if (!post.mediaURL) throw new Error('the post has no image');
    expect(item?.enclosure?.['@url']).toBe(`${ORIGIN}${post.mediaURL}`);
    expect(item?.enclosure?.['@type']).toBe('image/webp');
    expect(Number(item?.enclosure?.['@length'])).toBe(storedSize(t.config.dataDir, post.mediaURL));
  });

  it('leaves out the posts of members hidden from people not signed in, and still fills up', async () => {
    const shown: Post[] = [];
    for (let i = 0; i < 3; i += 1) shown.push(await createPost(t.app, ann.token, `#Owl ${i}`));
    // More hidden posts than one page of the tag holds, all newer than the shown ones.
    for (let i = 0; i < 25; i += 1) await createPost(t.app, hidden.token, `#owl hidden ${i}`);
    const ids = await idsIn('/tags/owl.rss');
    expect(ids).toEqual(shown.reverse().map((post) => post._id));
    const body = (await get('/tags/owl.rss')).body;
    expect(body).not.toContain('hid_tags');
  });

  it('is empty, not missing, for a tag nobody used', async () => {
    const channel = rssOf(await get('/tags/unusedtag.rss'));
    expect(channel.item).toEqual([]);
    expect(channel.title).toBe('#unusedtag');
  });

  it('answers 404 in plain text for what is no tag', async () => {
    for (const bad of ['123', 'no-dash', '%20', 'a.b', 'x'.repeat(65)]) {
      expectPlainNotFound(await get(`/tags/${bad}.rss`));
    }
  });

  it('answers HEAD, and 304 to a reader who holds it', async () => {
    const head = await call(t.app, { method: 'HEAD', url: '/tags/walk.rss' });
    expect(head.statusCode).toBe(200);
    expect(head.headers['content-type']).toBe('application/rss+xml; charset=utf-8');
    expect(head.body).toBe('');
    const first = await get('/tags/walk.rss');
    expect(first.headers['cache-control']).toBe('public, max-age=300');
    expect(head.headers.etag).toBe(first.headers.etag);
    const again = await get('/tags/walk.rss', { 'if-none-match': String(first.headers.etag) });
    expect(again.statusCode).toBe(304);
    await createPost(t.app, ben.token, 'one more #walk');
    const changed = await get('/tags/walk.rss', { 'if-none-match': String(first.headers.etag) });
    expect(changed.statusCode).toBe(200);
  });
});
