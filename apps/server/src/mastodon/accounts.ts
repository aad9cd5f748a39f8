import { ErrorMessages, type mastodon, type User } from '@perch/contract';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from '../lib/errors';
import type { Viewer } from '../lib/viewer';
import { linksOf } from './context';
import { statusDateOf, toAccount } from './entities/account';
import { toRelationship } from './entities/relationship';

/** Mastodon's limits of account lists: 40 by default, at most 80. */
export const ACCOUNT_PAGE = { fallback: 40, max: 80 } as const;

/**
 * Mastodon's array parameters arrive as `name[]` (Rails' form) or `name`, once or repeated: the
 * values, in order.
 */
export function arrayParam(query: Record<string, unknown>, name: string): string[] {
  const values = [query[`${name}[]`], query[name]].flat();
  return values.filter((value): value is string => typeof value === 'string' && value !== '');
}

/**
 * A `next` Link to the page after this one, for lists that page with one of Perch's cursors (it
 * travels as `max_id`); such lists only page forward, so there is no `prev`.
 */
export function setNextLink(
  request: FastifyRequest,
  reply: FastifyReply,
  origin: string,
  nextCursor: string | null,
): void {
  if (nextCursor === null) return;
  const url = new URL(request.url, origin);
  for (const name of ['max_id', 'min_id', 'since_id']) url.searchParams.delete(name);
  url.searchParams.set('max_id', nextCursor);
  void reply.header('link', `<${url.toString()}>; rel="next"`);
}

/** Whether a failure is Perch saying the change was already made (a follow twice, …). */
export const isAlready = (error: unknown, message: string): boolean =>
  error instanceof AppError && error.message === message;

/** The Account entities of members, with when each last posted, for one request. */
export async function accountsOf(
  app: FastifyInstance,
  request: FastifyRequest,
  users: readonly User[],
): Promise<mastodon.Account[]> {
  const last = await app.services.posts.lastPostTimes(users.map((user) => user._id));
  const links = linksOf(app, request);
  return users.map((user) =>
    toAccount(user, links, { lastStatusAt: statusDateOf(last.get(user._id) ?? null) }),
  );
}

export async function accountOf(
  app: FastifyInstance,
  request: FastifyRequest,
  user: User,
): Promise<mastodon.Account> {
  const [account] = await accountsOf(app, request, [user]);
  if (!account) throw new AppError(404, ErrorMessages.userNotFound);
  return account;
}

/**
 * The viewer's Relationships to these members, in order. `blocked_by` is always false: Perch
 * never tells a member who blocked them (such a member is not found instead).
 */
export async function relationshipsOf(
  app: FastifyInstance,
  viewer: Viewer,
  ids: readonly string[],
): Promise<mastodon.Relationship[]> {
  const { users } = app.services;
  const [relations, following, followedBy] = await Promise.all([
    users.relationsOf(viewer.id),
    users.followeesAmong(viewer.id, ids),
    users.followersAmong(viewer.id, ids),
  ]);
  return ids.map((id) =>
    toRelationship(id, {
      following: following.has(id),
      followedBy: followedBy.has(id),
      blocking: relations.blocking.has(id),
      blockedBy: false,
      muting: relations.muting.has(id),
    }),
  );
}

/** The member with this id as the viewer may see them (404 when gone or when they blocked the viewer). */
export async function memberById(
  app: FastifyInstance,
  id: string,
  viewer: Viewer | null,
): Promise<User> {
  const { users } = app.services;
  const stub = await users.stubById(id);
  if (!stub) throw new AppError(404, ErrorMessages.userNotFound);
  return (await users.profile(stub.username, viewer)).user;
}
