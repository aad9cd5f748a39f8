import type { PageQuery, UserPage } from '@perch/contract';
import type { Viewer } from '../../lib/viewer';
import { decodeCursor, pageOf } from '../../lib/cursor';
import type { UsersDeps } from './users.deps';
import { toUser } from './users.mapper';
import * as repo from './users.repository';

/** Members the viewer does not follow, most followed first, blocked ones left out. */
export async function suggestions(
  { reads, hidden }: Pick<UsersDeps, 'reads' | 'hidden'>,
  viewer: Viewer,
  query: PageQuery,
): Promise<UserPage> {
  const after = query.cursor ? decodeCursor(query.cursor, ['count', 'string'] as const) : null;
  const rows = await repo.suggestUsers(reads, {
    viewerId: viewer.id,
    after,
    limit: query.limit,
    exceptIds: await hidden.blockedFor(viewer.id),
  });
  const { items, nextCursor } = pageOf(rows, query.limit, (row) => [row.followers_count, row.id]);
  return { users: items.map((row) => toUser(row, { followedByViewer: false })), nextCursor };
}
