import { connect } from 'node:net';
import type { AddressInfo } from 'node:net';
import { ErrorMessages } from '@perch/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Member } from '../factories';
import { call, createTestApp, type TestApp } from '../helpers';
import {
  createMembers,
  createPost,
  expectClientError,
  expectError,
} from '../social/social-helpers';

let t: TestApp;
let member: Member;
let postId: string;
beforeAll(async () => {
  t = await createTestApp();
  [member] = await createMembers(t.app, 1);
  postId = (await createPost(t.app, member.token, 'a post to aim at'))._id;
});
afterAll(async () => {
  await t.close();
});

const nested = (depth: number) => `${'['.repeat(depth)}${']'.repeat(depth)}`;

describe('deeply nested JSON', () => {
  const routes = () => [
    { method: 'POST' as const, url: '/api/auth/login', field: 'username' },
    { method: 'POST' as const, url: '/api/auth/signup', field: 'firstName' },
    { method: 'POST' as const, url: '/api/posts', field: 'postData' },
    { method: 'POST' as const, url: `/api/posts/edit/${postId}`, field: 'postData' },
    { method: 'POST' as const, url: `/api/comments/add/${postId}`, field: 'commentData' },
    { method: 'POST' as const, url: '/api/users/edit', field: 'userData' },
  ];

  it('answers 400 in the error shape at any depth, on every route that takes a body', async () => {
    for (const { method, url, field } of routes()) {
      for (const depth of [5_000, 200_000]) {
        for (const payload of [nested(depth), `{"${field}":${nested(depth)},"password":"x"}`]) {
          const response = await call(t.app, {
            method,
            url,
            token: member.token,
            headers: { 'content-type': 'application/json' },
            payload,
          });
          expectClientError(response, 400);
        }
      }
    }
  });
});

describe('every error in one shape', () => {
  it('answers an address that does not decode with 400', async () => {
    for (const url of ['/api/posts/%ff%fe', '/api/users/%E0%A4%A', '/%c0']) {
      expectError(await call(t.app, { method: 'GET', url }), 400, ErrorMessages.badUrl);
    }
  });

  it('refuses over-long ids through the route, and absurd ones with 414', async () => {
    const long = 'a'.repeat(120);
    for (const method of ['GET', 'POST'] as const) {
      const path = method === 'GET' ? `/api/posts/${long}` : `/api/posts/like/${long}`;
      expectClientError(await call(t.app, { method, url: path, token: member.token }), 400);
      const absurd = path.replace(long, 'a'.repeat(600));
      expectError(
        await call(t.app, { method, url: absurd, token: member.token }),
        414,
        ErrorMessages.urlTooLong,
      );
    }
  });

  it('answers what the HTTP parser refuses in the error shape', async () => {
    await t.app.listen({ host: '127.0.0.1', port: 0 });
    const { port } = t.app.server.address() as AddressInfo;
    const raw = await new Promise<string>((resolve, reject) => {
      const socket = connect(port, '127.0.0.1', () => {
        socket.write('GET /api/health HTTP/1.1\r\nHost: x\r\nBad Header\r\n\r\n');
      });
      let data = '';
      socket.on('data', (chunk: Buffer) => {
        data += chunk.toString();
      });
      socket.on('end', () => {
        resolve(data);
      });
      socket.on('error', reject);
    });
    expect(raw).toMatch(/^HTTP\/1\.1 400 /);
    expect(JSON.parse(raw.slice(raw.indexOf('\r\n\r\n') + 4))).toEqual({
      errors: [ErrorMessages.badRequest],
    });
  });
});

describe('forged cursors', () => {
  const forge = (values: unknown[]) => Buffer.from(JSON.stringify(values)).toString('base64url');

  it('answer 400, never reaching the database with values its columns cannot hold', async () => {
    const cases: [string, unknown[]][] = [
      ['/api/users/suggestions', [2_147_483_648, 'x']],
      ['/api/posts?sort=trending', [1e300, 0, 'x']],
      ['/api/posts', [5e-324, 'x']],
      ['/api/posts/explore', [0, '\u0000']],
      ['/api/users', ['\u0000']],
      [`/api/comments/${postId}`, [Number.MAX_SAFE_INTEGER + 2, 'x']],
      ['/api/notifications', [0, 'x', 1e300]],
    ];
    for (const [path, values] of cases) {
      const url = `${path}${path.includes('?') ? '&' : '?'}cursor=${forge(values)}`;
      expectError(
        await call(t.app, { method: 'GET', url, token: member.token }),
        400,
        'cursor is invalid.',
      );
    }
  });
});

describe('headers', () => {
  it('forbids framing and caching of API answers', async () => {
    for (const token of [member.token, undefined]) {
      const response = await call(t.app, { method: 'GET', url: '/api/posts', token });
      expect(response.headers['x-frame-options']).toBe('DENY');
      expect(response.headers['content-security-policy']).toContain("frame-ancestors 'none'");
      expect(response.headers['cache-control']).toBe('no-store');
    }
    const write = await call(t.app, {
      method: 'POST',
      url: `/api/posts/like/${postId}`,
      token: member.token,
    });
    expect(write.headers['cache-control']).toBe('no-store');
  });
});
