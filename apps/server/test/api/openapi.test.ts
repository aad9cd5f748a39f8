import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createTestApp, type TestApp } from '../helpers';

interface Operation {
  summary?: string;
  tags?: string[];
  security?: Record<string, string[]>[];
  responses: Record<string, { content?: Record<string, { schema?: unknown }> }>;
}
interface OpenApiDocument {
  openapi: string;
  info: { title: string; version: string };
  paths: Record<string, Record<string, Operation>>;
  components: { securitySchemes: Record<string, unknown> };
}

/** Every call of the API: the spec's, then the ones Perch added. */
const CALLS = [
  'POST /api/auth/login',
  'POST /api/auth/signup',
  'GET /api/users',
  'GET /api/users/{username}',
  'POST /api/users/edit',
  'GET /api/users/bookmark',
  'POST /api/users/bookmark/{postId}',
  'POST /api/users/remove-bookmark/{postId}',
  'POST /api/users/follow/{userId}',
  'POST /api/users/unfollow/{userId}',
  'GET /api/posts',
  'GET /api/posts/{postId}',
  'GET /api/posts/user/{username}',
  'POST /api/posts',
  'POST /api/posts/edit/{postId}',
  'DELETE /api/posts/{postId}',
  'POST /api/posts/like/{postId}',
  'POST /api/posts/dislike/{postId}',
  'GET /api/comments/{postId}',
  'POST /api/comments/add/{postId}',
  'POST /api/comments/edit/{postId}/{commentId}',
  'DELETE /api/comments/delete/{postId}/{commentId}',
  'POST /api/comments/upvote/{postId}/{commentId}',
  'POST /api/comments/downvote/{postId}/{commentId}',
];
const SPEC_CALLS = new Set(CALLS);
CALLS.push(
  'GET /api/health',
  'GET /api/auth/me',
  'POST /api/auth/session',
  'POST /api/auth/logout',
  'POST /api/auth/logout-others',
  'POST /api/auth/logout-all',
  'POST /api/auth/password',
  'DELETE /api/users/me',
  'GET /api/users/me/export',
  'GET /api/account/privacy',
  'PATCH /api/account/privacy',
  'GET /api/account/preferences',
  'PATCH /api/account/preferences',
  'GET /api/auth/sessions',
  'DELETE /api/auth/sessions/{sessionId}',
  'GET /api/oauth/authorization',
  'POST /api/oauth/authorization',
  'GET /api/v1/accounts/verify_credentials',
  'PATCH /api/v1/accounts/update_credentials',
  'GET /api/v1/accounts/lookup',
  'GET /api/v1/accounts/search',
  'GET /api/v1/accounts/relationships',
  'GET /api/v1/accounts/{id}',
  'GET /api/v1/accounts/{id}/followers',
  'GET /api/v1/accounts/{id}/following',
  'POST /api/v1/accounts/{id}/follow',
  'POST /api/v1/accounts/{id}/unfollow',
  'POST /api/v1/accounts/{id}/block',
  'POST /api/v1/accounts/{id}/unblock',
  'POST /api/v1/accounts/{id}/mute',
  'POST /api/v1/accounts/{id}/unmute',
  'GET /api/v1/blocks',
  'GET /api/v1/mutes',
  'GET /api/v1/follow_requests',
  'GET /api/v1/preferences',
  'GET /api/v1/markers',
  'POST /api/v1/markers',
  'GET /api/v1/instance',
  'GET /api/v1/instance/rules',
  'GET /api/v1/custom_emojis',
  'GET /api/v2/instance',
  'DELETE /api/v1/statuses/{id}',
  'GET /api/v1/accounts/{id}/statuses',
  'GET /api/v1/bookmarks',
  'GET /api/v1/favourites',
  'GET /api/v1/statuses/{id}',
  'GET /api/v1/statuses/{id}/context',
  'GET /api/v1/statuses/{id}/favourited_by',
  'GET /api/v1/statuses/{id}/history',
  'GET /api/v1/statuses/{id}/reblogged_by',
  'GET /api/v1/statuses/{id}/source',
  'GET /api/v1/timelines/home',
  'GET /api/v1/timelines/public',
  'GET /api/v1/timelines/tag/{hashtag}',
  'GET /api/v1/notifications',
  'GET /api/v1/notifications/unread_count',
  'GET /api/v1/notifications/{id}',
  'POST /api/v1/notifications/clear',
  'POST /api/v1/notifications/{id}/dismiss',
  'GET /api/v2/notifications',
  'POST /api/v1/statuses',
  'POST /api/v1/statuses/{id}/bookmark',
  'POST /api/v1/statuses/{id}/favourite',
  'POST /api/v1/statuses/{id}/pin',
  'POST /api/v1/statuses/{id}/reblog',
  'POST /api/v1/statuses/{id}/unbookmark',
  'POST /api/v1/statuses/{id}/unfavourite',
  'POST /api/v1/statuses/{id}/unpin',
  'POST /api/v1/statuses/{id}/unreblog',
  'PUT /api/v1/statuses/{id}',
  'POST /api/v1/media',
  'POST /api/v2/media',
  'GET /api/v1/media/{id}',
  'PUT /api/v1/media/{id}',
  'GET /api/v1/polls/{id}',
  'POST /api/v1/polls/{id}/votes',
  'POST /api/v1/apps',
  'GET /api/v1/apps/verify_credentials',
  'POST /api/users/block/{userId}',
  'POST /api/users/unblock/{userId}',
  'POST /api/users/mute/{userId}',
  'POST /api/users/unmute/{userId}',
  'GET /api/users/me/blocked',
  'GET /api/users/me/muted',
  'GET /api/users/suggestions',
  'GET /api/posts/feed',
  'GET /api/posts/explore',
  'GET /api/posts/liked',
  'GET /api/posts/user/{username}/pinned',
  'POST /api/posts/pin/{postId}',
  'POST /api/posts/unpin/{postId}',
  'POST /api/posts/repost/{postId}',
  'POST /api/posts/unrepost/{postId}',
  'GET /api/polls/{pollId}',
  'POST /api/polls/{pollId}/votes',
  'GET /api/notifications',
  'GET /api/notifications/unread',
  'POST /api/notifications/read',
  'GET /api/search/posts',
  'GET /api/tags',
  'GET /api/tags/{tag}',
  'GET /api/trends/tags',
  'GET /api/events',
  'POST /api/media',
);

