import { existsSync } from 'node:fs';
import path from 'node:path';
import {
  MEDIA_ALT_MAX,
  POST_MEDIA_MAX,
  PostMediaMessages,
  postMutationResponseSchema,
  type Post,
} from '@perch/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mediaDirOf } from '../../src/app/app';
import { jsonOf, unzip } from '../account/account-helpers';
import { drain } from '../events/event-helpers';
import { createMember, type Member } from '../factories';
import { call, createTestApp, type TestApp } from '../helpers';
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
let other: Member;
beforeAll(async () => {
  t = await createTestApp();
  author = await createMember(t.app);
  other = await createMember(t.app);
});
afterAll(async () => {
  await t.close();
});

const create = (postData: Record<string, unknown>, member = author) =>
  postRequest(t.app, member.token, postData, MINIMAL);

async function created(postData: Record<string, unknown>): Promise<Post> {
  return bodyOf(postMutationResponseSchema, await create(postData), 201).post;
}

const edit = (postId: string, postData: Record<string, unknown>) =>
  call(t.app, {
    method: 'POST',
    url: `/api/posts/edit/${postId}`,
    token: author.token,
    payload: { postData },
    headers: MINIMAL,
  });

async function edited(postId: string, postData: Record<string, unknown>): Promise<Post> {
  return bodyOf(postMutationResponseSchema, await edit(postId, postData), 201).post;
}

async function uploads(count: number, member = author): Promise<string[]> {
  const urls: string[] = [];
  for (let i = 0; i < count; i += 1) urls.push(await uploadImage(t.app, member.token));
  return urls;
}

const stored = (url: string) =>
  existsSync(path.join(mediaDirOf(t.config), ...url.slice('/media/'.length).split('/')));

/** The post_media rows of a post, in order: what media release reads. */
async function rowsOf(postId: string): Promise<string[]> {
  const rows = await t.app.db
    .selectFrom('post_media')
    .select('url')
    .where('post_id', '=', postId)
    .orderBy('position')
    .execute();
  return rows.map((row) => row.url);
}

