import type { SearchTerm } from '@perch/contract';
import { sql, type Kysely } from 'kysely';
import { idList, idListValue, isPostgres } from '../../platform/db/dialect';
import type { Database } from '../../platform/db/schema';

type Db = Kysely<Database>;

/**
 * The search as an FTS5 query: every term quoted (words hold only letters and digits, so nothing
 * in them is syntax), a prefix marked after its quotes; terms side by side must all match.
 */
export function ftsQueryOf(terms: readonly SearchTerm[]): string {
  return terms
    .map((term) => {
      if (term.kind === 'phrase') return `"${term.words.join(' ')}"`;
      return term.kind === 'prefix' ? `"${term.word}"*` : `"${term.word}"`;
    })
    .join(' ');
}

/**
 * A word of a tsquery, quoted once unaccent has folded it: unaccent may turn a letter into a quote
 * or a backslash (ʼ becomes '), which are escaped, or into nothing, which the trailing space keeps
 * from being an empty (unparsable) term; the parser drops the space.
 */
const tsWord = (word: string) =>
  sql`'''' || replace(replace(perch_unaccent(${word}), '\\', '\\\\'), '''', '''''') || ' '''`;

/** The search as a PostgreSQL tsquery of the `simple` configuration (see ftsQueryOf). */
function tsQueryText(terms: readonly SearchTerm[]) {
  const parts = terms.map((term) => {
    if (term.kind === 'phrase')
      return sql`'(' || ${sql.join(term.words.map(tsWord), sql` || ' <-> ' || `)} || ')'`;
    return term.kind === 'prefix' ? sql`${tsWord(term.word)} || ':*'` : tsWord(term.word);
  });
  return sql.join(parts, sql` || ' & ' || `);
}

const tsQuery = (terms: readonly SearchTerm[]) =>
  sql`to_tsquery('simple'::regconfig, ${tsQueryText(terms)})`;

/**
 * `and <column> not in (…hidden)`: the posts of members the viewer does not see (see
 * modules/safety) left out; nothing for the viewers, most of them, who hide no one.
 */
function notBy(db: Db, column: string, hidden: readonly string[]) {
  return hidden.length === 0
    ? sql``
    : sql`and ${sql.ref(column)} not in ${idList(db, idListValue(db, hidden))}`;
}

/** A found post and its place in the newest-first order (see searchLatest). */
export interface FoundPost {
  id: string;
  /** SQLite: the post's rowid (posts are numbered as they are written); PostgreSQL: created_at. */
  seq: number;
  /** SQLite: the post's rowid, which finds its card (see PostViewCache.of); PostgreSQL: null. */
  row: number | null;
}

/**
 * Posts that match, newest first, after the keyset `after` ([seq] on SQLite, [created_at, id] on
 * PostgreSQL). SQLite reads the index's own order, which is the order posts were written in.
 */
export async function searchLatest(
  db: Db,
  query: {
    terms: readonly SearchTerm[];
    after: readonly (number | string)[] | null;
    limit: number;
    hidden: readonly string[];
  },
): Promise<FoundPost[]> {
  if (isPostgres(db)) return searchLatestPostgres(db, query);
  const after = query.after ? sql`and rowid < ${query.after[0]}` : sql``;
  // Hiding someone, the limit must count the posts left after them, so it moves outside.
  const { rows } =
    query.hidden.length === 0
      ? await sql<FoundPost>`
    select p.rowid as seq, p.rowid as row, p.id from posts p where p.rowid in (
      select rowid from posts_search where posts_search match ${ftsQueryOf(query.terms)}
      ${after} order by rowid desc limit ${query.limit + 1}
    ) order by p.rowid desc`.execute(db)
      : await sql<FoundPost>`
    select p.rowid as seq, p.rowid as row, p.id from posts p where p.rowid in (
      select rowid from posts_search where posts_search match ${ftsQueryOf(query.terms)} ${after}
    ) ${notBy(db, 'p.user_id', query.hidden)}
    order by p.rowid desc limit ${query.limit + 1}`.execute(db);
  return rows;
}

/** SQLite: the newest post's rowid (0 with no posts); a post written later has a higher one. */
export async function newestPostRow(db: Db): Promise<number> {
  const { rows } = await sql<{ row: number | null }>`select max(rowid) as row from posts`.execute(
    db,
  );
  return rows[0]?.row ?? 0;
}

/** SQLite: posts that match among those of rowid above `above` up to `upTo`, newest first. */
export async function searchLatestBetween(
  db: Db,
  query: { terms: readonly SearchTerm[]; above: number; upTo: number; limit: number },
): Promise<FoundPost[]> {
  const { rows } = await sql<FoundPost>`
    select p.rowid as seq, p.rowid as row, p.id from posts p where p.rowid in (
      select rowid from posts_search where posts_search match ${ftsQueryOf(query.terms)}
      and rowid > ${query.above} and rowid <= ${query.upTo} order by rowid desc limit ${query.limit}
    ) order by p.rowid desc`.execute(db);
  return rows;
}

/** How many of the newest posts PostgreSQL reads in order before it asks the GIN index instead. */
const RECENT_WINDOW = 2000;

/**
 * PostgreSQL has no index that both matches and orders: it either walks posts newest first testing
 * each (quick for common words, a walk through every post for a rare one) or reads every match
 * from the GIN index and sorts them (quick for rare words, slow for common ones), and its guess of
 * how common a word is often picks the wrong one. So: the newest RECENT_WINDOW posts first; if they
 * hold too few matches, the word is rare enough to sort all of its matches.
 */
