import { crc32, deflateSync } from 'node:zlib';
import {
  commentMutationResponseSchema,
  mediaUploadResponseSchema,
  nextCursorSchema,
  postMutationResponseSchema,
  postResponseSchema,
  userResponseSchema,
  type Comment,
  type ErrorBody,
  type Post,
  type User,
} from '@perch/contract';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { expect } from 'vitest';
import { z } from 'zod';
import { createMember, type Member } from '../factories';
import { call } from '../helpers';

/** Well-formed ids that the server never issues (ULIDs of the epoch). */
export const UNKNOWN_ID = '00000000000000000000000000';
export const OTHER_UNKNOWN_ID = '0000000000000000000000ZZZZ';

export const MINIMAL = { prefer: 'return=minimal' } as const;

export const errorsOf = (response: LightMyRequestResponse): string[] =>
  response.json<ErrorBody>().errors;

/** Asserts an error answer: its status and its one message, word for word. */
export function expectError(
  response: LightMyRequestResponse,
  status: number,
  message: string,
): void {
  expect(response.statusCode, response.body).toBe(status);
  expect(errorsOf(response)).toEqual([message]);
}

/** Asserts a 4xx answer in the standard error shape with at least one non-empty message. */
export function expectClientError(response: LightMyRequestResponse, status?: number): void {
  if (status === undefined) {
    expect(response.statusCode, response.body).toBeGreaterThanOrEqual(400);
    expect(response.statusCode, response.body).toBeLessThan(500);
  } else {
    expect(response.statusCode, response.body).toBe(status);
  }
  const errors = errorsOf(response);
  expect(errors.length).toBeGreaterThan(0);
  for (const message of errors) expect(message.trim()).not.toBe('');
}

/** Asserts the status and that the body has the contract's shape, and answers it. */
export function bodyOf<T>(
  schema: z.ZodType<T>,
  response: LightMyRequestResponse,
  status: number,
): T {
  expect(response.statusCode, response.body).toBe(status);
  const parsed = schema.safeParse(response.json());
  if (!parsed.success) {
    throw new Error(
      `answer does not match the contract: ${z.prettifyError(parsed.error)}\n${response.body.slice(0, 2000)}`,
    );
  }
  return parsed.data;
}

/** The top-level keys of a JSON answer, sorted. */
export const keysOf = (response: LightMyRequestResponse): string[] =>
  Object.keys(response.json<object>()).sort();

export const pause = (ms: number) =>
  new Promise<void>((resolve) => {
    setTimeout(resolve, ms);
  });

export function withQuery(url: string, query: Record<string, string | number | undefined>): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value !== undefined) params.set(key, String(value));
  }
  const text = params.toString();
  return text ? `${url}?${text}` : url;
}

type Tuple<N extends number, T, R extends T[] = []> = R['length'] extends N
  ? R
  : Tuple<N, T, [...R, T]>;

/** Signs `count` new members up, one after the other. */
export async function createMembers<N extends number>(
  app: FastifyInstance,
  count: N,
): Promise<Tuple<N, Member>> {
  const members: Member[] = [];
  for (let i = 0; i < count; i += 1) members.push(await createMember(app));
  return members as Tuple<N, Member>;
}

export function postRequest(
  app: FastifyInstance,
  token: string | undefined,
  postData: Record<string, unknown>,
  headers: Record<string, string> = {},
) {
  return call(app, { method: 'POST', url: '/api/posts', token, payload: { postData }, headers });
}

export async function createPost(
  app: FastifyInstance,
  token: string,
  content: string,
  mediaURL: string | null = null,
): Promise<Post> {
  const response = await postRequest(app, token, { content, mediaURL }, MINIMAL);
  return bodyOf(postMutationResponseSchema, response, 201).post;
}

export const getPost = (app: FastifyInstance, postId: string, token?: string) =>
  call(app, { method: 'GET', url: `/api/posts/${postId}`, token });

export async function fetchPost(app: FastifyInstance, postId: string, token?: string) {
  return bodyOf(postResponseSchema, await getPost(app, postId, token), 200).post;
}

const write =
  (path: string, method: 'POST' | 'DELETE' = 'POST') =>
  (
    app: FastifyInstance,
    token: string | undefined,
    id: string,
    headers: Record<string, string> = {},
  ) =>
    call(app, { method, url: `/api${path}/${id}`, token, headers });

export const like = write('/posts/like');
export const dislike = write('/posts/dislike');
export const deletePost = write('/posts', 'DELETE');
export const bookmark = write('/users/bookmark');
export const removeBookmark = write('/users/remove-bookmark');
export const follow = write('/users/follow');
export const unfollow = write('/users/unfollow');

export const commentRequest = (
  app: FastifyInstance,
  token: string | undefined,
  postId: string,
  text: unknown,
  headers: Record<string, string> = {},
) =>
  call(app, {
    method: 'POST',
    url: `/api/comments/add/${postId}`,
    token,
    payload: { commentData: { text } },
    headers,
  });

