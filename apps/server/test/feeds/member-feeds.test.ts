import type { Post } from '@perch/contract';
import { parse as parseHtml } from 'node-html-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMember, type Member } from '../factories';
import { call, createTestApp, type TestApp } from '../helpers';
import { editPost } from '../discovery/discovery-helpers';
import { createPost, deletePost, editProfile, uploadImage } from '../social/social-helpers';
import {
  atomOf,
  expectPlainNotFound,
  linkOf,
  postIdOf,
  rssOf,
  storedSize,
  type RssItem,
} from './feed-helpers';

const ORIGIN = 'https://perch.example';

let t: TestApp;
let alice: Member;
let avatarURL: string;
/** Alice's posts, oldest first. */
const posts: Post[] = [];

const get = (url: string, headers: Record<string, string> = {}) =>
  call(t.app, { method: 'GET', url, headers });
const setPrivacy = (member: Member, values: { public_profile?: number; noindex?: number }) =>
  t.app.db.updateTable('users').set(values).where('id', '=', member.user._id).execute();
const itemOf = (items: readonly RssItem[], post: Post): RssItem => {
  const item = items.find((each) => postIdOf(each.link) === post._id);
  if (!item) throw new Error(`no item for ${post._id}`);
  return item;
};

beforeAll(async () => {
  t = await createTestApp({ publicUrl: ORIGIN });
  alice = await createMember(t.app, { username: 'alice_feeds' });
  await createMember(t.app, { username: 'bob_feeds' });
  avatarURL = await uploadImage(t.app, alice.token, 'avatar');
  await editProfile(t.app, alice.token, {
    firstName: 'Alice',
    lastName: 'Tern & Co',
    bio: 'Birds <b>&</b> boats',
    avatarURL,
  });
  for (let i = 0; i < 21; i += 1) posts.push(await createPost(t.app, alice.token, `note ${i}`));
  posts.push(
    await createPost(t.app, alice.token, 'With a picture', await uploadImage(t.app, alice.token)),
  );
  posts.push(
    await createPost(
      t.app,
      alice.token,
      'Hi @bob_feeds #Sea <script>alert(1)</script> & more\nsecond line\n\nnew paragraph',
    ),
  );
});
afterAll(async () => {
  await t.close();
});

describe("a member's RSS feed", () => {
  it('names the member, links their page and itself, with their bio and avatar', async () => {
    const channel = rssOf(await get('/@alice_feeds.rss'));
    expect(channel.title).toBe('Alice Tern & Co (@alice_feeds)');
    expect(channel.link).toBe(`${ORIGIN}/@alice_feeds`);
    expect(channel.description).toBe('Birds <b>&</b> boats');
    expect(channel['atom:link']['@href']).toBe(`${ORIGIN}/@alice_feeds.rss`);
    expect(channel.language).toBe('en');
    expect(channel.image?.url).toBe(`${ORIGIN}${avatarURL}`);
    expect(channel.image?.link).toBe(`${ORIGIN}/@alice_feeds`);
    const newest = posts.at(-1);
    expect(new Date(channel.lastBuildDate).getTime()).toBe(
      Math.floor(new Date(newest?.updatedAt ?? 0).getTime() / 1000) * 1000,
    );
  });

  it('carries the 20 newest posts, newest first, each linking its page as a permanent guid', async () => {
    const { item } = rssOf(await get('/@alice_feeds.rss'));
    const expected = posts.slice(-20).reverse();
    expect(item.map((each) => postIdOf(each.link))).toEqual(expected.map((post) => post._id));
    for (const [i, each] of item.entries()) {
      const post = expected[i];
      expect(each.link).toBe(`${ORIGIN}/@alice_feeds/${post?._id ?? ''}`);
      expect(each.guid['#text']).toBe(each.link);
      expect(each['dc:creator']).toBe('Alice Tern & Co');
      // RFC 822 dates to the second, the update time to the millisecond.
      const created = new Date(post?.createdAt ?? 0).getTime();
      expect(new Date(each.pubDate).getTime()).toBe(Math.floor(created / 1000) * 1000);
      expect(each.pubDate).toMatch(
        /^[A-Z][a-z]{2}, \d{2} [A-Z][a-z]{2} \d{4} \d{2}:\d{2}:\d{2} GMT$/,
      );
      expect(each['atom:updated']).toBe(post?.updatedAt);
    }
  });

  it("attaches the image with its stored file's size and type", async () => {
    const { item } = rssOf(await get('/@alice_feeds.rss'));
    const pictured = posts.at(-2);
    if (!pictured?.mediaURL) throw new Error('the post has no image');
    const enclosure = itemOf(item, pictured).enclosure;
    expect(enclosure?.['@url']).toBe(`${ORIGIN}${pictured.mediaURL}`);
    expect(enclosure?.['@type']).toBe('image/webp');
    expect(Number(enclosure?.['@length'])).toBe(storedSize(t.config.dataDir, pictured.mediaURL));
    expect(Number(enclosure?.['@length'])).toBeGreaterThan(0);
    expect(item.filter((each) => each.enclosure).length).toBe(1);
  });

  it('escapes the text, links tags and mentions, keeps line breaks', async () => {
    const response = await get('/@alice_feeds.rss');
    expect(response.body).not.toContain('<script>');
    const post = posts.at(-1);
    if (!post) throw new Error('no post');
    const item = itemOf(rssOf(response).item, post);
    const html = item['content:encoded'];
    expect(item.description).toBe(html);
    expect(html).toContain('&lt;script&gt;alert(1)&lt;/script&gt; &amp; more');
    const document = parseHtml(html);
    expect(document.querySelectorAll('script')).toHaveLength(0);
    const paragraphs = document.querySelectorAll('p');
    expect(paragraphs.map((p) => p.text)).toEqual([
      'Hi @bob_feeds #Sea <script>alert(1)</script> & more\nsecond line',
      'new paragraph',
    ]);
    expect(paragraphs[0]?.querySelectorAll('br')).toHaveLength(1);
    const links = document.querySelectorAll('a').map((a) => [a.text, a.getAttribute('href')]);
    expect(links).toEqual([
      ['@bob_feeds', `${ORIGIN}/@bob_feeds`],
      ['#Sea', `${ORIGIN}/tags/sea`],
    ]);
    expect(item.category).toEqual(['sea']);
    expect(item.title).toBe('Hi @bob_feeds #Sea <script>alert(1)</script> & more');
  });
});