describe('albums', () => {
  it('keeps one image, with its size and blurhash, in media and in mediaURL', async () => {
    const [url = ''] = await uploads(1);
    const post = await created({ content: 'one', media: [{ url, alt: '  A cat ' }] });
    expect(post.mediaURL).toBe(url);
    expect(post.mediaAlt).toBe('A cat');
    expect(post.media).toHaveLength(1);
    expect(post.media[0]).toMatchObject({ url, alt: 'A cat', width: 16, height: 16 });
    expect(post.media[0]?.blurhash).toEqual(expect.any(String));
    expect(await rowsOf(post._id)).toEqual([url]);
  });

  it('keeps four images in the order given, each with its own description', async () => {
    const urls = await uploads(4);
    const media = urls.map((url, i) => ({ url, alt: i === 2 ? null : `Image ${String(i + 1)}` }));
    const post = await created({ content: '', media });
    const read = await fetchPost(t.app, post._id, other.token);
    for (const seen of [post, read]) {
      expect(seen.media.map((image) => image.url)).toEqual(urls);
      expect(seen.media.map((image) => image.alt)).toEqual(['Image 1', 'Image 2', null, 'Image 4']);
      expect(seen.mediaURL).toBe(urls[0]);
      expect(seen.mediaAlt).toBe('Image 1');
    }
    expect(await rowsOf(post._id)).toEqual(urls);
  });

  it(`takes ${String(POST_MEDIA_MAX)} images and refuses one more`, async () => {
    const urls = await uploads(POST_MEDIA_MAX + 1);
    const ten = await created({ media: urls.slice(0, POST_MEDIA_MAX).map((url) => ({ url })) });
    expect(ten.media.map((image) => image.url)).toEqual(urls.slice(0, POST_MEDIA_MAX));
    const eleven = await create({ media: urls.map((url) => ({ url })) });
    expectError(eleven, 400, PostMediaMessages.tooMany);
  });

  it('refuses unknown uploads, long descriptions, repeats and a mediaURL that disagrees', async () => {
    const [mine = '', second = ''] = await uploads(2);
    const [theirs = ''] = await uploads(1, other);
    expectError(
      await create({ media: [{ url: mine }, { url: theirs }] }),
      400,
      PostMediaMessages.notUploaded,
    );
    expectError(
      await create({ media: [{ url: 'https://x.test/a.png' }] }),
      400,
      PostMediaMessages.notUploaded,
    );
    const long = 'a'.repeat(MEDIA_ALT_MAX + 1);
    expectError(
      await create({ media: [{ url: mine, alt: long }] }),
      400,
      PostMediaMessages.altTooLong,
    );
    expectError(
      await create({ media: [{ url: mine }, { url: mine }] }),
      400,
      PostMediaMessages.duplicate,
    );
    expectError(
      await create({ media: [{ url: mine }], mediaURL: second }),
      400,
      PostMediaMessages.conflicting,
    );
    // Nothing was written by the refused posts.
    const count = await t.app.db
      .selectFrom('post_media')
      .select((eb) => eb.fn.countAll<string | number>().as('n'))
      .where('url', '=', theirs)
      .executeTakeFirstOrThrow();
    expect(Number(count.n)).toBe(0);
  });

  it('makes a one-image album of the single mediaURL of older clients', async () => {
    const [url = ''] = await uploads(1);
    const post = await created({ content: 'legacy', mediaURL: url, mediaAlt: 'Old style' });
    expect(post.media).toEqual([expect.objectContaining({ url, alt: 'Old style', width: 16 })]);
    expect(await rowsOf(post._id)).toEqual([url]);
  });

  it('keeps the album when an older client sends the first image back with new text', async () => {
    const urls = await uploads(3);
    const post = await created({
      content: 'before',
      media: urls.map((url) => ({ url, alt: url })),
    });
    const after = await edited(post._id, {
      content: 'after',
      mediaURL: urls[0],
      mediaAlt: 'First',
    });
    expect(after.media.map((image) => image.url)).toEqual(urls);
    expect(after.media.map((image) => image.alt)).toEqual(['First', urls[1], urls[2]]);
  });

  it('keeps the album of a post sent back whole, as read, with new text or a new first image', async () => {
    const urls = await uploads(2);
    const post = await created({
      content: 'round trip',
      media: urls.map((url) => ({ url, alt: 'x' })),
    });
    const again = await edited(post._id, { ...post, content: 'edited' });
    expect(again.media).toEqual(post.media);
    const [replacement = ''] = await uploads(1);
    const replaced = await edited(post._id, { ...again, mediaURL: replacement });
    expect(replaced.media.map((image) => image.url)).toEqual([replacement]);
    // A text post read back (media empty) with an image added the old way gets it.
    const [added = ''] = await uploads(1);
    const text = await created({ content: 'text only' });
    const withImage = await edited(text._id, { ...text, mediaURL: added });
    expect(withImage.media.map((image) => image.url)).toEqual([added]);
  });

  it('reorders and drops images on edit, and releases the dropped uploads', async () => {
    const [a = '', b = '', c = ''] = await uploads(3);
    const post = await created({
      content: 'album',
      media: [
        { url: a, alt: 'A' },
        { url: b, alt: 'B' },
        { url: c, alt: 'C' },
      ],
    });
    const after = await edited(post._id, { media: [{ url: c }, { url: a, alt: 'A again' }] });
    expect(after.media.map((image) => [image.url, image.alt])).toEqual([
      [c, 'C'],
      [a, 'A again'],
    ]);
    expect(after.mediaURL).toBe(c);
    expect(await rowsOf(post._id)).toEqual([c, a]);
    await drain(t.app);
    expect(stored(b)).toBe(false);
    expect(stored(a) && stored(c)).toBe(true);

    const cleared = await edited(post._id, { media: null });
    expect(cleared.media).toEqual([]);
    expect(cleared.mediaURL).toBeNull();
    await drain(t.app);
    expect([stored(a), stored(c)]).toEqual([false, false]);
  });

  it('adds new uploads among the kept images on edit, each described or cleared as sent', async () => {
    const [a = '', b = '', added = ''] = await uploads(3);
    const [theirs = ''] = await uploads(1, other);
    const post = await created({
      content: 'album',
      media: [
        { url: a, alt: 'A' },
        { url: b, alt: 'B' },
      ],
    });
    const after = await edited(post._id, {
      media: [
        { url: b, alt: null },
        { url: added, alt: 'New' },
        { url: a, alt: 'A' },
      ],
    });
    expect(after.media.map((image) => [image.url, image.alt])).toEqual([
      [b, null],
      [added, 'New'],
      [a, 'A'],
    ]);
    // The new image brings the size its upload recorded.
    expect(after.media[1]?.width).toEqual(expect.any(Number));
    expect([after.mediaURL, after.mediaAlt]).toEqual([b, null]);
    expect(await rowsOf(post._id)).toEqual([b, added, a]);

    // Another member's upload is not the author's to add.
    expectError(
      await edit(post._id, { media: [{ url: b }, { url: theirs }] }),
      400,
      PostMediaMessages.notUploaded,
    );
    expect(
      (await fetchPost(t.app, post._id, author.token)).media.map((image) => image.url),
    ).toEqual([b, added, a]);
  });

  it('releases every image of a deleted post', async () => {
    const urls = await uploads(3);
    const post = await created({ media: urls.map((url) => ({ url })) });
    const deleted = await call(t.app, {
      method: 'DELETE',
      url: `/api/posts/${post._id}`,
      token: author.token,
      headers: MINIMAL,
    });
    expect(deleted.statusCode, deleted.body).toBe(201);
    expect(await rowsOf(post._id)).toEqual([]);
    await drain(t.app);
    expect(urls.map(stored)).toEqual([false, false, false]);
  });

  it('keeps an image that another post still shows', async () => {
    const [shared = '', alone = ''] = await uploads(2);
    const first = await created({ media: [{ url: shared }, { url: alone }] });
    await created({ content: 'same picture', media: [{ url: shared }] });
    await edited(first._id, { media: [{ url: alone }] });
    await drain(t.app);
    expect(stored(shared)).toBe(true);
  });

  it('exports every image of a post with its description, and the images themselves', async () => {
    const member = await createMember(t.app);
    const urls = await uploads(2, member);
    const response = await create(
      { content: 'to export', media: urls.map((url, i) => ({ url, alt: `Alt ${String(i)}` })) },
      member,
    );
    expect(response.statusCode, response.body).toBe(201);
    const archive = await call(t.app, {
      method: 'GET',
      url: '/api/users/me/export',
      token: member.token,
    });
    expect(archive.statusCode).toBe(200);
    const files = await unzip(archive.rawPayload);
    const [exported] = jsonOf(files, 'posts.json') as { media: unknown[] }[];
    expect(exported?.media).toEqual(urls.map((url, i) => ({ url, alt: `Alt ${String(i)}` })));
    for (const url of urls) expect(files.has(`media${url.slice('/media'.length)}`)).toBe(true);
  });
});
