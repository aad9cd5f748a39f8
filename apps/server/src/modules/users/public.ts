import type { User } from '@perch/contract';
import { idListValue, sqlBoolean } from '../../platform/db/dialect';
import * as repo from './public.repository';
import type { UsersDeps } from './users.deps';
import { toUser } from './users.mapper';

/** A member as people who are not signed in see them, with what their public pages ask of robots. */
export interface PublicMember {
  user: User;
  /** The member asked search engines not to index their public pages. */
  noindex: boolean;
}

/**
 * The member as people who are not signed in may see them (no email, no viewer's marks); null
 * when there is no such member, or they keep their profile from people who are not signed in.
 * Read from the database, not a cache, so a member who turns their profile off is hidden from the
 * next read on, in every process.
 */
export async function publicMember(
  { reads }: Pick<UsersDeps, 'reads'>,
  username: string,
): Promise<PublicMember | null> {
  const [row] = await repo.publicMemberRow(reads, username.toLowerCase());
  if (!row || !sqlBoolean(row.public_profile)) return null;
  return { user: toUser(row), noindex: sqlBoolean(row.noindex) };
}

/** Of `ids`, the members who let people who are not signed in see them (unknown ids left out). */
export async function publicAmong(
  { reads }: Pick<UsersDeps, 'reads'>,
  ids: readonly string[],
): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const rows = await repo.publicIdsAmong(reads, idListValue(reads, [...new Set(ids)]));
  return new Set(rows.map((row) => row.id));
}

/** A member a sitemap lists: their username and when their profile last changed. */
export interface IndexableMember {
  username: string;
  updatedAt: Date;
}

/** A page of the members whose public pages search engines may index, in a stable order. */
export async function indexableMembers(
  { reads }: Pick<UsersDeps, 'reads'>,
  page: { offset: number; limit: number },
): Promise<{ members: IndexableMember[]; total: number }> {
  const [rows, [count]] = await Promise.all([
    repo.indexableRows(reads, page.offset, page.limit),
    repo.indexableCount(reads),
  ]);
  return {
    members: rows.map((row) => ({ username: row.username, updatedAt: new Date(row.updated_at) })),
    total: Number(count?.count ?? 0),
  };
}
