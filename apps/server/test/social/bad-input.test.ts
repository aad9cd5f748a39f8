import { ErrorMessages, MEDIA_URL_RULE } from '@perch/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Member } from '../factories';
import { call, createTestApp, type TestApp } from '../helpers';
import {
  OTHER_UNKNOWN_ID,
  UNKNOWN_ID,
  addComment,
  createMembers,
  createPost,
  expectClientError,
  expectError,
  fetchPost,
} from './social-helpers';

let t: TestApp;
let member: Member;
let other: Member;
let postId: string;
let commentId: string;
beforeAll(async () => {
  t = await createTestApp();
  [member, other] = await createMembers(t.app, 2);
  postId = (await createPost(t.app, member.token, 'target'))._id;
  commentId = (await addComment(t.app, member.token, postId, 'a comment'))._id;
});
afterAll(async () => {
  await t.close();
});

type Method = 'POST' | 'DELETE' | 'GET';
/** Write routes that read a JSON body, by method and path. */
const bodyRoutes = (): [Method, string][] => [
  ['POST', '/api/posts'],
  ['POST', `/api/posts/edit/${postId}`],
  ['POST', `/api/comments/add/${postId}`],
  ['POST', `/api/comments/edit/${postId}/${commentId}`],
  ['POST', '/api/users/edit'],
];
/** Write routes that take no body. */
const bodylessRoutes = (): [Method, string][] => [
  ['POST', `/api/posts/like/${postId}`],
  ['POST', `/api/users/bookmark/${postId}`],
  ['POST', `/api/users/follow/${other.user._id}`],
  ['POST', `/api/comments/upvote/${postId}/${commentId}`],
];

const send = (method: Method, url: string, payload: string, contentType = 'application/json') =>
  call(t.app, {
    method,
    url,
    token: member.token,
    payload,
    headers: { 'content-type': contentType },
  });

describe('malformed bodies', () => {
  it('answers 400 for malformed JSON', async () => {
    for (const [method, url] of [...bodyRoutes(), ...bodylessRoutes()]) {
      for (const payload of ['{"postData": ', '{content: 1}', "{'a': 1}", '[1,2']) {
        const response = await send(method, url, payload);
        expectClientError(response, 400);
      }
    }
  });

  it('answers 400 for JSON that is not an object, or lacks the wrapper', async () => {
    for (const [method, url] of bodyRoutes()) {
      for (const payload of ['null', '[]', '"text"', '42', '{}', '{"content": "unwrapped"}']) {
        expectClientError(await send(method, url, payload), 400);
      }
    }
  });

  it('refuses prototype pollution attempts without harm', async () => {
    const payload = '{"postData": {"content": "x"}, "__proto__": {"admin": true}}';
    const response = await send('POST', '/api/posts', payload);
    expectClientError(response);
    const nested = '{"postData": {"content": "x", "constructor": {"prototype": {"admin": true}}}}';
    expect((await send('POST', '/api/posts', nested)).statusCode).toBeLessThan(500);
    expect(({} as Record<string, unknown>).admin).toBeUndefined();
  });
});

