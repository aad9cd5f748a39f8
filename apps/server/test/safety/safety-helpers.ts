import { userSchema, type Post, type User } from '@perch/contract';
import type { FastifyInstance } from 'fastify';
import type { LightMyRequestResponse } from 'fastify';
import { expect } from 'vitest';
import { z } from 'zod';
import { drain } from '../events/event-helpers';
import type { Member } from '../factories';
import { call } from '../helpers';
import { bodyOf, withQuery } from '../social/social-helpers';

type Action = 'block' | 'unblock' | 'mute' | 'unmute';

/** POST /api/users/{action}/{userId}. */
export const safetyCall = (
  app: FastifyInstance,
  action: Action,
  token: string | undefined,
  userId: string,
): Promise<LightMyRequestResponse> =>
  call(app, { method: 'POST', url: `/api/users/${action}/${userId}`, token });

/** The action, which must answer 204 with no body. */
export async function act(
  app: FastifyInstance,
  action: Action,
  member: Member,
  target: Member,
): Promise<void> {
  const response = await safetyCall(app, action, member.token, target.user._id);
  expect(response.statusCode, response.body).toBe(204);
  expect(response.body).toBe('');
}

export const block = (app: FastifyInstance, member: Member, target: Member) =>
  act(app, 'block', member, target);
export const unblock = (app: FastifyInstance, member: Member, target: Member) =>
  act(app, 'unblock', member, target);
export const mute = (app: FastifyInstance, member: Member, target: Member) =>
  act(app, 'mute', member, target);
export const unmute = (app: FastifyInstance, member: Member, target: Member) =>
  act(app, 'unmute', member, target);

export const userPageSchema = z.object({
  users: z.array(userSchema),
  nextCursor: z.string().nullable(),
});

/** GET a list of members (search, suggestions, blocked, muted) as the member. */
export async function usersAt(
  app: FastifyInstance,
  url: string,
  member: Member | undefined,
  query: Record<string, string | number> = {},
): Promise<User[]> {
  const response = await call(app, {
    method: 'GET',
    url: withQuery(url, query),
    token: member?.token,
  });
  return bodyOf(userPageSchema, response, 200).users;
}

const postListSchema = z.object({ posts: z.array(z.looseObject({ _id: z.string() })) });

/** The ids of the posts a list answers (posts, feed, explore, liked, a member's, search, tag). */
export async function postIdsAt(
  app: FastifyInstance,
  url: string,
  member: Member | undefined,
  query: Record<string, string | number> = {},
): Promise<string[]> {
  const response = await call(app, {
    method: 'GET',
    url: withQuery(url, { limit: 50, ...query }),
    token: member?.token,
  });
  return bodyOf(postListSchema, response, 200).posts.map((post) => post._id);
}

/** The ids of the member's bookmarked posts. */
export async function bookmarkIdsOf(app: FastifyInstance, member: Member): Promise<string[]> {
  const response = await call(app, {
    method: 'GET',
    url: '/api/users/bookmark?limit=50',
    token: member.token,
  });
  const schema = z.object({ bookmarks: z.array(z.looseObject({ _id: z.string() })) });
  return bodyOf(schema, response, 200).bookmarks.map((post) => post._id);
}

/** The ids of the comments under a post as the member reads them (404 answers null). */
export async function commentIdsOf(
  app: FastifyInstance,
  postId: string,
  member: Member | undefined,
): Promise<string[] | null> {
  const response = await call(app, {
    method: 'GET',
    url: `/api/comments/${postId}?limit=50`,
    token: member?.token,
  });
  if (response.statusCode === 404) return null;
  const schema = z.object({ comments: z.array(z.looseObject({ _id: z.string() })) });
  return bodyOf(schema, response, 200).comments.map((comment) => comment._id);
}

/** The embedded first comments of a post in a page (the original API's `comments`). */
export const embeddedCommentIds = (post: Post) => (post.comments ?? []).map((c) => c._id);

/** Rows of a table between two members, both ways. */
export async function followRowsBetween(app: FastifyInstance, a: string, b: string) {
  await drain(app);
  return app.db
    .selectFrom('follows')
    .selectAll()
    .where((eb) =>
      eb.or([
        eb.and([eb('follower_id', '=', a), eb('followee_id', '=', b)]),
        eb.and([eb('follower_id', '=', b), eb('followee_id', '=', a)]),
      ]),
    )
    .execute();
}

/** Members whose follow counters differ from the follow rows they count. */
export async function followCounterMismatches(app: FastifyInstance): Promise<string[]> {
  const users = await app.db
    .selectFrom('users')
    .select(['id', 'followers_count', 'following_count'])
    .execute();
  const follows = await app.db.selectFrom('follows').selectAll().execute();
  const wrong: string[] = [];
  for (const user of users) {
    const followers = follows.filter((f) => f.followee_id === user.id).length;
    const following = follows.filter((f) => f.follower_id === user.id).length;
    if (followers !== user.followers_count || following !== user.following_count) {
      wrong.push(user.id);
    }
  }
  return wrong;
}
