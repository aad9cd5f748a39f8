import {
  AccountErrors,
  CONTENT_WARNING_MAX,
  CONTENT_WARNING_TOO_LONG,
  postMutationResponseSchema,
  type Post,
  type Preferences,
} from '@perch/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMember, type Member } from '../factories';
import { call, createTestApp, type TestApp } from '../helpers';
import { readPage, textOf } from '../pages/pages-helpers';
import {
  MINIMAL,
  bodyOf,
  expectError,
  fetchPost,
  postRequest,
  uploadImage,
} from './social-helpers';

let t: TestApp;
let author: Member;
let reader: Member;
beforeAll(async () => {
  t = await createTestApp();
  author = await createMember(t.app, { firstName: 'Cora', lastName: 'Warner' });
  reader = await createMember(t.app);
});
afterAll(async () => {
  await t.close();
});

async function create(postData: Record<string, unknown>): Promise<Post> {
  const response = await postRequest(t.app, author.token, postData, MINIMAL);
  return bodyOf(postMutationResponseSchema, response, 201).post;
}

async function edited(postId: string, postData: Record<string, unknown>): Promise<Post> {
  const response = await call(t.app, {
    method: 'POST',
    url: `/api/posts/edit/${postId}`,
    token: author.token,
    payload: { postData },
    headers: MINIMAL,
  });
  return bodyOf(postMutationResponseSchema, response, 201).post;
}

/** The post as stored and as a list read serves it, checked against each other. */
async function stored(postId: string) {
  const row = await t.app.db
    .selectFrom('posts')
    .select(['content_warning', 'sensitive'])
    .where('id', '=', postId)
    .executeTakeFirstOrThrow();
  const read = await fetchPost(t.app, postId, reader.token);
  expect(read.contentWarning).toBe(row.content_warning);
  expect(read.sensitive).toBe(row.sensitive === 1);
  return { contentWarning: read.contentWarning, sensitive: read.sensitive };
}

