import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMember, type Member } from '../factories';
import { call, createTestApp, type TestApp } from '../helpers';
import {
  addComment,
  createPost,
  deletePost,
  like,
  UNKNOWN_ID,
  uploadImage,
} from '../social/social-helpers';
import { expectHtml, expectNotFound, readPage, setPrivacy, textOf } from './pages-helpers';

describe('GET /@:username/:postId, a post’s public page', () => {
  let t: TestApp;
  let author: Member;
  let reader: Member;
  let shy: Member;
  let postId: string;
  let imageUrl: string;
  const longText = `${'A very long opening line about herons '.repeat(3)}<script>x</script>`;

  beforeAll(async () => {
    t = await createTestApp();
    author = await createMember(t.app, { firstName: 'Ada', lastName: 'Lovelace' });
    reader = await createMember(t.app, { firstName: 'Rita', lastName: 'Reader' });
    shy = await createMember(t.app);
    imageUrl = await uploadImage(t.app, author.token);
    const post = await createPost(t.app, author.token, longText, imageUrl);
    postId = post.id;
    await like(t.app, reader.token, postId);
    await addComment(t.app, reader.token, postId, 'First! #birds');
    await addComment(t.app, shy.token, postId, 'Second, from someone private');
    await addComment(t.app, reader.token, postId, `Third <img src=x onerror=alert(1)>`);
    await setPrivacy(t.app, shy.token, { publicProfile: false });
  });
  afterAll(() => t.close());

  const postUrl = () => `/@${author.user.username}/${postId}`;

  it('shows the post with its author, image, counts and date', async () => {
    const page = await readPage(t.app, postUrl());
    expectHtml(page, 200);
    const { document } = page;
    expect(document.querySelector('#root')?.getAttribute('data-public-page')).toBe('post');
    expect(document.querySelectorAll('h1').map((h) => textOf(h))).toEqual(['Ada Lovelace']);
    expect(textOf(document.querySelector('article .public-username'))).toBe(
      `@${author.user.username}`,
    );
    const text = document.querySelector('article .public-post-text');
    expect(textOf(text)).toBe(longText.trim());
    expect(document.querySelectorAll('script')).toHaveLength(0);
    const image = document.querySelector('article img.public-post-image');
    expect(image?.getAttribute('src')).toBe(imageUrl);
    expect(image?.getAttribute('alt')).toBe('Image posted by Ada Lovelace');
    expect(Number(image?.getAttribute('width'))).toBeGreaterThan(0);
    expect(Number(image?.getAttribute('height'))).toBeGreaterThan(0);
    expect(
      document.querySelectorAll('article .public-post-stats li').map((li) => textOf(li)),
    ).toEqual(['1 like', '3 comments']);
    expect(document.querySelector('article time')?.getAttribute('datetime')).toMatch(
      /^\d{4}-\d\d-\d\dT/,
    );
  });

  it('shows the first comments oldest first, escaped, a private author as Unknown', async () => {
    const page = await readPage(t.app, postUrl());
    const comments = page.document.querySelectorAll('.public-comment');
    expect(comments.map((c) => textOf(c.querySelector('.public-comment-text')))).toEqual([
      'First! #birds',
      'Second, from someone private',
      'Third <img src=x onerror=alert(1)>',
    ]);
    expect(page.document.querySelectorAll('.public-comment img')).toHaveLength(0);
    const bylines = comments.map((c) => c.querySelector('.public-comment-meta'));
    expect(bylines[0]?.querySelector('a')?.getAttribute('href')).toBe(`/@${reader.user.username}`);
    expect(textOf(bylines[1])).toMatch(/^Unknown ·/);
    expect(bylines[1]?.querySelector('a')).toBeNull();
    expect(textOf(bylines[1])).not.toContain(shy.user.username);
    expect(comments[0]?.querySelector('a[rel="tag"]')?.getAttribute('href')).toBe('/tags/birds');
    expect(textOf(page.document.querySelector('#public-comments-heading'))).toBe('3 comments');
  });

  it('describes itself as an article, its image shown large in previews', async () => {
    const page = await readPage(t.app, postUrl(), { host: 'perch.test' });
    const quote = `${longText.slice(0, 59).trimEnd()}…`;
    expect(textOf(page.document.querySelector('title'))).toBe(`Ada Lovelace on Perch: “${quote}”`);
    expect(page.meta('description')?.startsWith('A very long opening line')).toBe(true);
    expect(page.document.querySelector('link[rel="canonical"]')?.getAttribute('href')).toBe(
      `http://perch.test${postUrl()}`,
    );
    expect(page.meta('og:type')).toBe('article');
    expect(page.meta('og:url')).toBe(`http://perch.test${postUrl()}`);
    expect(page.meta('og:image')).toBe(`http://perch.test${imageUrl}`);
    expect(Number(page.meta('og:image:width'))).toBeGreaterThan(0);
    expect(page.meta('og:image:alt')).toBe('Image posted by Ada Lovelace');
    expect(page.meta('twitter:card')).toBe('summary_large_image');
    expect(page.meta('article:author')).toBe(`http://perch.test/@${author.user.username}`);
    expect(page.meta('robots')).toBeUndefined();
  });

  it('moves a post read under another member’s name to its author’s address', async () => {
    for (const name of [
      reader.user.username,
      'nobody_at_all',
      author.user.username.toUpperCase(),
    ]) {
      const response = await call(t.app, { method: 'GET', url: `/@${name}/${postId}` });
      expect(response.statusCode).toBe(301);
      expect(response.headers.location).toBe(postUrl());
    }
  });

  it('answers 404 for an unknown post and one whose author is private', async () => {
    expectNotFound(await readPage(t.app, `/@${author.user.username}/${UNKNOWN_ID}`));
    const shyPost = await createPost(t.app, shy.token, 'Not for everyone');
    expectNotFound(await readPage(t.app, `/@${shy.user.username}/${shyPost.id}`));
    // Nor is a private author's post found under another name.
    expectNotFound(await readPage(t.app, `/@${author.user.username}/${shyPost.id}`));
  });

  it('answers 404 once the post is deleted', async () => {
    const post = await createPost(t.app, author.token, 'Soon gone');
    expectHtml(await readPage(t.app, `/@${author.user.username}/${post.id}`), 200);
    expect((await deletePost(t.app, author.token, post.id)).statusCode).toBe(201);
    expectNotFound(await readPage(t.app, `/@${author.user.username}/${post.id}`));
  });

  it('asks search engines not to index a post of a member who said so', async () => {
    await setPrivacy(t.app, author.token, { noindex: true });
    const page = await readPage(t.app, postUrl());
    expect(page.meta('robots')).toBe('noindex');
    await setPrivacy(t.app, author.token, { noindex: false });
  });

  it('names a post without an image by its author’s picture or as a summary', async () => {
    const post = await createPost(t.app, reader.token, 'Just words');
    const page = await readPage(t.app, `/@${reader.user.username}/${post.id}`);
    expect(textOf(page.document.querySelector('title'))).toBe('Rita Reader on Perch: “Just words”');
    expect(page.meta('twitter:card')).toBe('summary');
    expect(page.meta('og:image')).toBeUndefined();
    expect(page.document.querySelectorAll('img')).toHaveLength(0);
    expect(textOf(page.document.querySelector('.public-empty'))).toBe('No comments yet.');
  });
});