async function searchLatestPostgres(
  db: Db,
  query: {
    terms: readonly SearchTerm[];
    after: readonly (number | string)[] | null;
    limit: number;
    hidden: readonly string[];
  },
): Promise<FoundPost[]> {
  const [at, id] = query.after ?? [];
  const keyset = sql`${query.after ? sql`and (created_at, id) < (${at}, ${id})` : sql``} ${notBy(db, 'user_id', query.hidden)}`;
  const { rows: recent } = await sql<{ id: string; seq: number | string }>`
    select id, seq from (
      select id, created_at as seq, search_vector from posts where true ${keyset}
      order by created_at desc, id desc limit ${RECENT_WINDOW}
    ) recent where search_vector @@ ${tsQuery(query.terms)}
    order by seq desc, id desc limit ${query.limit + 1}`.execute(db);
  let rows = recent;
  if (rows.length <= query.limit) {
    // OFFSET 0 keeps the planner from walking the created_at index: the matches come from GIN.
    ({ rows } = await sql<{ id: string; seq: number | string }>`
      select id, seq from (
        select id, created_at as seq from posts
        where search_vector @@ ${tsQuery(query.terms)} ${keyset} offset 0
      ) matches order by seq desc, id desc limit ${query.limit + 1}`.execute(db));
  }
  return rows.map((row) => ({ id: row.id, seq: Number(row.seq), row: null }));
}

/** Posts that match, most relevant first (bm25 on SQLite, ts_rank_cd on PostgreSQL). */
export async function searchTop(
  db: Db,
  query: {
    terms: readonly SearchTerm[];
    offset: number;
    limit: number;
    hidden: readonly string[];
  },
): Promise<string[]> {
  const { rows } = isPostgres(db)
    ? await sql<{ id: string }>`
        select id from posts where search_vector @@ ${tsQuery(query.terms)}
        ${notBy(db, 'user_id', query.hidden)}
        order by ts_rank_cd(search_vector, ${tsQuery(query.terms)}) desc, id desc
        limit ${query.limit + 1} offset ${query.offset}`.execute(db)
    : await sql<{ id: string }>`
        select p.id from posts_search s join posts p on p.rowid = s.rowid
        where posts_search match ${ftsQueryOf(query.terms)} ${notBy(db, 'p.user_id', query.hidden)}
        order by s.rank, p.id desc limit ${query.limit + 1} offset ${query.offset}`.execute(db);
  return rows.map((row) => row.id);
}

/** The tag's posts, newest first (post ids are time-ordered), after the post id `after`. */
export async function tagPostIds(
  db: Db,
  query: { tag: string; after: string | null; limit: number; hidden: readonly string[] },
): Promise<string[]> {
  let builder = db
    .selectFrom('post_tags')
    .select('post_id')
    .where('tag', '=', query.tag)
    .orderBy('post_id', 'desc')
    .limit(query.limit + 1);
  if (query.after !== null) builder = builder.where('post_id', '<', query.after);
  if (query.hidden.length > 0) {
    builder = builder.where('author_id', 'not in', idList(db, idListValue(db, query.hidden)));
  }
  return (await builder.execute()).map((row) => row.post_id);
}

export async function tagPostCounts(
  db: Db,
  tags: readonly string[],
): Promise<{ name: string; post_count: number }[]> {
  if (tags.length === 0) return [];
  return db.selectFrom('tags').select(['name', 'post_count']).where('name', 'in', tags).execute();
}

const LAST_CODE_POINT = String.fromCodePoint(0x10ffff);

/** Tags starting with `prefix` ('' for all), most posts first. */
export function tagsStartingWith(
  db: Db,
  prefix: string,
  limit: number,
): Promise<{ name: string; post_count: number }[]> {
  let builder = db
    .selectFrom('tags')
    .select(['name', 'post_count'])
    .orderBy('post_count', 'desc')
    .orderBy('name')
    .limit(limit);
  if (prefix !== '') {
    builder = builder.where('name', '>=', prefix).where('name', '<', prefix + LAST_CODE_POINT);
  }
  return builder.execute();
}

/** Each member's latest use of each tag since `since`, in posts and in comments. */
export async function recentTagUses(
  db: Db,
  since: number,
): Promise<{ tag: string; author_id: string; last_at: number }[]> {
  const { rows } = await sql<{ tag: string; author_id: string; last_at: number | string }>`
    select tag, author_id, max(created_at) as last_at from post_tags
    where created_at >= ${since} group by tag, author_id
    union all
    select tag, author_id, max(created_at) as last_at from comment_tags
    where created_at >= ${since} group by tag, author_id`.execute(db);
  return rows.map((row) => ({ ...row, last_at: Number(row.last_at) }));
}

/**
 * SQLite: merges some of the search index's segments (at most `pages` pages of work). Every write
 * adds a small segment; a term spread over many of them is read from each, so a search gets slower
 * as they pile up. PostgreSQL's GIN index is kept by autovacuum.
 */
export async function mergeSearchSegments(db: Db, pages: number): Promise<void> {
  if (isPostgres(db)) return;
  await sql`insert into posts_search (posts_search, rank) values ('merge', ${pages})`.execute(db);
}
