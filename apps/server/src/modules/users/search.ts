import type { UserPage, UserSearchQuery } from '@perch/contract';
import type { Viewer } from '../../lib/viewer';
import { decodeCursor, pageOf } from '../../lib/cursor';
import { isPostgres } from '../../platform/db/dialect';
import type { UsersDeps } from './users.deps';
import * as search from './member-search.repository';

/**
 * Past this many members holding the text's trigrams, the text is common enough that reading
 * members in username order fills a page sooner than fetching and sorting every candidate.
 */
const TRIGRAM_CANDIDATES_MAX = 500;

/**
 * Where member search finds its candidates (see search.CandidateSource). SQLite only:
 * PostgreSQL's planner makes the same choice from its statistics. Two characters are looked up
 * among the members' pairs of characters, three among their triples. Longer text goes through
 * the trigram index unless so many members hold it that reading them in username order fills a
 * page sooner; so does a single character.
 */
async function candidateSource(
  { db, reads }: Pick<UsersDeps, 'db' | 'reads'>,
  text: string,
): Promise<search.CandidateSource> {
  if (isPostgres(db)) return 'order';
  if (search.isPair(text)) return 'pairs';
  if (search.isTriple(text)) return 'triples';
  if (!search.hasTrigrams(text)) return 'order';
  const candidates = await search.countTrigramMatches(reads, text, TRIGRAM_CANDIDATES_MAX);
  return candidates < TRIGRAM_CANDIDATES_MAX ? 'trigrams' : 'order';
}

/** Members whose username or name holds the text, in username order, blocked ones left out. */
export async function searchMembers(
  deps: UsersDeps,
  viewer: Viewer | null,
  query: UserSearchQuery,
): Promise<UserPage> {
  const { reads, hidden, members } = deps;
  const after = query.cursor ? decodeCursor(query.cursor, ['string'] as const)[0] : null;
  const text = query.q?.trim() ?? '';
  const exceptIds = await hidden.blockedFor(viewer?.id ?? null);
  const via = await candidateSource(deps, text);
  const read = () =>
    search.searchUsers(reads, { exceptIds, text, afterUsername: after, limit: query.limit, via });
  const found =
    after === null && exceptIds.length === 0
      ? await members.firstSearchPage(`${via}:${query.limit}:${text.toLowerCase()}`, read)
      : await read();
  const { items, nextCursor } = pageOf(found, query.limit, (row) => [row.lower_username]);
  const ids = items.map((row) => row.id);
  return { users: await members.packMany(ids, viewer?.id ?? null), nextCursor };
}