describe('wrong types', () => {
  it.each([
    ['POST', '/api/posts', { postData: { content: 123 } }, 'content must be text.'],
    ['POST', '/api/posts', { postData: { content: 'x', mediaURL: 5 } }, MEDIA_URL_RULE],
    ['POST', '/api/posts', { postData: 'x' }, null],
    ['POST', '/api/posts', { postData: null }, null],
    ['POST', 'edit-post', { postData: { content: true } }, 'content must be text.'],
    ['POST', 'add-comment', { commentData: { text: [] } }, 'Comment text is required.'],
    ['POST', 'add-comment', { commentData: { text: null } }, 'Comment text is required.'],
    ['POST', 'add-comment', { commentData: 'text' }, null],
    [
      'POST',
      'edit-comment',
      { commentData: { text: { nested: 'x' } } },
      'Comment text is required.',
    ],
    ['POST', '/api/users/edit', { userData: 'x' }, null],
    [
      'POST',
      '/api/users/edit',
      { userData: { firstName: 5, lastName: 'B' } },
      'First name is required.',
    ],
    [
      'POST',
      '/api/users/edit',
      { userData: { firstName: 'A', lastName: 'B', bio: 42 } },
      'Bio must be text.',
    ],
    [
      'POST',
      '/api/users/edit',
      { userData: { firstName: 'A', lastName: 'B', avatarURL: [] } },
      MEDIA_URL_RULE,
    ],
  ] as const)('%s %s with %j answers 400', async (method, route, payload, message) => {
    const url =
      {
        'edit-post': `/api/posts/edit/${postId}`,
        'add-comment': `/api/comments/add/${postId}`,
        'edit-comment': `/api/comments/edit/${postId}/${commentId}`,
      }[route as string] ?? route;
    const response = await call(t.app, { method, url, token: member.token, payload });
    expectClientError(response, 400);
    if (message !== null) expect(response.json<{ errors: string[] }>().errors).toContain(message);
    expect((await fetchPost(t.app, postId)).content).toBe('target');
  });

  it('answers 400 for a query of the wrong shape', async () => {
    for (const query of [
      'limit=abc',
      'limit=1e309',
      'limit=-1',
      'limit=',
      'sort=',
      'sort=latest&sort=oldest',
      'limit=1&limit=2',
    ]) {
      const response = await call(t.app, { method: 'GET', url: `/api/posts?${query}` });
      expect(response.statusCode, query).toBe(400);
      expectClientError(response, 400);
    }
  });
});

describe('sizes and media types', () => {
  it('answers 413 for a body over 1 MB', async () => {
    const huge = 'x'.repeat(1024 * 1024 + 10);
    for (const [method, url] of [...bodyRoutes(), ...bodylessRoutes()]) {
      const payload = JSON.stringify({ postData: { content: huge }, commentData: { text: huge } });
      const response = await send(method, url, payload);
      expectClientError(response, 413);
    }
    expect((await fetchPost(t.app, postId)).likes.likeCount).toBe(0);
  });

  it('answers a 4xx for bodies that are not JSON', async () => {
    for (const [method, url] of bodyRoutes()) {
      expectClientError(await send(method, url, 'content=hello', 'text/plain'));
      expectClientError(await send(method, url, '<post/>', 'application/xml'), 415);
      expectClientError(
        await send(method, url, 'content=hi', 'application/x-www-form-urlencoded'),
        415,
      );
    }
  });
});

