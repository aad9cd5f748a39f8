import {
  MEDIA_ALT_MAX,
  MEDIA_ALT_TOO_LONG,
  postMutationResponseSchema,
  type Post,
} from '@perch/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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
beforeAll(async () => {
  t = await createTestApp();
  author = await createMember(t.app);
});
afterAll(async () => {
  await t.close();
});

async function create(postData: Record<string, unknown>): Promise<Post> {
  const response = await postRequest(t.app, author.token, postData, MINIMAL);
  return bodyOf(postMutationResponseSchema, response, 201).post;
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

/** The description as stored and as every later read serves it. */
async function storedAlt(postId: string): Promise<string | null> {
  const row = await t.app.db
    .selectFrom('posts')
    .select('media_alt')
    .where('id', '=', postId)
    .executeTakeFirstOrThrow();
  const read = await fetchPost(t.app, postId, author.token);
  expect(read.mediaAlt).toBe(row.media_alt);
  return row.media_alt;
}

describe('image descriptions (alt text)', () => {
  it('stores a description with the image, trimmed, and serves it in every answer', async () => {
    const mediaURL = await uploadImage(t.app, author.token);
    const post = await create({
      content: 'Sunset',
      mediaURL,
      mediaAlt: '  A red sun over the sea ',
    });
    expect(post.mediaAlt).toBe('A red sun over the sea');
    expect(await storedAlt(post._id)).toBe('A red sun over the sea');

    const feed = await call(t.app, {
      method: 'GET',
      url: '/api/posts?sort=latest',
      token: author.token,
    });
    const listed = feed.json<{ posts: Post[] }>().posts.find((item) => item._id === post._id);
    expect(listed?.mediaAlt).toBe('A red sun over the sea');
  });

  it('keeps none without an image, or when the description is blank', async () => {
    const textOnly = await create({ content: 'No picture', mediaAlt: 'ignored' });
    expect(textOnly.mediaAlt).toBeNull();
    const mediaURL = await uploadImage(t.app, author.token);
    const blank = await create({ content: '', mediaURL, mediaAlt: '   ' });
    expect(blank.mediaAlt).toBeNull();
    expect(await storedAlt(blank._id)).toBeNull();
  });

  it('changes with edits: kept, replaced, cleared, and dropped with the image it described', async () => {
    const first = await uploadImage(t.app, author.token);
    const post = await create({ content: 'Edit me', mediaURL: first, mediaAlt: 'Old words' });

    expect((await edited(post._id, { content: 'Edited text' })).mediaAlt).toBe('Old words');
    expect((await edited(post._id, { mediaAlt: 'New words' })).mediaAlt).toBe('New words');
    expect((await edited(post._id, { mediaAlt: '' })).mediaAlt).toBeNull();
    await edited(post._id, { mediaAlt: 'Back again' });
    expect((await edited(post._id, { mediaAlt: null })).mediaAlt).toBeNull();
    await edited(post._id, { mediaAlt: 'Back again' });

    // Another image does not inherit the description of the one it replaces…
    const second = await uploadImage(t.app, author.token);
    expect((await edited(post._id, { mediaURL: second })).mediaAlt).toBeNull();
    // …unless it comes with its own.
    const third = await uploadImage(t.app, author.token);
    expect((await edited(post._id, { mediaURL: third, mediaAlt: 'Third' })).mediaAlt).toBe('Third');
    // Removing the image removes its description.
    expect((await edited(post._id, { mediaURL: null })).mediaAlt).toBeNull();
    expect(await storedAlt(post._id)).toBeNull();
  });

  it(`refuses a description over ${MEDIA_ALT_MAX} characters and one that is not text`, async () => {
    const mediaURL = await uploadImage(t.app, author.token);
    expectError(
      await postRequest(t.app, author.token, { mediaURL, mediaAlt: 'x'.repeat(MEDIA_ALT_MAX + 1) }),
      400,
      MEDIA_ALT_TOO_LONG,
    );
    expectError(
      await postRequest(t.app, author.token, { mediaURL, mediaAlt: 42 }),
      400,
      'mediaAlt must be text.',
    );
    // Exactly the most, counted in characters (emoji count once).
    const longest = '🌅'.repeat(MEDIA_ALT_MAX);
    expect((await create({ mediaURL, mediaAlt: longest })).mediaAlt).toBe(longest);
    const post = await create({ mediaURL, mediaAlt: 'ok' });
    expectError(
      await edit(post._id, { mediaAlt: 'y'.repeat(MEDIA_ALT_MAX + 1) }),
      400,
      MEDIA_ALT_TOO_LONG,
    );
    expect(await storedAlt(post._id)).toBe('ok');
  });
});