describe("a member's Atom feed", () => {
  it('has what RFC 4287 asks of a feed and its entries', async () => {
    const feed = atomOf(await get('/@alice_feeds.atom'));
    expect(feed.id).toBe(`${ORIGIN}/@alice_feeds.atom`);
    expect(feed.title['#text']).toBe('Alice Tern & Co (@alice_feeds)');
    expect(feed.subtitle?.['#text']).toBe('Birds <b>&</b> boats');
    expect(linkOf(feed.link, 'self')?.['@href']).toBe(`${ORIGIN}/@alice_feeds.atom`);
    expect(linkOf(feed.link, 'alternate')?.['@href']).toBe(`${ORIGIN}/@alice_feeds`);
    expect(feed.author).toEqual({ name: 'Alice Tern & Co', uri: `${ORIGIN}/@alice_feeds` });
    expect(feed.icon).toBe(`${ORIGIN}${avatarURL}`);
    expect(feed.updated).toBe(posts.at(-1)?.updatedAt);
    const expected = posts.slice(-20).reverse();
    expect(feed.entry.map((entry) => entry.id)).toEqual(
      expected.map((post) => `${ORIGIN}/@alice_feeds/${post._id}`),
    );
    for (const [i, entry] of feed.entry.entries()) {
      expect(entry.published).toBe(expected[i]?.createdAt);
      expect(entry.updated).toBe(expected[i]?.updatedAt);
      expect(linkOf(entry.link, 'alternate')?.['@href']).toBe(entry.id);
      expect(entry.author.name).toBe('Alice Tern & Co');
    }
  });

  it('links the image as an enclosure with its length and type, and escapes the content', async () => {
    const response = await get('/@alice_feeds.atom');
    expect(response.body).not.toContain('<script>');
    const feed = atomOf(response);
    const pictured = posts.at(-2);
    if (!pictured?.mediaURL) throw new Error('the post has no image');
    const entry = feed.entry.find((each) => postIdOf(each.id) === pictured._id);
    const enclosure = linkOf(entry?.link ?? [], 'enclosure');
    expect(enclosure?.['@href']).toBe(`${ORIGIN}${pictured.mediaURL}`);
    expect(enclosure?.['@type']).toBe('image/webp');
    expect(Number(enclosure?.['@length'])).toBe(storedSize(t.config.dataDir, pictured.mediaURL));
    const newest = feed.entry[0];
    expect(newest?.content['#text']).toContain('&lt;script&gt;alert(1)&lt;/script&gt; &amp;');
    expect(newest?.category).toEqual([{ '@term': 'sea' }]);
  });
});