describe('unknown and odd ids', () => {
  it('answers 404 with the right message for well-formed ids that do not exist', async () => {
    const cases: [Method, string, string][] = [
      ['GET', `/api/posts/${UNKNOWN_ID}`, ErrorMessages.postNotFound],
      ['POST', `/api/posts/like/${UNKNOWN_ID}`, ErrorMessages.postNotFound],
      ['POST', `/api/posts/dislike/${UNKNOWN_ID}`, ErrorMessages.postNotFound],
      ['DELETE', `/api/posts/${UNKNOWN_ID}`, ErrorMessages.postNotFound],
      ['POST', `/api/users/bookmark/${UNKNOWN_ID}`, ErrorMessages.postNotFound],
      ['POST', `/api/users/remove-bookmark/${UNKNOWN_ID}`, ErrorMessages.postNotFound],
      ['POST', `/api/users/follow/${UNKNOWN_ID}`, ErrorMessages.userNotFound],
      ['POST', `/api/users/unfollow/${UNKNOWN_ID}`, ErrorMessages.userNotFound],
      ['GET', `/api/comments/${UNKNOWN_ID}`, ErrorMessages.postNotFound],
      ['DELETE', `/api/comments/delete/${UNKNOWN_ID}/${commentId}`, ErrorMessages.postNotFound],
      [
        'DELETE',
        `/api/comments/delete/${postId}/${OTHER_UNKNOWN_ID}`,
        ErrorMessages.commentNotFound,
      ],
      ['POST', `/api/comments/upvote/${postId}/${OTHER_UNKNOWN_ID}`, ErrorMessages.commentNotFound],
      ['POST', `/api/comments/downvote/${UNKNOWN_ID}/${commentId}`, ErrorMessages.postNotFound],
      ['GET', '/api/users/no_such_member', ErrorMessages.userNotFound],
      ['GET', '/api/posts/user/no_such_member', ErrorMessages.userNotFound],
    ];
    for (const [method, url, message] of cases) {
      expectError(await call(t.app, { method, url, token: member.token }), 404, message);
    }
  });

  it('answers 400 or 404, never 500, for ids of any shape', async () => {
    const ids = [
      encodeURIComponent("'; DROP TABLE posts; --"),
      encodeURIComponent('" OR 1=1 --'),
      '%F0%9F%90%A6',
      '%00',
      'a%00b',
      'x'.repeat(65),
      '-1',
      '1e309',
    ];
    const routes = (id: string): [Method, string][] => [
      ['GET', `/api/posts/${id}`],
      ['POST', `/api/posts/like/${id}`],
      ['POST', `/api/posts/dislike/${id}`],
      ['DELETE', `/api/posts/${id}`],
      ['POST', `/api/users/bookmark/${id}`],
      ['POST', `/api/users/remove-bookmark/${id}`],
      ['POST', `/api/users/follow/${id}`],
      ['POST', `/api/users/unfollow/${id}`],
      ['GET', `/api/users/${id}`],
      ['GET', `/api/posts/user/${id}`],
      ['GET', `/api/comments/${id}`],
      ['DELETE', `/api/comments/delete/${postId}/${id}`],
      ['POST', `/api/comments/upvote/${postId}/${id}`],
      ['POST', `/api/comments/downvote/${id}/${commentId}`],
    ];
    const wrong: string[] = [];
    for (const id of ids) {
      for (const [method, url] of routes(id)) {
        const response = await call(t.app, { method, url, token: member.token });
        if (![400, 404].includes(response.statusCode)) {
          wrong.push(`${method} ${url} -> ${response.statusCode} ${response.body}`);
        }
      }
    }
    expect(wrong).toEqual([]);
    expect((await t.app.db.selectFrom('posts').select('id').execute()).length).toBeGreaterThan(0);
  });

  it('never answers 500 for a NUL character in text or queries', async () => {
    const nul = 'before\u0000after';
    // A post and comment of their own: where NUL is accepted, they change.
    const scratchPost = (await createPost(t.app, other.token, 'scratch'))._id;
    const scratchComment = (await addComment(t.app, other.token, scratchPost, 'scratch'))._id;
    const attempts: [Method, string, unknown][] = [
      ['POST', '/api/posts', { postData: { content: nul } }],
      ['POST', `/api/posts/edit/${scratchPost}`, { postData: { content: nul } }],
      ['POST', `/api/comments/add/${scratchPost}`, { commentData: { text: nul } }],
      [
        'POST',
        `/api/comments/edit/${scratchPost}/${scratchComment}`,
        { commentData: { text: nul } },
      ],
      ['POST', '/api/users/edit', { userData: { firstName: nul, lastName: 'B', bio: nul } }],
      ['GET', '/api/users?q=a%00b', undefined],
      ['POST', '/api/auth/login', { username: nul, password: 'whatever1' }],
      [
        'POST',
        '/api/auth/signup',
        {
          firstName: nul,
          lastName: 'B',
          email: 'nul@example.com',
          username: 'nul_member',
          password: 'long enough password',
          confirmPassword: 'long enough password',
        },
      ],
      ['GET', '/api/posts?cursor=a%00b', undefined],
    ];
    const wrong: string[] = [];
    for (const [method, url, payload] of attempts) {
      const response = await call(t.app, {
        method,
        url,
        token: other.token,
        ...(payload === undefined ? {} : { payload: payload as object }),
      });
      if (response.statusCode >= 500) wrong.push(`${method} ${url} -> ${response.statusCode}`);
    }
    expect(wrong).toEqual([]);
  });
});

describe('after all of it', () => {
  it('still answers the health check and serves the data intact', async () => {
    const health = await call(t.app, { method: 'GET', url: '/api/health' });
    expect(health.statusCode).toBe(200);
    expect(health.json()).toEqual({ status: 'ok' });
    expect(await fetchPost(t.app, postId)).toMatchObject({ content: 'target', commentCount: 1 });
    const me = await call(t.app, { method: 'GET', url: '/api/auth/me', token: member.token });
    expect(me.statusCode).toBe(200);
  });
});
