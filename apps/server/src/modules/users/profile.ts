import { ErrorMessages, type User } from '@perch/contract';
import type { Viewer } from '../../lib/viewer';
import { notFound } from '../../lib/errors';
import type { UsersDeps } from './users.deps';
import { listed } from './listed';
import * as repo from './users.repository';

/**
 * A member who blocked the viewer does not exist for them; one the viewer blocked still answers
 * (so they can unblock), marked viewerBlocks.
 */
export async function profile(
  { reads, hidden }: Pick<UsersDeps, 'reads' | 'hidden'>,
  username: string,
  viewer: Viewer | null,
): Promise<{ user: User }> {
  const row = await repo.findListedUserByUsername(reads, username, viewer?.id ?? null);
  if (!row) throw notFound(ErrorMessages.userNotFound);
  if (!viewer) return { user: listed(row, viewer) };
  const relations = await hidden.relationsOf(viewer.id);
  if (relations.blockedBy.has(row.id)) throw notFound(ErrorMessages.userNotFound);
  return {
    user: {
      ...listed(row, viewer),
      viewerBlocks: relations.blocking.has(row.id),
      viewerMutes: relations.muting.has(row.id),
    },
  };
}
