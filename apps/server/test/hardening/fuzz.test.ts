import fc from 'fast-check';
import { createSigner } from 'fast-jwt';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { drain } from '../events/event-helpers';
import { createMember, type Member } from '../factories';
import { call, createTestApp } from '../helpers';
import { pngHeaderOnly } from '../media/fixtures';
import {
  addComment,
  bookmark,
  createMembers,
  createPost,
  follow,
  like,
  pngImage,
  UNKNOWN_ID,
  uploadImage,
  withQuery,
} from '../social/social-helpers';
import {
  checkAnswer,
  requestArbitrary,
  routesOf,
  within,
  type FuzzRoute,
  type FuzzWorld,
} from './fuzz-arbitraries';

/*
 * Property-based fuzzing of every route the app has: generated params, query strings, bodies and
 * credentials, checked for what must hold whatever comes in (see checkAnswer).
 */

// The router is read once the app is built, so that each route gets a test of its own.
const t = await createTestApp();
// `/api/posts/` runs what `/api/posts` runs; the generated paths sometimes end in a slash anyway.
// The API reference (/api/docs) is a page with its scripts, not a call answering JSON.
const routes = routesOf(t.app).filter(
  (route) => !/.\/$/.test(route.path) && !route.path.startsWith('/api/docs'),
);
afterAll(async () => {
  await t.close();
});

const RUNS = 300;
// A HEAD runs the GET handler and answers no body: fewer runs find the same.
const HEAD_RUNS = 60;
const ANSWER_MS = 5_000;
// FUZZ_SEED replays a failure with the seed fast-check reported.
const seed = process.env.FUZZ_SEED ? { seed: Number(process.env.FUZZ_SEED) } : {};

/** GET /api/events streams as long as the member stays; only refusals end on their own. */
const streams = (route: FuzzRoute) => route.path.startsWith('/api/events');

const world: FuzzWorld = {
  tokens: [],
  badTokens: [],
  postIds: [],
  commentIds: [],
  comments: [],
  userIds: [],
  usernames: [],
  cursors: [],
  mediaUrls: [],
  images: [],
};
let members: Member[] = [];

function ok(response: { statusCode: number; body: string }, status = 201): void {
  expect(response.statusCode, response.body).toBe(status);
}

/** The posts and comments made last; the fuzzer deletes some, and routes after it want them. */
let fresh: FuzzWorld['comments'] = [];

/** Posts of two authors, each with a comment by both; liked and bookmarked by the third member. */
async function addContent(): Promise<void> {
  const [alice, bob, carol] = members as [Member, Member, Member];
  fresh = [];
  for (const author of [alice, bob]) {
    const post = await createPost(t.app, author.token, `a post by ${author.user.username}`);
    world.postIds.push(post._id);
    for (const commenter of [alice, bob]) {
      const comment = await addComment(t.app, commenter.token, post._id, 'a comment');
      world.commentIds.push(comment._id);
      fresh.push({ postId: post._id, commentId: comment._id });
    }
    ok(await like(t.app, carol.token, post._id));
    ok(await bookmark(t.app, carol.token, post._id), 200);
  }
  world.comments.push(...fresh);
}

async function contentIsThere(): Promise<boolean> {
  for (const postId of new Set(fresh.map((comment) => comment.postId))) {
    const response = await call(t.app, { method: 'GET', url: `/api/comments/${postId}` });
    if (response.statusCode !== 200) return false;
    const ids = response.json<{ comments: { _id: string }[] }>().comments.map(({ _id }) => _id);
    if (fresh.some((comment) => comment.postId === postId && !ids.includes(comment.commentId))) {
      return false;
    }
  }
  return true;
}

/**
 * Signs in again the members whose session a fuzzed logout ended, and signs up again (same name,
 * same password) those a fuzzed account deletion removed.
 */
async function keepSignedIn(): Promise<void> {
  for (const [index, member] of members.entries()) {
    const me = await call(t.app, { method: 'GET', url: '/api/auth/me', token: member.token });
    if (me.statusCode === 200) continue;
    const response = await call(t.app, {
      method: 'POST',
      url: '/api/auth/login',
      payload: { username: member.user.username, password: member.password },
    });
    if (response.statusCode === 404) {
      const again = await createMember(t.app, {
        username: member.user.username,
        password: member.password,
        confirmPassword: member.password,
      });
      members[index] = again;
      world.userIds.push(again.user._id);
      continue;
    }
    ok(response, 200);
    member.token = response.json<{ encodedToken: string }>().encodedToken;
  }
  world.tokens = members.map((member) => member.token);
}

