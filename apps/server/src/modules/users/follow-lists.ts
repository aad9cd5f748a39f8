import { ErrorMessages, type PageQuery, type UserPage } from '@perch/contract';
import type { Viewer } from '../../lib/viewer';
import { decodeCursor, pageOf } from '../../lib/cursor';
import { notFound } from '../../lib/errors';
import type { UsersDeps } from './users.deps';
import { listed } from './listed';
import * as repo from './users.repository';

/**
 * A page of the members who follow `userId` (followers) or whom they follow (following), newest
 * follow first. As a profile: a member who blocked the viewer is not found; members blocked either
 * way are left out of the list.
 */
export async function followList(
  deps: Pick<UsersDeps, 'reads' | 'hidden'>,
  side: 'followers' | 'following',
  userId: string,
  viewer: Viewer | null,
  query: PageQuery,
): Promise<UserPage> {
  const { reads, hidden } = deps;
  const relations = await hidden.relationsOf(viewer?.id ?? null);
  if (relations.blockedBy.has(userId) || !(await repo.findUserById(reads, userId))) {
    throw notFound(ErrorMessages.userNotFound);
  }
  const after = query.cursor ? decodeCursor(query.cursor, ['number', 'string'] as const) : null;
  const rows = await repo.listFollowRows(reads, {
    userId,
    side,
    after,
    exceptIds: relations.blocked,
    limit: query.limit,
  });
  const { items, nextCursor } = pageOf(rows, query.limit, (row) => [row.followed_at, row.id]);
  return { users: items.map((row) => listed({ ...row, followed: null }, viewer)), nextCursor };
}
