import { sql, type Kysely } from 'kysely';
import { compiledQuery } from '../../platform/db/compiled';
import { idList } from '../../platform/db/dialect';
import type { Database } from '../../platform/db/schema';
import { MEMBER_COLUMNS } from './users.repository';

type Db = Kysely<Database>;

/**
 * The member by lower-cased username with their privacy settings: one lookup on the unique index
 * of lower(username), the row read for its counts as a profile reads it.
 */
export const publicMemberRow = compiledQuery((db: Db, lowerUsername: string) =>
  db
    .selectFrom('users as u')
    .select(MEMBER_COLUMNS)
    .select(['u.public_profile', 'u.noindex'])
    .where(sql<string>`lower(u.username)`, '=', lowerUsername),
);

/** The members among `ids` (see idListValue) who let people who are not signed in see them. */
export const publicIdsAmong = compiledQuery((db: Db, ids: unknown) =>
  db
    .selectFrom('users')
    .select('id')
    .where('id', 'in', idList(db, ids))
    .where('public_profile', '=', 1),
);