/**
 * Lifts every block between the members: a fuzzed block would make the content the routes after
 * it need answer 404 to one of them (comments on the other's posts, likes).
 */
async function unblockEveryone(): Promise<void> {
  for (const member of members) {
    for (const other of members) {
      if (other === member) continue;
      const url = `/api/users/unblock/${other.user._id}`;
      ok(await call(t.app, { method: 'POST', url, token: member.token }), 204);
    }
  }
}

async function nextCursorOf(
  url: string,
  token?: string,
  query: Record<string, string> = {},
): Promise<void> {
  const response = await call(t.app, {
    method: 'GET',
    url: withQuery(url, { ...query, limit: 1 }),
    token,
  });
  ok(response, 200);
  const { nextCursor } = response.json<{ nextCursor: string | null }>();
  expect(nextCursor, url).not.toBeNull();
  if (nextCursor !== null) world.cursors.push(nextCursor);
}

beforeAll(async () => {
  members = await createMembers(t.app, 3);
  const [alice, bob, carol] = members as [Member, Member, Member];
  world.tokens = members.map((member) => member.token);
  world.userIds = members.map((member) => member.user._id);
  world.usernames = members.map((member) => member.user.username);
  ok(await follow(t.app, bob.token, alice.user._id), 200);
  ok(await follow(t.app, carol.token, alice.user._id), 200);
  for (const member of members) world.mediaUrls.push(await uploadImage(t.app, member.token));
  world.images.push(
    pngImage(),
    pngHeaderOnly(9000, 9000),
    Buffer.from('GIF89a'),
    Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>'),
  );

  const [header = '', payload = '', signature = ''] = alice.token.split('.');
  const claims = { sub: alice.user._id, username: alice.user.username };
  world.badTokens.push(
    `${header}.${payload}.${signature.slice(0, -2)}xx`,
    `${Buffer.from('{"alg":"none","typ":"JWT"}').toString('base64url')}.${payload}.`,
    createSigner({ key: 'another-secret-of-sufficient-length-here' })(claims),
    createSigner({ key: t.config.jwtSecret ?? '', expiresIn: 1, clockTimestamp: 1000 })(claims),
    createSigner({ key: t.config.jwtSecret ?? '' })({ sub: UNKNOWN_ID, username: 'nobody_here' }),
  );

  await addContent();
  await drain(t.app);
  const postId = world.postIds[0] ?? '';
  await nextCursorOf('/api/posts');
  await nextCursorOf('/api/posts', undefined, { sort: 'trending' });
  await nextCursorOf(`/api/comments/${postId}`);
  await nextCursorOf('/api/users');
  await nextCursorOf('/api/users/suggestions', alice.token);
  await nextCursorOf('/api/users/bookmark', carol.token);
  await nextCursorOf('/api/notifications', alice.token);
  // Last: muting hides alice's and bob's posts from carol, which the lists above page through.
  for (const target of [alice, bob]) {
    const url = `/api/users/mute/${target.user._id}`;
    ok(await call(t.app, { method: 'POST', url, token: carol.token }), 204);
  }
  await nextCursorOf('/api/users/me/muted', carol.token);
});

beforeEach(async () => {
  await keepSignedIn();
  await unblockEveryone();
  if (!(await contentIsThere())) await addContent();
});

describe('fuzzing every route', () => {
  it('finds the routes in the router', () => {
    expect(routes.length).toBeGreaterThan(20);
    for (const route of routes) {
      expect(t.app.hasRoute({ method: route.method, url: route.path }), route.path).toBe(true);
    }
    const listed = routes.map((route) => `${route.method} ${route.path}`);
    for (const known of [
      'POST /api/posts',
      'GET /api/users/:username',
      'POST /api/media',
      'POST /api/users/block/:userId',
      'POST /api/users/unmute/:userId',
      'GET /api/users/me/blocked',
      'GET /api/users/me/muted',
    ]) {
      expect(listed).toContain(known);
    }
  });

  it.each(routes.map((route) => [`${route.method} ${route.path}`, route] as const))(
    '%s: never a 5xx, always JSON, every error in the one shape',
    async (_name, route) => {
      const arbitrary = requestArbitrary(route, world, { anonymousOnly: streams(route) });
      await fc.assert(
        fc.asyncProperty(arbitrary, async (request) => {
          const response = await within(
            ANSWER_MS,
            t.app.inject(request),
            `${request.method} ${request.url}`,
          );
          checkAnswer(route, request, response);
        }),
        { numRuns: route.method === 'HEAD' ? HEAD_RUNS : RUNS, ...seed },
      );
    },
    120_000,
  );
});
