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

/**
 * Members whose public pages search engines may index (shown to people who are not signed in, and
 * not asking for noindex), by id, `limit` of them from the `offset`-th: a sitemap's page.
 */
export const indexableRows = compiledQuery((db: Db, offset: number, limit: number) =>
  db
    .selectFrom('users')
    .select(['username', 'updated_at'])
    .where('public_profile', '=', 1)
    .where('noindex', '=', 0)
    .orderBy('id')
    .offset(offset)
    .limit(limit),
);

/** How many members' public pages search engines may index. */
export const indexableCount = compiledQuery((db: Db) =>
  db
    .selectFrom('users')
    .select((eb) => eb.fn.countAll<number | string>().as('count'))
    .where('public_profile', '=', 1)
    .where('noindex', '=', 0),
);
