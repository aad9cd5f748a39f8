import { ErrorMessages, type User } from '@perch/contract';
import type { Viewer } from '../../lib/viewer';
import { notFound } from '../../lib/errors';
import { sqlBoolean } from '../../platform/db/dialect';
import type { Db } from './users.deps';
import { toUser } from './users.mapper';
import * as repo from './users.repository';

/** A member as a list shows them to the viewer: their email only to themselves. */
export function listed(row: repo.ListedUserRow, viewer: Viewer | null): User {
  return toUser(row, {
    includeEmail: viewer?.id === row.id,
    followedByViewer: viewer ? sqlBoolean(row.followed) : undefined,
  });
}

/** The member as the viewer sees them, read in `trx`; 404 when there is no such member. */
export async function listedById(trx: Db, id: string, viewer: Viewer): Promise<User> {
  const row = await repo.findListedUserById(trx, id, viewer.id);
  if (!row) throw notFound(ErrorMessages.userNotFound);
  return listed(row, viewer);
}