describe('who and how', () => {
  it('finds the member whatever the case of the name', async () => {
    const channel = rssOf(await get('/@ALICE_Feeds.rss'));
    expect(channel.link).toBe(`${ORIGIN}/@alice_feeds`);
  });

  it('answers 404 in plain text for an unknown member, in both formats', async () => {
    expectPlainNotFound(await get('/@nobody_here.rss'));
    expectPlainNotFound(await get('/@nobody_here.atom'));
  });

  it('answers 404 for a member who keeps their profile from people not signed in', async () => {
    const carol = await createMember(t.app, { username: 'carol_feeds' });
    await createPost(t.app, carol.token, 'not for everyone');
    expect(rssOf(await get('/@carol_feeds.rss')).item).toHaveLength(1);
    await setPrivacy(carol, { public_profile: 0 });
    expectPlainNotFound(await get('/@carol_feeds.rss'));
    expectPlainNotFound(await get('/@carol_feeds.atom'));
    // Whoever asks: a feed is always read as by someone not signed in.
    expectPlainNotFound(
      await call(t.app, { method: 'GET', url: '/@carol_feeds.rss', token: carol.token }),
    );
  });

  it('asks robots not to index the feed of a member who asked so', async () => {
    const dave = await createMember(t.app, { username: 'dave_feeds' });
    expect((await get('/@dave_feeds.rss')).headers['x-robots-tag']).toBeUndefined();
    await setPrivacy(dave, { noindex: 1 });
    const response = await get('/@dave_feeds.atom');
    expect(atomOf(response).entry).toEqual([]);
    expect(response.headers['x-robots-tag']).toBe('noindex');
  });

  it('takes its links from the Host when no public address is configured', async () => {
    const other = await createTestApp();
    try {
      const member = await createMember(other.app, { username: 'erin_feeds' });
      await createPost(other.app, member.token, 'hello');
      const response = await call(other.app, {
        method: 'GET',
        url: '/@erin_feeds.rss',
        headers: { host: 'feeds.test:8080' },
      });
      const channel = rssOf(response);
      expect(channel.link).toBe('http://feeds.test:8080/@erin_feeds');
      expect(channel.item[0]?.link).toMatch(/^http:\/\/feeds\.test:8080\/@erin_feeds\//);
    } finally {
      await other.close();
    }
  });

  it('answers HEAD with the headers and no body', async () => {
    const response = await call(t.app, { method: 'HEAD', url: '/@alice_feeds.atom' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('application/atom+xml; charset=utf-8');
    expect(response.headers.etag).toBeDefined();
    expect(response.body).toBe('');
    expectPlainNotFound(await get('/@nobody_here.atom'));
    expect((await call(t.app, { method: 'HEAD', url: '/@nobody_here.rss' })).statusCode).toBe(404);
  });

  it('may be kept by caches a short while, and answers 304 while it has not changed', async () => {
    const first = await get('/@alice_feeds.rss');
    expect(first.headers['cache-control']).toBe('public, max-age=300');
    // Readers in a browser, on their own origin, may read it.
    expect(first.headers['access-control-allow-origin']).toBe('*');
    expect(first.headers['cross-origin-resource-policy']).toBe('cross-origin');
    const etag = String(first.headers.etag);
    expect(etag).toMatch(/^W\/".+"$/);
    const again = await get('/@alice_feeds.rss', { 'if-none-match': `"other", ${etag}` });
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe('');
    expect(again.headers.etag).toBe(etag);
    // The Atom feed is another document: its validator differs.
    expect((await get('/@alice_feeds.atom', { 'if-none-match': etag })).statusCode).toBe(200);

    const newest = posts.at(-1);
    if (!newest) throw new Error('no post');
    await editPost(t.app, alice.token, newest._id, 'Edited #Sea');
    const changed = await get('/@alice_feeds.rss', { 'if-none-match': etag });
    expect(changed.statusCode).toBe(200);
    expect(changed.headers.etag).not.toBe(etag);
    expect(itemOf(rssOf(changed).item, newest).title).toBe('Edited #Sea');
  });

  it('leaves a deleted post out', async () => {
    const gone = posts.at(-3);
    if (!gone) throw new Error('no post');
    expect((await deletePost(t.app, alice.token, gone._id)).statusCode).toBe(201);
    const ids = rssOf(await get('/@alice_feeds.rss')).item.map((each) => postIdOf(each.link));
    expect(ids).not.toContain(gone._id);
    expect(ids).toHaveLength(20);
  });
});
