import { z } from 'zod';
import { normalizeTag, TAG_MAX_LENGTH } from './entities';
import { nextCursorSchema, pageQuerySchema } from './pagination';
import { postSchema } from './posts';
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

export const postSearchQuerySchema = pageQuerySchema.extend({
  q: z
    .string({ error: SearchErrors.empty })
    .max(SEARCH_QUERY_MAX * 4, SearchErrors.tooLong)
    .transform((q, context) => {
      const parsed = parseSearch(q);
      if (!parsed.ok) {
        context.addIssue({ code: 'custom', message: parsed.error });
        return z.NEVER;
      }
      return { text: q.trim(), terms: parsed.terms };
    }),
  sort: z.enum(SEARCH_SORTS, { error: 'sort must be latest or top.' }).default('latest'),
});
export type PostSearchQuery = z.infer<typeof postSearchQuerySchema>;

export const postSearchPageSchema = z.object({
  posts: z.array(postSchema),
  nextCursor: nextCursorSchema,
});
export type PostSearchPage = z.infer<typeof postSearchPageSchema>;

/** A tag as the path has it (`/api/tags/Perch` is `perch`); 400 when it cannot be a tag. */
export const tagParamsSchema = z.object({
  tag: z
    .string()
    .max(TAG_MAX_LENGTH * 4, SearchErrors.badTag)
    .transform((raw, context) => {
      const tag = normalizeTag(raw.replace(/^#/, ''));
      if (!tag) {
        context.addIssue({ code: 'custom', message: SearchErrors.badTag });
        return z.NEVER;
      }
      return tag;
    }),
});

export const tagSummarySchema = z.object({
  tag: z.string(),
  /** Posts that carry the tag now. */
  postCount: z.number().int(),
});
export type TagSummary = z.infer<typeof tagSummarySchema>;

export const tagPageSchema = z.object({
  tag: tagSummarySchema,
  posts: z.array(postSchema),
  nextCursor: nextCursorSchema,
});
export type TagPage = z.infer<typeof tagPageSchema>;

/** Tags whose name starts with `q` (a leading # is ignored), most used first. */
export const tagSearchQuerySchema = z.object({
  q: z
    .string({ error: SearchErrors.empty })
    .max(TAG_MAX_LENGTH * 4, SearchErrors.badTag)
    .transform((raw, context) => {
      const text = raw.trim().replace(/^#/, '');
      if (text === '') return '';
      const folded = text.normalize('NFKC').toLowerCase();
      // A prefix may be only the digits a tag starts with.
      const tag = normalizeTag(text) ?? (/^[\p{M}\p{N}_]+$/u.test(folded) ? folded : null);
      if (!tag) {
        context.addIssue({ code: 'custom', message: SearchErrors.badTag });
        return z.NEVER;
      }
      return tag;
    }),
  limit: pageQuerySchema.shape.limit,
});

export const tagListSchema = z.object({ tags: z.array(tagSummarySchema) });
export type TagList = z.infer<typeof tagListSchema>;

/**
 * Trending tags: used by the most distinct members in the last 24 hours, recent use counting
 * more (each member counts once per tag, however often they use it). A tag needs
 * TRENDING_MEMBERS_MIN members to trend.
 */
export const TRENDING_MEMBERS_MIN = 2;
export const TRENDING_TAGS_MAX = 10;

export const trendingTagSchema = tagSummarySchema.extend({
  /** Distinct members who used the tag in the last 24 hours. */
  memberCount: z.number().int(),
});
export type TrendingTag = z.infer<typeof trendingTagSchema>;
export const trendingTagsSchema = z.object({ tags: z.array(trendingTagSchema) });
export type TrendingTags = z.infer<typeof trendingTagsSchema>;
export const trendingQuerySchema = z.object({
  limit: z.coerce
    .number({ error: 'limit must be a number.' })
    .int('limit must be a whole number.')
    .min(1, 'limit must be at least 1.')
    .max(TRENDING_TAGS_MAX, `limit must be at most ${TRENDING_TAGS_MAX}.`)
    .default(TRENDING_TAGS_MAX),
});