function operationsOf(document: OpenApiDocument): Map<string, Operation> {
  const operations = new Map<string, Operation>();
  for (const [path, methods] of Object.entries(document.paths)) {
    for (const [method, operation] of Object.entries(methods)) {
      // HEAD mirrors GET; the document lists what a client calls.
      if (method !== 'head') operations.set(`${method.toUpperCase()} ${path}`, operation);
    }
  }
  return operations;
}

describe('the OpenAPI document', () => {
  let t: TestApp;
  let document: OpenApiDocument;

  beforeAll(async () => {
    t = await createTestApp();
    const response = await t.app.inject({ method: 'GET', url: '/api/openapi.json' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/^application\/json/);
    document = response.json<OpenApiDocument>();
  });
  afterAll(() => t.close());

  it('is OpenAPI 3.1 about Perch', () => {
    expect(document.openapi).toMatch(/^3\.1\.\d+$/);
    expect(document.info.title).toBe('Perch');
    expect(document.info.version).toMatch(/^\d+\.\d+\.\d+/);
    expect(Object.keys(document.components.securitySchemes).sort()).toEqual(['session', 'token']);
  });

  it('lists every call of the API with its method, and nothing else', () => {
    const operations = operationsOf(document);
    expect([...operations.keys()].sort()).toEqual([...CALLS].sort());
  });

  it('gives every call a summary, its module tag, and the error shape', () => {
    for (const [call, operation] of operationsOf(document)) {
      expect(operation.summary, call).toBeTruthy();
      expect(operation.tags, call).toHaveLength(1);
      for (const status of ['4XX', '5XX']) {
        const schema = operation.responses[status]?.content?.['application/json']?.schema;
        // Mastodon's methods answer failures in Mastodon's shape, {error}.
        const shape = / \/api\/v[12]\//.test(call) ? { error: {} } : { errors: {} };
        expect(schema, `${call} ${status}`).toMatchObject({ properties: shape });
      }
    }
  });

  it('describes the answer of each of the spec’s calls', () => {
    const operations = operationsOf(document);
    for (const call of SPEC_CALLS) {
      const operation = operations.get(call);
      const success = Object.entries(operation?.responses ?? {}).find(([status]) =>
        /^2\d\d$/.test(status),
      );
      expect(success, call).toBeDefined();
      expect(success?.[1].content?.['application/json']?.schema, call).toBeTruthy();
    }
    const created = operations.get('POST /api/posts/like/{postId}')?.responses['201'];
    expect(created?.content?.['application/json']?.schema).toMatchObject({
      type: 'object',
      required: expect.arrayContaining(['post']) as unknown,
    });
  });

  it('says which calls need a member', () => {
    const operations = operationsOf(document);
    expect(operations.get('GET /api/posts/feed')?.security).toEqual([{ token: [] }]);
    expect(operations.get('GET /api/posts')?.security).toContainEqual({});
    expect(operations.get('POST /api/auth/login')?.security).toBeUndefined();
  });

  it('is built once, not for each request', async () => {
    const swagger = vi.spyOn(t.app, 'swagger');
    const first = await t.app.inject({ method: 'GET', url: '/api/openapi.json' });
    const second = await t.app.inject({ method: 'GET', url: '/api/openapi.json' });
    expect(second.body).toBe(first.body);
    expect(swagger).not.toHaveBeenCalled();
  });
});

describe('the API reference', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('answers an HTML page whose scripts this server serves, under a policy that lets them run', async () => {
    const page = await t.app.inject({ method: 'GET', url: '/api/docs/' });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    const scripts = [...page.body.matchAll(/<script src="([^"]+)"/g)].map((match) => match[1]);
    expect(scripts.length).toBeGreaterThan(0);
    for (const src of scripts) {
      expect(src).not.toMatch(/^(https?:)?\/\//);
      const url = new URL(src ?? '', 'http://perch.test/api/docs/').pathname;
      const script = await t.app.inject({ method: 'GET', url });
      expect(script.statusCode, url).toBe(200);
    }
    const policy = String(page.headers['content-security-policy']);
    expect(policy).toContain("script-src 'self'");
    expect(policy).not.toContain("default-src 'none'");
  });

  it('keeps the API’s strict policy everywhere else under /api', async () => {
    const health = await t.app.inject({ method: 'GET', url: '/api/health' });
    expect(health.headers['content-security-policy']).toContain("default-src 'none'");
  });
});