export async function addComment(
  app: FastifyInstance,
  token: string,
  postId: string,
  text: string,
): Promise<Comment> {
  const response = await commentRequest(app, token, postId, text, MINIMAL);
  return bodyOf(commentMutationResponseSchema, response, 201).comment;
}

export async function getUser(app: FastifyInstance, username: string, token?: string) {
  const response = await call(app, { method: 'GET', url: `/api/users/${username}`, token });
  return bodyOf(userResponseSchema, response, 200).user;
}

export const countsOf = (user: User) => ({
  followersCount: user.followersCount,
  followingCount: user.followingCount,
  postsCount: user.postsCount,
});

export interface Walk<T> {
  items: T[];
  pages: number;
}

/**
 * Follows nextCursor from the first page (or from a given cursor) to the last, checking every
 * page's size, and answers everything seen in order.
 */
export async function walk<T>(
  app: FastifyInstance,
  url: string,
  key: string,
  itemSchema: z.ZodType<T>,
  options: { token?: string; limit?: number; query?: Record<string, string>; cursor?: string } = {},
): Promise<Walk<T>> {
  const { token, limit = 2, query = {} } = options;
  const items: T[] = [];
  let cursor = options.cursor;
  for (let pages = 1; pages <= 200; pages += 1) {
    const response = await call(app, {
      method: 'GET',
      url: withQuery(url, { ...query, limit, cursor }),
      token,
    });
    const page = bodyOf(
      z.object({ [key]: z.array(itemSchema), nextCursor: nextCursorSchema }),
      response,
      200,
    );
    const pageItems = page[key] as T[];
    const next = page.nextCursor as string | null;
    expect(pageItems.length).toBeLessThanOrEqual(limit);
    items.push(...pageItems);
    if (next === null) return { items, pages };
    expect(typeof next).toBe('string');
    cursor = next;
  }
  throw new Error(`${url} did not reach its last page`);
}

export const idsOf = (items: readonly { _id: string }[]) => items.map((item) => item._id);

export const editComment = (
  app: FastifyInstance,
  token: string | undefined,
  postId: string,
  commentId: string,
  text: unknown,
) =>
  call(app, {
    method: 'POST',
    url: `/api/comments/edit/${postId}/${commentId}`,
    token,
    payload: { commentData: { text } },
  });

const commentWrite =
  (path: string, method: 'POST' | 'DELETE' = 'POST') =>
  (
    app: FastifyInstance,
    token: string | undefined,
    postId: string,
    commentId: string,
    headers: Record<string, string> = {},
  ) =>
    call(app, { method, url: `/api/comments/${path}/${postId}/${commentId}`, token, headers });

export const deleteComment = commentWrite('delete', 'DELETE');
export const upvote = commentWrite('upvote');
export const downvote = commentWrite('downvote');

/** Edits the member's profile (POST /api/users/edit), which must answer 200. */
export async function editProfile(
  app: FastifyInstance,
  token: string,
  userData: Record<string, unknown>,
): Promise<void> {
  const response = await call(app, {
    method: 'POST',
    url: '/api/users/edit',
    token,
    payload: { userData },
  });
  expect(response.statusCode).toBe(200);
}

export const listComments = (app: FastifyInstance, postId: string, token?: string) =>
  call(app, { method: 'GET', url: `/api/comments/${postId}`, token });

let imageSeed = 0;

/** A small PNG whose pixels differ with every call, so every upload is a new image. */
export function pngImage(side = 16): Buffer {
  imageSeed += 1;
  const seed = (process.pid * 7919 + imageSeed * 104729) >>> 0;
  const rows: Buffer[] = [];
  for (let y = 0; y < side; y += 1) {
    const row = Buffer.alloc(1 + side * 3);
    for (let x = 0; x < side * 3; x += 1) row[1 + x] = (seed >>> (x % 24)) ^ (x * 37 + y * 91);
    rows.push(row);
  }
  const chunk = (type: string, data: Buffer) => {
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(body));
    return Buffer.concat([length, body, crc]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(side, 0);
  header.writeUInt32BE(side, 4);
  header.set([8, 2, 0, 0, 0], 8);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(Buffer.concat(rows))),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/** Uploads a fresh image as the member would and answers the URL the server issued for it. */
export async function uploadImage(
  app: FastifyInstance,
  token: string,
  purpose: 'post' | 'avatar' = 'post',
): Promise<string> {
  const boundary = `----perch-test-${String(imageSeed)}`;
  const payload = Buffer.concat([
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="purpose"\r\n\r\n${purpose}\r\n` +
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="image.png"\r\n` +
        'Content-Type: image/png\r\n\r\n',
    ),
    pngImage(),
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  const response = await call(app, {
    method: 'POST',
    url: '/api/media',
    token,
    payload,
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
  });
  return bodyOf(mediaUploadResponseSchema, response, 201).url;
}
