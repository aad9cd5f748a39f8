import { sql, type Kysely } from 'kysely';
import { compiledShapes } from '../../platform/db/compiled';
import { idList, idListValue } from '../../platform/db/dialect';
import type { Database } from '../../platform/db/schema';

type Db = Kysely<Database>;

/**
 * How member search finds its candidates before its LIKE conditions keep the matches:
 * - `order`: members in username order until the page is full (both databases; PostgreSQL's
 *   planner picks its trigram index itself when that is quicker);
 * - `trigrams` (SQLite): the users_search index (migration 0009), for text that hasTrigrams;
 * - `pairs` (SQLite): member_name_pairs (migration 0015), for text of exactly two characters;
 * - `triples` (SQLite): member_name_triples (migration 0017), for text of exactly three.
 * Each finds never fewer members than the LIKEs match, and all answer in username order. Pairs
 * and triples find exactly the members the LIKEs match (each holds every pair or triple of the
 * names as SQLite's lower() writes them, the function the LIKEs read), so their LIKEs are left
 * out: they cost a quarter of the query.
 */
export type CandidateSource = 'order' | 'trigrams' | 'pairs' | 'triples';

const escapeLike = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);

/** FTS5 reads text in double quotes as one phrase, every character literal but `"`, doubled. */
const ftsPhrase = (text: string) => `"${text.toLowerCase().replaceAll('"', '""')}"`;

/** Text length as the indexes count it: in code points. */
const lengthOf = (text: string) => Array.from(text).length;

/**
 * Whether the trigram indexes (see migration 0009) can find the text: it needs three characters.
 */
export const hasTrigrams = (text: string): boolean => lengthOf(text.toLowerCase()) >= 3;

/** Whether member_name_pairs (see migration 0015) can find the text: two characters exactly. */
export const isPair = (text: string): boolean => lengthOf(text.toLowerCase()) === 2;

/** Whether member_name_triples (see migration 0017) can find the text: three characters exactly. */
export const isTriple = (text: string): boolean => lengthOf(text.toLowerCase()) === 3;

/** SQLite: how many members' names hold the text's trigrams, counting no further than `cap`. */
export async function countTrigramMatches(db: Db, text: string, cap: number): Promise<number> {
  const { rows } = await sql<{ n: number }>`select count(*) as n from (
    select rowid from users_search where users_search match ${ftsPhrase(text)} limit ${cap}
  )`.execute(db);
  return rows[0]?.n ?? 0;
}

interface SearchShape {
  text: boolean;
  via: CandidateSource;
  paged: boolean;
  excepting: boolean;
}

type SearchArgs = [
  pattern: string,
  indexed: string,
  afterUsername: string,
  limit: number,
  exceptIds: unknown,
];

/** A member found: their id and the key pages follow (their lower-cased username). */
export interface FoundMember {
  id: string;
  lower_username: string;
}

function searchBuilder(db: Db, shape: SearchShape, ...args: SearchArgs) {
  const [pattern, indexed, afterUsername, limit, exceptIds] = args;
  // Members found through their pairs (or triples) are read in that table's order, which is
  // username order, and need not be read from the members' table at all: the members' views
  // (see read-model/member/views.ts) are the rest of the answer.
  if (shape.via === 'pairs') {
    return db
      .selectFrom('member_name_pairs as mp')
      .select(['mp.user_id as id', 'mp.lower_username'])
      .where('mp.pair', '=', indexed)
      .$if(shape.excepting, (qb) => qb.where('mp.user_id', 'not in', idList(db, exceptIds)))
      .$if(shape.paged, (qb) => qb.where('mp.lower_username', '>', afterUsername))
      .orderBy('mp.lower_username')
      .limit(limit);
  }
  if (shape.via === 'triples') {
    return db
      .selectFrom('member_name_triples as mt')
      .select(['mt.user_id as id', 'mt.lower_username'])
      .where('mt.triple', '=', indexed)
      .$if(shape.excepting, (qb) => qb.where('mt.user_id', 'not in', idList(db, exceptIds)))
      .$if(shape.paged, (qb) => qb.where('mt.lower_username', '>', afterUsername))
      .orderBy('mt.lower_username')
      .limit(limit);
  }
  const order = sql<string>`lower(u.username)`;
  let builder = db.selectFrom('users as u').select(['u.id', order.as('lower_username')]);
  if (shape.via === 'trigrams') {
    builder = builder.where(
      sql<boolean>`u.rowid in (select rowid from users_search where users_search match ${indexed})`,
    );
  }
  if (shape.excepting) builder = builder.where('u.id', 'not in', idList(db, exceptIds));
  if (shape.text) {
    builder = builder.where((eb) =>
      eb.or(
        (['u.username', 'u.first_name', 'u.last_name'] as const).map(
          (column) => sql<boolean>`lower(${eb.ref(column)}) like ${pattern} escape '\\'`,
        ),
      ),
    );
  }
  if (shape.paged) builder = builder.where(order, '>', afterUsername);
  return builder.orderBy(order).limit(limit);
}

// Each shape of the search is built and compiled once.
const searchQuery = compiledShapes((shape: SearchShape, db: Db, ...args: SearchArgs) =>
  searchBuilder(db, shape, ...args),
);

/**
 * Members whose username, first or last name contains the text, regardless of case, in username
 * order; keyset on lower(username), which is unique. The LIKE conditions say what matches, on
 * both databases, whatever found the candidates (pairs and triples match them exactly: see
 * CandidateSource).
 */
export function searchUsers(
  db: Db,
  query: {
    text: string;
    afterUsername: string | null;
    limit: number;
    via: CandidateSource;
    /** Members left out (those blocked either way with the viewer). */
    exceptIds?: readonly string[];
  },
): Promise<FoundMember[]> {
  const text = query.text.toLowerCase();
  const exceptIds = query.exceptIds ?? [];
  const via = text === '' ? 'order' : query.via;
  const shape: SearchShape = {
    text: text !== '',
    via,
    paged: query.afterUsername !== null,
    excepting: exceptIds.length > 0,
  };
  return searchQuery(shape)(
    db,
    `%${escapeLike(text)}%`,
    via === 'trigrams' ? ftsPhrase(text) : text,
    query.afterUsername ?? '',
    query.limit + 1,
    idListValue(db, exceptIds),
  );
}