describe('content warnings and sensitive images', () => {
  it('stores a warning trimmed, marks the images sensitive with it, and lists it', async () => {
    const post = await create({ content: 'Spoilers ahead', contentWarning: '  Film ending ' });
    expect(post.contentWarning).toBe('Film ending');
    expect(post.sensitive).toBe(true);
    expect(await stored(post._id)).toEqual({ contentWarning: 'Film ending', sensitive: true });

    const feed = await call(t.app, { method: 'GET', url: '/api/posts?sort=latest' });
    const listed = feed.json<{ posts: Post[] }>().posts.find((item) => item._id === post._id);
    expect(listed).toMatchObject({ contentWarning: 'Film ending', sensitive: true });
  });

  it('has none by default, and none for a blank or null warning', async () => {
    const plain = await create({ content: 'Nothing to hide' });
    expect(plain).toMatchObject({ contentWarning: null, sensitive: false });
    const blank = await create({ content: 'Blank', contentWarning: '   ', sensitive: false });
    expect(await stored(blank._id)).toEqual({ contentWarning: null, sensitive: false });
    const sentBack = await create({ content: 'As read', contentWarning: null });
    expect(sentBack.contentWarning).toBeNull();
  });

  it('marks an image sensitive without a warning', async () => {
    const mediaURL = await uploadImage(t.app, author.token);
    const post = await create({ content: 'Surgery photo', mediaURL, sensitive: true });
    expect(await stored(post._id)).toEqual({ contentWarning: null, sensitive: true });
  });

  it('changes on edit only what the edit sends', async () => {
    const post = await create({ content: 'First draft' });
    const warned = await edited(post._id, { contentWarning: 'Politics' });
    expect(warned).toMatchObject({ content: 'First draft', contentWarning: 'Politics' });
    expect(warned.sensitive).toBe(true);

    const retexted = await edited(post._id, { content: 'Second draft' });
    expect(retexted).toMatchObject({ contentWarning: 'Politics', sensitive: true });

    const cleared = await edited(post._id, { contentWarning: '', sensitive: false });
    expect(await stored(cleared._id)).toEqual({ contentWarning: null, sensitive: false });
  });

  it('refuses a warning that is too long or not text, and a mark that is not a boolean', async () => {
    expectError(
      await postRequest(t.app, author.token, {
        content: 'x',
        contentWarning: 'w'.repeat(CONTENT_WARNING_MAX + 1),
      }),
      400,
      CONTENT_WARNING_TOO_LONG,
    );
    // Characters as people see them: a long run of one emoji fits when it is short enough.
    const emoji = await create({ content: 'x', contentWarning: '🐦'.repeat(CONTENT_WARNING_MAX) });
    expect(emoji.contentWarning).toBe('🐦'.repeat(CONTENT_WARNING_MAX));
    expectError(
      await postRequest(t.app, author.token, { content: 'x', contentWarning: 5 }),
      400,
      'contentWarning must be text.',
    );
    expectError(
      await postRequest(t.app, author.token, { content: 'x', sensitive: 'yes' }),
      400,
      'sensitive must be true or false.',
    );
  });

  it('keeps the warned text and image closed on the public page and out of previews', async () => {
    const mediaURL = await uploadImage(t.app, author.token);
    const post = await create({
      content: 'The twist is revealed',
      mediaURL,
      contentWarning: 'Book spoilers',
    });
    const page = await readPage(t.app, `/@${author.user.username}/${post._id}`);
    const details = page.document.querySelector('details.public-warning');
    expect(details).not.toBeNull();
    expect(details?.hasAttribute('open')).toBe(false);
    expect(textOf(details?.querySelector('summary'))).toBe('Book spoilers Show more');
    expect(textOf(details?.querySelector('.public-post-text'))).toBe('The twist is revealed');
    expect(details?.querySelector('img')?.getAttribute('src')).toBe(mediaURL);
    expect(page.meta('og:description')).toBe('Content warning: Book spoilers');
    expect(page.meta('og:image') ?? '').not.toContain(mediaURL);
    expect(page.meta('twitter:card')).toBe('summary');

    const sensitive = await create({ content: 'Look', mediaURL, sensitive: true });
    const other = await readPage(t.app, `/@${author.user.username}/${sensitive._id}`);
    expect(textOf(other.document.querySelector('.public-post-text'))).toBe('Look');
    expect(other.document.querySelector('details.public-sensitive img')).not.toBeNull();
    expect(other.meta('og:image') ?? '').not.toContain(mediaURL);
  });

  it('puts the warning first in feeds', async () => {
    await create({ content: 'Feed spoiler text', contentWarning: 'Feed warning' });
    const response = await call(t.app, {
      method: 'GET',
      url: `/@${author.user.username}.rss`,
    });
    expect(response.statusCode).toBe(200);
    expect(response.body).toContain('<title>Feed warning</title>');
    expect(response.body).toContain('Content warning: Feed warning');
  });
});

describe('GET and PATCH /api/account/preferences', () => {
  const read = (token?: string) =>
    call(t.app, { method: 'GET', url: '/api/account/preferences', token });
  const change = (payload: unknown, token?: string) =>
    call(t.app, {
      method: 'PATCH',
      url: '/api/account/preferences',
      token,
      payload: payload as object,
    });

  it('starts with sensitive media hidden, and keeps a change', async () => {
    const member = await createMember(t.app);
    expect((await read(member.token)).json<Preferences>()).toEqual({
      alwaysShowSensitiveMedia: false,
    });
    const changed = await change({ alwaysShowSensitiveMedia: true }, member.token);
    expect(changed.statusCode).toBe(200);
    expect(changed.json<Preferences>()).toEqual({ alwaysShowSensitiveMedia: true });
    expect((await read(member.token)).json<Preferences>()).toEqual({
      alwaysShowSensitiveMedia: true,
    });
    // Another member's stay as they were.
    expect((await read(reader.token)).json<Preferences>()).toEqual({
      alwaysShowSensitiveMedia: false,
    });
  });

  it('answers 401 without a session and 400 for bad input', async () => {
    expect((await read()).statusCode).toBe(401);
    expect((await change({ alwaysShowSensitiveMedia: true })).statusCode).toBe(401);
    expectError(await change({}, reader.token), 400, AccountErrors.preferencesEmpty);
    expectError(
      await change({ alwaysShowSensitiveMedia: 'yes' }, reader.token),
      400,
      AccountErrors.preferenceNotBoolean('alwaysShowSensitiveMedia'),
    );
    expect(
      (await change({ alwaysShowSensitiveMedia: true, extra: 1 }, reader.token)).statusCode,
    ).toBe(400);
  });
});
