import {
  ErrorMessages,
  MEDIA_URL_RULE,
  POST_EMPTY,
  postDeleteResponseSchema,
  postMutationResponseSchema,
  postPageSchema,
} from '@perch/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMember, type Member } from '../factories';
import { call, createTestApp, type TestApp } from '../helpers';
import {
  MINIMAL,
  UNKNOWN_ID,
  addComment,
  bodyOf,
  bookmark,
  createPost,
  deletePost,
  editProfile,
  expectError,
  fetchPost,
  getPost,
  getUser,
  idsOf,
  keysOf,
  like,
  postRequest,
  uploadImage,
} from './social-helpers';

let t: TestApp;
let author: Member;
let other: Member;
beforeAll(async () => {
  t = await createTestApp();
  author = await createMember(t.app, { firstName: 'Ada', lastName: 'Lovelace' });
  other = await createMember(t.app);
});
afterAll(async () => {
  await t.close();
});

const editPost = (token: string | undefined, postId: string, postData: unknown, headers = {}) =>
  call(t.app, {
    method: 'POST',
    url: `/api/posts/edit/${postId}`,
    token,
    payload: { postData },
    headers,
  });

describe('POST /api/posts', () => {
  it('creates a post whose author comes from the token, ignoring ids, likes and dates sent', async () => {
    const before = await getUser(t.app, author.user.username);
    const response = await postRequest(t.app, author.token, {
      content: 'Hello, Perch',
      mediaURL: null,
      _id: 'chosen-id',
      userId: other.user._id,
      username: other.user.username,
      likes: { likeCount: 99, likedBy: [{ _id: other.user._id, username: 'x' }], dislikedBy: [] },
      commentCount: 7,
      createdAt: '2001-01-01T00:00:00.000Z',
      updatedAt: '2001-01-01T00:00:00.000Z',
    });
    const { post, posts } = bodyOf(postMutationResponseSchema, response, 201);
    expect(post).toMatchObject({
      content: 'Hello, Perch',
      mediaURL: null,
      username: author.user.username,
      userId: author.user._id,
      author: {
        _id: author.user._id,
        username: author.user.username,
        firstName: 'Ada',
        lastName: 'Lovelace',
        avatarURL: null,
      },
      likes: { likeCount: 0, likedBy: [], dislikedBy: [] },
      commentCount: 0,
      likedByViewer: false,
      bookmarkedByViewer: false,
    });
    expect(post._id).not.toBe('chosen-id');
    expect(Math.abs(Date.parse(post.createdAt) - Date.now())).toBeLessThan(60_000);
    expect(posts?.[0]?._id).toBe(post._id);
    const latest = await call(t.app, { method: 'GET', url: '/api/posts', token: author.token });
    expect(posts).toEqual(bodyOf(postPageSchema, latest, 200).posts);

    const row = await t.app.db
      .selectFrom('posts')
      .selectAll()
      .where('id', '=', post._id)
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({ user_id: author.user._id, like_count: 0, comment_count: 0 });
    const after = await getUser(t.app, author.user.username);
    expect(after.postsCount).toBe(before.postsCount + 1);
  });

  it("answers the post as it then reads, with its entities, image and its author's current profile", async () => {
    const member = await createMember(t.app, { firstName: 'Before', lastName: 'Edit' });
    await editProfile(t.app, member.token, {
      firstName: 'After',
      lastName: 'Edit',
      avatarURL: await uploadImage(t.app, member.token, 'avatar'),
    });
    const content = `hi @${author.user.username}, see #perch 🐦`;
    const mediaURL = await uploadImage(t.app, member.token);
    const response = await postRequest(
      t.app,
      member.token,
      { content, mediaURL, mediaAlt: 'a bird' },
      MINIMAL,
    );
    const { post } = bodyOf(postMutationResponseSchema, response, 201);
    const { comments, ...read } = await fetchPost(t.app, post._id, member.token);
    expect(comments).toEqual([]);
    expect(post).toEqual(read);
    expect(post).toMatchObject({ content, mediaURL, mediaAlt: 'a bird', commentCount: 0 });
    expect(post.author).toMatchObject({ firstName: 'After', username: member.user.username });
    expect(post.author.avatarURL).not.toBeNull();
    expect(post.entities.length).toBeGreaterThan(0);
  });

  it('answers only the post with Prefer: return=minimal', async () => {
    const response = await postRequest(t.app, author.token, { content: 'minimal' }, MINIMAL);
    const body = bodyOf(postMutationResponseSchema, response, 201);
    expect(keysOf(response)).toEqual(['post']);
    expect(body.post.content).toBe('minimal');
  });

  it('accepts 2,000 characters, counted as code points, and refuses 2,001', async () => {
    for (const content of ['a'.repeat(2000), '🐦'.repeat(2000)]) {
      const response = await postRequest(t.app, author.token, { content }, MINIMAL);
      expect(bodyOf(postMutationResponseSchema, response, 201).post.content).toBe(content);
    }
    const tooLong = await postRequest(t.app, author.token, { content: 'a'.repeat(2001) });
    expectError(tooLong, 400, 'A post can be at most 2000 characters.');
  });

  it('refuses a post with neither text nor an image', async () => {
    const empties = [{ content: '' }, { content: '  \n\t ', mediaURL: null }, { mediaURL: '' }, {}];
    for (const postData of empties) {
      expectError(await postRequest(t.app, author.token, postData), 400, POST_EMPTY);
    }
  });

  it('accepts an image-only post with an uploaded image', async () => {
    const mediaURL = await uploadImage(t.app, author.token);
    expect(mediaURL).toMatch(/^\/media\//);
    const response = await postRequest(t.app, author.token, { content: '', mediaURL });
    const { post } = bodyOf(postMutationResponseSchema, response, 201);
    expect(post).toMatchObject({ content: '', mediaURL });
    expect((await fetchPost(t.app, post._id)).mediaURL).toBe(mediaURL);
  });

  it('takes an empty mediaURL for no image, as clients of the original API send it', async () => {
    const response = await postRequest(t.app, author.token, {
      content: 'no picture',
      mediaURL: '',
    });
    expect(bodyOf(postMutationResponseSchema, response, 201).post.mediaURL).toBeNull();
    const mediaURL = await uploadImage(t.app, author.token);
    const pictured = await createPost(t.app, author.token, 'picture', mediaURL);
    const edited = await editPost(author.token, pictured._id, { mediaURL: '' }, MINIMAL);
    expect(bodyOf(postMutationResponseSchema, edited, 201).post.mediaURL).toBeNull();
  });

  it('refuses images that were not uploaded to Perch', async () => {
    for (const mediaURL of [
      '/media/x.png',
      `/media/ab/${'ab'.repeat(32)}.webp`,
      'https://evil.example/x.png',
      '//evil.example/x.png',
      'javascript:alert(1)',
      'data:image/png;base64,AAAA',
    ]) {
      const response = await postRequest(t.app, author.token, { content: 'look', mediaURL });
      expectError(response, 400, MEDIA_URL_RULE);
    }
  });

  it('stores and returns content verbatim', async () => {
    for (const content of [
      '<script>alert(1)</script>',
      '   leading and trailing spaces   ',
      'Emoji 🐦‍🔥 and skin tones 👋🏽, accents: café',
      'line one\nline two\r\n\ttabbed',
      "'; DROP TABLE posts; --",
    ]) {
      const post = await createPost(t.app, author.token, content);
      expect(post.content).toBe(content);
      expect((await fetchPost(t.app, post._id)).content).toBe(content);
    }
  });

  it('answers 401 without a valid token and creates nothing', async () => {
    const before = await t.app.db.selectFrom('posts').select('id').execute();
    for (const token of [undefined, 'garbage']) {
      const response = await postRequest(t.app, token, { content: 'anonymous' });
      expectError(response, 401, ErrorMessages.invalidToken);
    }
    const after = await t.app.db.selectFrom('posts').select('id').execute();
    expect(after).toHaveLength(before.length);
  });
});

describe('GET /api/posts/{postId}', () => {
  it('answers the post to anyone, with the viewer flags for a viewer', async () => {
    const post = await createPost(t.app, author.token, 'readable');
    await like(t.app, other.token, post._id);
    const anonymous = await fetchPost(t.app, post._id);
    expect(anonymous).toMatchObject({
      _id: post._id,
      content: 'readable',
      likes: { likeCount: 1, likedBy: [], dislikedBy: [] },
      likedByViewer: false,
      bookmarkedByViewer: false,
    });
    const seenByLiker = await fetchPost(t.app, post._id, other.token);
    expect(seenByLiker.likedByViewer).toBe(true);
    expect(seenByLiker.likes.likedBy).toEqual([
      { _id: other.user._id, id: other.user._id, username: other.user.username },
    ]);
    expect((await fetchPost(t.app, post._id, author.token)).likes.likedBy).toEqual([]);
  });

  it('answers 404 for an unknown post', async () => {
    expectError(await getPost(t.app, UNKNOWN_ID), 404, ErrorMessages.postNotFound);
  });
});

describe('POST /api/posts/edit/{postId}', () => {
  it('lets the author edit the content and keeps everything else', async () => {
    const post = await createPost(t.app, author.token, 'first draft');
    const response = await editPost(author.token, post._id, {
      content: 'second draft',
      userId: other.user._id,
      likes: { likeCount: 50 },
    });
    const body = bodyOf(postMutationResponseSchema, response, 201);
    expect(body.post).toMatchObject({
      _id: post._id,
      content: 'second draft',
      userId: author.user._id,
      username: author.user.username,
      createdAt: post.createdAt,
      likes: { likeCount: 0 },
    });
    expect(Date.parse(body.post.updatedAt)).toBeGreaterThanOrEqual(Date.parse(post.updatedAt));
    expect(body.posts).toBeDefined();
    expect((await fetchPost(t.app, post._id)).content).toBe('second draft');
  });

  it('changes only the image when only the image is sent, and keeps a post non-empty', async () => {
    const post = await createPost(t.app, author.token, 'with a picture');
    const mediaURL = await uploadImage(t.app, author.token);
    const imaged = await editPost(author.token, post._id, { mediaURL }, MINIMAL);
    expect(bodyOf(postMutationResponseSchema, imaged, 201).post).toMatchObject({
      content: 'with a picture',
      mediaURL,
    });
    const textless = await editPost(author.token, post._id, { content: '' }, MINIMAL);
    expect(bodyOf(postMutationResponseSchema, textless, 201).post.content).toBe('');
    expectError(await editPost(author.token, post._id, { mediaURL: null }), 400, POST_EMPTY);
    const bare = await createPost(t.app, author.token, 'text only');
    expectError(await editPost(author.token, bare._id, { content: '   ' }), 400, POST_EMPTY);
    expect((await fetchPost(t.app, bare._id)).content).toBe('text only');
  });

  it('applies the same limits as a new post', async () => {
    const post = await createPost(t.app, author.token, 'limits');
    const long = await editPost(author.token, post._id, { content: 'a'.repeat(2001) });
    expectError(long, 400, 'A post can be at most 2000 characters.');
    const foreign = await editPost(author.token, post._id, { mediaURL: 'https://evil.example/x' });
    expectError(foreign, 400, MEDIA_URL_RULE);
    expect((await fetchPost(t.app, post._id)).content).toBe('limits');
  });

  it("refuses another member's edit and leaves the post as it was", async () => {
    const post = await createPost(t.app, author.token, 'mine');
    const response = await editPost(other.token, post._id, { content: 'hijacked' });
    expectError(response, 400, ErrorMessages.editPostNotOwner);
    expect((await fetchPost(t.app, post._id)).content).toBe('mine');
  });

  it('answers 404 for an unknown post and 401 without a token', async () => {
    const unknown = await editPost(author.token, UNKNOWN_ID, { content: 'x' });
    expectError(unknown, 404, ErrorMessages.postNotFound);
    const post = await createPost(t.app, author.token, 'guarded');
    expectError(
      await editPost(undefined, post._id, { content: 'x' }),
      401,
      ErrorMessages.invalidToken,
    );
  });
});

describe('DELETE /api/posts/{postId}', () => {
  it("refuses another member's delete", async () => {
    const post = await createPost(t.app, author.token, 'keep me');
    expectError(
      await deletePost(t.app, other.token, post._id),
      400,
      ErrorMessages.deletePostNotOwner,
    );
    expect((await fetchPost(t.app, post._id)).content).toBe('keep me');
  });

  it('removes the post with its likes, comments and bookmarks, and updates the count', async () => {
    const kept = await createPost(t.app, author.token, 'kept');
    const post = await createPost(t.app, author.token, 'doomed');
    for (const target of [kept, post]) {
      expect((await like(t.app, other.token, target._id)).statusCode).toBe(201);
      expect((await bookmark(t.app, other.token, target._id)).statusCode).toBe(200);
      await addComment(t.app, other.token, target._id, 'nice');
    }
    const before = await getUser(t.app, author.user.username);

    const response = await deletePost(t.app, author.token, post._id);
    const body = bodyOf(postDeleteResponseSchema, response, 201);
    expect(body.postId).toBe(post._id);
    expect(body.posts).toBeDefined();
    expect(idsOf(body.posts ?? [])).not.toContain(post._id);
    expect(idsOf(body.posts ?? [])).toContain(kept._id);

    expectError(await getPost(t.app, post._id), 404, ErrorMessages.postNotFound);
    for (const table of ['likes', 'comments', 'bookmarks'] as const) {
      const gone = await t.app.db
        .selectFrom(table)
        .select('post_id')
        .where('post_id', '=', post._id)
        .execute();
      expect(gone, table).toHaveLength(0);
      const remaining = await t.app.db
        .selectFrom(table)
        .select('post_id')
        .where('post_id', '=', kept._id)
        .execute();
      expect(remaining, table).toHaveLength(1);
    }
    const after = await getUser(t.app, author.user.username);
    expect(after.postsCount).toBe(before.postsCount - 1);
    expect((await fetchPost(t.app, kept._id)).likes.likeCount).toBe(1);
  });

  it('answers only the id with Prefer: return=minimal, then 404 once gone', async () => {
    const post = await createPost(t.app, author.token, 'short-lived');
    const response = await deletePost(t.app, author.token, post._id, MINIMAL);
    expect(bodyOf(postDeleteResponseSchema, response, 201).postId).toBe(post._id);
    expect(response.json()).toEqual({ postId: post._id });
    expectError(await deletePost(t.app, author.token, post._id), 404, ErrorMessages.postNotFound);
  });

  it('answers 401 without a token', async () => {
    const post = await createPost(t.app, author.token, 'protected');
    expectError(await deletePost(t.app, undefined, post._id), 401, ErrorMessages.invalidToken);
    expect((await fetchPost(t.app, post._id))._id).toBe(post._id);
  });
});
