import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createTestApp, type TestApp } from '../helpers';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

describe('every API answer is not to be stored', () => {
  it('including the router’s 404s and errors answered before any route ran', async () => {
    const cases: [method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, status: number][] = [
      ['GET', '/api/nope', 404],
      ['GET', '/api', 404],
      ['DELETE', '/api/posts', 404],
      ['PUT', '/api/auth/login', 404],
      ['GET', `/api/posts/${'x'.repeat(600)}`, 414],
      ['GET', '/api/%E0%A4%A', 400],
      ['GET', '/api/auth/me', 401],
      ['POST', '/api/auth/login', 400],
    ];
    for (const [method, url, status] of cases) {
      const response = await call(t.app, { method, url });
      expect(response.statusCode, `${method} ${url}`).toBe(status);
      expect(response.headers['cache-control'], `${method} ${url}`).toBe('no-store');
      expect(response.json<{ errors: string[] }>().errors.length).toBeGreaterThan(0);
    }
  });

  it('leaves the API reference and pages to their own caching', async () => {
    const docs = await call(t.app, { method: 'GET', url: '/api/docs/json' });
    expect(docs.statusCode).toBe(200);
    expect(docs.headers['cache-control']).toBeUndefined();
  });
});
