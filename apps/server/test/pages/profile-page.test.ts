import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMember, type Member } from '../factories';
import { call, createTestApp, type TestApp } from '../helpers';
import { createPost, editProfile, uploadImage } from '../social/social-helpers';
import { expectHtml, expectNotFound, readPage, setPrivacy, textOf } from './pages-helpers';

describe('GET /@:username, a member’s public profile', () => {
  let t: TestApp;
  let alice: Member;
  let bob: Member;
  let hidden: Member;
  let imageUrl: string;
  const postIds: string[] = [];

  beforeAll(async () => {
    t = await createTestApp();
    [alice, bob, hidden] = [
      await createMember(t.app, { firstName: 'Alice', lastName: 'Liddell' }),
      await createMember(t.app),
      await createMember(t.app),
    ];
    const avatar = await uploadImage(t.app, alice.token, 'avatar');
    await editProfile(t.app, alice.token, {
      firstName: 'Alice',
      lastName: 'Liddell',
      bio: 'Curious & <b>bold</b>',
      avatarURL: avatar,
    });
    await setPrivacy(t.app, hidden.token, { publicProfile: false });
    imageUrl = await uploadImage(t.app, alice.token);
    for (let i = 1; i <= 21; i += 1) {
      postIds.push((await createPost(t.app, alice.token, `Post number ${String(i)}`)).id);
    }
    const special = await createPost(
      t.app,
      alice.token,
      `<script>alert("x")</script> #Perch with @${bob.user.username} and @${hidden.user.username}`,
      imageUrl,
    );
    postIds.push(special.id);
  });
  afterAll(() => t.close());

  const profileUrl = () => `/@${alice.user.username}`;

  it('shows who the member is, with their counts', async () => {
    const page = await readPage(t.app, profileUrl());
    expectHtml(page, 200);
    const root = page.document.querySelector('#root');
    expect(root?.getAttribute('data-public-page')).toBe('profile');
    expect(page.document.querySelectorAll('h1').map((h) => textOf(h))).toEqual(['Alice Liddell']);
    expect(textOf(page.document.querySelector('.public-username'))).toBe(`@${alice.user.username}`);
    // The bio is text: its markup shows as written.
    expect(textOf(page.document.querySelector('.public-bio'))).toBe('Curious & <b>bold</b>');
    expect(page.document.querySelector('.public-bio b')).toBeNull();
    expect(page.document.querySelectorAll('.public-counts li').map((li) => textOf(li))).toEqual([
      '22 posts',
      '0 followers',
      '0 following',
    ]);
    const avatar = page.document.querySelector('img.public-profile-avatar');
    expect(avatar?.getAttribute('alt')).toBe('Profile picture of Alice Liddell');
    expect(avatar?.getAttribute('width')).toBe('96');
    expect(page.document.querySelector('header')).not.toBeNull();
    expect(page.document.querySelector('main')).not.toBeNull();
    expect(page.linksNamed('Sign in')).toEqual(['/login']);
    expect(page.linksNamed('Create an account')).toEqual(['/signup']);
  });

  it('lists the newest 20 posts, newest first, each linking to its page', async () => {
    const page = await readPage(t.app, profileUrl());
    const articles = page.document.querySelectorAll('article.public-post');
    expect(articles).toHaveLength(20);
    const links = articles.map((a) => a.querySelector('.public-post-meta a')?.getAttribute('href'));
    const newestFirst = [...postIds].reverse().slice(0, 20);
    expect(links).toEqual(newestFirst.map((id) => `/@${alice.user.username}/${id}`));
    const time = articles[0]?.querySelector('time');
    expect(Number.isNaN(Date.parse(time?.getAttribute('datetime') ?? ''))).toBe(false);
    expect(textOf(articles[1]?.querySelector('.public-post-text'))).toBe('Post number 21');
    expect(articles[1]?.querySelectorAll('.public-post-stats li').map((li) => textOf(li))).toEqual([
      '0 likes',
      '0 comments',
    ]);
  });

  it('escapes post text and links tags and the mentions of public members', async () => {
    const page = await readPage(t.app, profileUrl());
    const newest = page.document.querySelector('article.public-post');
    const text = newest?.querySelector('.public-post-text');
    expect(textOf(text)).toContain('<script>alert("x")</script> #Perch');
    expect(page.document.querySelectorAll('script')).toHaveLength(0);
    const links = text?.querySelectorAll('a').map((a) => [textOf(a), a.getAttribute('href')]);
    expect(links).toEqual([
      ['#Perch', '/tags/perch'],
      [`@${bob.user.username}`, `/@${bob.user.username}`],
    ]);
    // A member hidden from readers without an account is named, not linked.
    expect(textOf(text)).toContain(`@${hidden.user.username}`);
  });

  it('shows images with their description and size', async () => {
    const page = await readPage(t.app, profileUrl());
    const image = page.document.querySelector('article.public-post img.public-post-image');
    expect(image?.getAttribute('src')).toBe(imageUrl);
    expect(image?.getAttribute('alt')).toBe('Image posted by Alice Liddell');
    // The page's first image is fetched at once: it is likely the largest thing on screen.
    expect(image?.getAttribute('fetchpriority')).toBe('high');
    expect(image?.getAttribute('loading')).toBeUndefined();
    expect(Number(image?.getAttribute('width'))).toBeGreaterThan(0);
    expect(Number(image?.getAttribute('height'))).toBeGreaterThan(0);
    for (const img of page.document.querySelectorAll('img')) {
      expect(img.getAttribute('alt')).toBeTruthy();
    }
  });

  it('pages to older posts with the posts API’s cursor', async () => {
    const first = await readPage(t.app, profileUrl());
    const [older] = first.linksNamed('Older posts');
    expect(older).toMatch(new RegExp(`^/@${alice.user.username}\\?cursor=`));
    const second = await readPage(t.app, older ?? '');
    expectHtml(second, 200);
    const links = second.document
      .querySelectorAll('article.public-post .public-post-meta a')
      .map((a) => a.getAttribute('href'));
    expect(links).toEqual(
      postIds
        .slice(0, 2)
        .reverse()
        .map((id) => `/@${alice.user.username}/${id}`),
    );
    expect(second.linksNamed('Older posts')).toEqual([]);
    expect(second.document.querySelector('link[rel="canonical"]')?.getAttribute('href')).toContain(
      '?cursor=',
    );
  });

  it('describes itself to search engines and link previews', async () => {
    const page = await readPage(t.app, profileUrl(), { host: 'perch.test:8080' });
    const name = `Alice Liddell (@${alice.user.username})`;
    const origin = 'http://perch.test:8080';
    expect(textOf(page.document.querySelector('title'))).toBe(`${name} · Perch`);
    expect(page.document.querySelectorAll('title')).toHaveLength(1);
    expect(page.meta('description')).toBe('Curious & <b>bold</b>');
    const canonical = page.document.querySelector('link[rel="canonical"]')?.getAttribute('href');
    expect(canonical).toBe(`${origin}/@${alice.user.username}`);
    expect(page.meta('og:type')).toBe('profile');
    expect(page.meta('og:title')).toBe(`${name} · Perch`);
    expect(page.meta('og:url')).toBe(canonical);
    expect(page.meta('og:site_name')).toBe('Perch');
    expect(page.meta('og:image')).toMatch(new RegExp(`^${origin}/media/`));
    expect(Number(page.meta('og:image:width'))).toBeGreaterThan(0);
    expect(Number(page.meta('og:image:height'))).toBeGreaterThan(0);
    expect(page.meta('og:image:alt')).toBe('Profile picture of Alice Liddell');
    expect(page.meta('twitter:card')).toBe('summary');
    expect(page.meta('robots')).toBeUndefined();
    const feeds = (type: string) =>
      page.document.querySelector(`link[rel="alternate"][type="${type}"]`)?.getAttribute('href');
    expect(feeds('application/rss+xml')).toBe(`${origin}/@${alice.user.username}.rss`);
    expect(feeds('application/atom+xml')).toBe(`${origin}/@${alice.user.username}.atom`);
  });

  it('asks search engines not to index a member who said so', async () => {
    await setPrivacy(t.app, bob.token, { noindex: true });
    const page = await readPage(t.app, `/@${bob.user.username}`);
    expectHtml(page, 200);
    expect(page.meta('robots')).toBe('noindex');
    expect(page.meta('twitter:card')).toBe('summary');
    expect(page.meta('og:image')).toBeUndefined();
    expect(textOf(page.document.querySelector('.public-empty'))).toBe('No posts yet.');
  });

  it('answers 404 for an unknown member and one hidden from readers without an account', async () => {
    expectNotFound(await readPage(t.app, '/@nobody_at_all'));
    expectNotFound(await readPage(t.app, '/@not%20a%20name'));
    expectNotFound(await readPage(t.app, `/@${hidden.user.username}`));
    // Turned back on, the profile shows again.
    await setPrivacy(t.app, hidden.token, { publicProfile: true });
    expectHtml(await readPage(t.app, `/@${hidden.user.username}`), 200);
    await setPrivacy(t.app, hidden.token, { publicProfile: false });
  });

  it('answers a cursor it did not issue with a 400 page', async () => {
    const page = await readPage(t.app, `${profileUrl()}?cursor=not-a-cursor`);
    expectHtml(page, 400);
    expect(textOf(page.document.querySelector('h1'))).toBe('This address is not valid');
  });

  it('moves a username in another case to the member’s own spelling', async () => {
    const response = await call(t.app, {
      method: 'GET',
      url: `/@${alice.user.username.toUpperCase()}?cursor=abc`,
    });
    expect(response.statusCode).toBe(301);
    expect(response.headers.location).toBe(`/@${alice.user.username}?cursor=abc`);
  });

  it('is cacheable for a minute, with the pages’ security headers, and answers HEAD', async () => {
    const response = await call(t.app, { method: 'GET', url: profileUrl() });
    expect(response.headers['cache-control']).toBe('public, max-age=60');
    expect(response.headers['content-security-policy']).toContain("script-src 'self'");
    expect(response.headers['x-frame-options']).toBe('DENY');
    const head = await call(t.app, { method: 'HEAD', url: profileUrl() });
    expect(head.statusCode).toBe(200);
    expect(head.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(head.body).toBe('');
    const missing = await call(t.app, { method: 'HEAD', url: '/@nobody_at_all' });
    expect(missing.statusCode).toBe(404);
  });
});

describe('the profile page with PUBLIC_URL set', () => {
  let t: TestApp;
  let member: Member;

  beforeAll(async () => {
    t = await createTestApp({ publicUrl: 'https://perch.example' });
    member = await createMember(t.app);
  });
  afterAll(() => t.close());

  it('names its canonical address from PUBLIC_URL, whatever the Host', async () => {
    const page = await readPage(t.app, `/@${member.user.username}`, { host: 'internal:3000' });
    const canonical = `https://perch.example/@${member.user.username}`;
    expect(page.document.querySelector('link[rel="canonical"]')?.getAttribute('href')).toBe(
      canonical,
    );
    expect(page.meta('og:url')).toBe(canonical);
  });
});
