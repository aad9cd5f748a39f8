// Plain values only (no zod): clients import them without loading the schemas.

import { TAG_MAX_LENGTH } from './entityRules';
import { countCharacters } from './text';

/**
 * Post search, tags and trending tags.
 *
 * A search is words, "quoted phrases" and prefixes (`bak*`). A post matches when it has every
 * word, phrase and prefix, in any case and with or without accents on Latin letters (`cafe` finds
 * `café`; PostgreSQL also folds some letters of other scripts). Words
 * are runs of letters and digits; everything else between them is ignored, so operators and
 * punctuation are never syntax.
 */
export const SEARCH_QUERY_MAX = 200;
export const SEARCH_TERMS_MAX = 10;
export const SEARCH_PREFIX_MIN = 2;

export const SearchErrors = {
  empty: 'Type something to search for.',
  tooLong: `A search can be at most ${SEARCH_QUERY_MAX} characters.`,
  control: 'A search cannot contain control characters.',
  unclosedQuote: 'A quoted phrase needs a closing quote (").',
  noWords: 'Search for at least one letter or digit.',
  tooManyTerms: `A search can have at most ${SEARCH_TERMS_MAX} words and phrases.`,
  shortPrefix: `A prefix search needs at least ${SEARCH_PREFIX_MIN} letters before the *.`,
  badTag: `A tag is up to ${TAG_MAX_LENGTH} letters, digits and underscores, with at least one letter.`,
} as const;

/** One part of a search: a word, a phrase (words in a row) or a prefix of a word. */
export type SearchTerm =
  | { kind: 'word'; word: string }
  | { kind: 'prefix'; word: string }
  | { kind: 'phrase'; words: string[] };

export type ParsedSearch = { ok: true; terms: SearchTerm[] } | { ok: false; error: string };

// A word starts with a letter or digit: a mark alone (NFKC turns a spacing ˘ into one) is no word,
// and PostgreSQL's unaccent would strip it to an empty, unparsable query term.
const WORD = /[\p{L}\p{N}][\p{L}\p{M}\p{N}]*/gu;
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/u;

/**
 * A search's words as written (NFKC, lower case). Accents are left to the database, which folds
 * the search exactly as it folded the posts: SQLite removes them from Latin letters, PostgreSQL's
 * unaccent from the letters it knows. Marks stay part of words, as the vowel signs of many scripts
 * must.
 */
export function searchWordsOf(text: string): string[] {
  return text.normalize('NFKC').toLowerCase().match(WORD) ?? [];
}

const wordsOf = searchWordsOf;

function termsOfUnquoted(chunk: string): SearchTerm[] | string {
  const terms: SearchTerm[] = [];
  for (const match of chunk.matchAll(/[^\s]+/gu)) {
    const token = match[0];
    const words = wordsOf(token);
    if (words.length === 0) continue;
    if (token.endsWith('*') && words.length === 1) {
      const word = words[0] ?? '';
      if (countCharacters(word) < SEARCH_PREFIX_MIN) return SearchErrors.shortPrefix;
      terms.push({ kind: 'prefix', word });
    } else if (words.length === 1) {
      terms.push({ kind: 'word', word: words[0] ?? '' });
    } else {
      // "e-mail", "don't": words joined by punctuation are searched as a phrase.
      terms.push({ kind: 'phrase', words });
    }
  }
  return terms;
}

export function parseSearch(raw: string): ParsedSearch {
  const text = raw.trim();
  if (text === '') return { ok: false, error: SearchErrors.empty };
  if (countCharacters(text) > SEARCH_QUERY_MAX) return { ok: false, error: SearchErrors.tooLong };
  if (CONTROL.test(text)) return { ok: false, error: SearchErrors.control };
  const chunks = text.split('"');
  if (chunks.length % 2 === 0) return { ok: false, error: SearchErrors.unclosedQuote };
  const terms: SearchTerm[] = [];
  for (const [index, chunk] of chunks.entries()) {
    if (index % 2 === 1) {
      const words = wordsOf(chunk);
      if (words.length === 1) terms.push({ kind: 'word', word: words[0] ?? '' });
      else if (words.length > 1) terms.push({ kind: 'phrase', words });
      continue;
    }
    const found = termsOfUnquoted(chunk);
    if (typeof found === 'string') return { ok: false, error: found };
    terms.push(...found);
  }
  if (terms.length === 0) return { ok: false, error: SearchErrors.noWords };
  if (terms.length > SEARCH_TERMS_MAX) return { ok: false, error: SearchErrors.tooManyTerms };
  return { ok: true, terms };
}

export const SEARCH_SORTS = ['latest', 'top'] as const;
export type SearchSort = (typeof SEARCH_SORTS)[number];

/** `top` ranks by relevance and reaches at most SEARCH_TOP_MAX posts; `latest` pages through all. */
export const SEARCH_TOP_MAX = 500;

/**
 * Trending tags: used by the most distinct members in the last 24 hours, recent use counting
 * more (each member counts once per tag, however often they use it). A tag needs
 * TRENDING_MEMBERS_MIN members to trend.
 */
export const TRENDING_MEMBERS_MIN = 2;
export const TRENDING_TAGS_MAX = 10;
