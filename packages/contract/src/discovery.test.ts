import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import {
  postSearchQuerySchema,
  tagParamsSchema,
  tagSearchQuerySchema,
  trendingQuerySchema,
} from './discovery';
import { TAG_MAX_LENGTH } from './entityRules';
import {
  SEARCH_QUERY_MAX,
  SEARCH_TERMS_MAX,
  SearchErrors,
  TRENDING_TAGS_MAX,
  parseSearch,
  searchWordsOf,
  type SearchTerm,
} from './searchRules';

function termsOf(query: string): SearchTerm[] {
  const parsed = parseSearch(query);
  if (!parsed.ok) throw new Error(`${JSON.stringify(query)} was refused: ${parsed.error}`);
  return parsed.terms;
}

const errorOf = (query: string) => {
  const parsed = parseSearch(query);
  return parsed.ok ? null : parsed.error;
};

const word = (text: string): SearchTerm => ({ kind: 'word', word: text });
const prefix = (text: string): SearchTerm => ({ kind: 'prefix', word: text });
const phrase = (...words: string[]): SearchTerm => ({ kind: 'phrase', words });

/** The messages a schema answers for the input, [] when it accepts it. */
function issuesOf(schema: z.ZodType, input: unknown): string[] {
  const parsed = schema.safeParse(input);
  return parsed.success ? [] : parsed.error.issues.map((issue) => issue.message);
}

describe('parseSearch', () => {
  it('reads words in lower case, accents kept for the database to fold', () => {
    expect(termsOf('Bake  BREAD\tnow\n')).toEqual([word('bake'), word('bread'), word('now')]);
    expect(termsOf('Café CRÈME naïve')).toEqual([word('café'), word('crème'), word('naïve')]);
    expect(termsOf('日本語 東京')).toEqual([word('日本語'), word('東京')]);
  });

  it('reads quoted phrases, a one-word phrase being a word', () => {
    expect(termsOf('"quiet river" stone')).toEqual([phrase('quiet', 'river'), word('stone')]);
    expect(termsOf('"Quiet,  River!"')).toEqual([phrase('quiet', 'river')]);
    expect(termsOf('"one" "two three"')).toEqual([word('one'), phrase('two', 'three')]);
    expect(termsOf('"bak*"')).toEqual([word('bak')]);
    // Words joined by punctuation are a phrase.
    expect(termsOf("don't e-mail")).toEqual([phrase('don', 't'), phrase('e', 'mail')]);
  });

  it('reads prefixes of at least two letters', () => {
    expect(termsOf('bak*')).toEqual([prefix('bak')]);
    expect(termsOf('AB* Naï*')).toEqual([prefix('ab'), prefix('naï')]);
    expect(termsOf('bak** *bak')).toEqual([prefix('bak'), word('bak')]);
    expect(errorOf('a*')).toBe(SearchErrors.shortPrefix);
    expect(errorOf('bread é*')).toBe(SearchErrors.shortPrefix);
  });

  it('refuses an unclosed quote', () => {
    expect(errorOf('"unclosed')).toBe(SearchErrors.unclosedQuote);
    expect(errorOf('"a" "b')).toBe(SearchErrors.unclosedQuote);
    expect(errorOf('"')).toBe(SearchErrors.unclosedQuote);
  });

  it('refuses control characters, NUL among them, but not whitespace', () => {
    for (const query of ['\u0000', 'a\u0000b', 'bread\u0007', 'x\u001by', 'a\u007f']) {
      expect(errorOf(query), JSON.stringify(query)).toBe(SearchErrors.control);
    }
    expect(termsOf('a\r\nb\tc')).toEqual([word('a'), word('b'), word('c')]);
  });

  it('refuses what is empty, too long or has no letter or digit', () => {
    expect(errorOf('')).toBe(SearchErrors.empty);
    expect(errorOf(' \t\n ')).toBe(SearchErrors.empty);
    expect(errorOf('x'.repeat(10 * 1024))).toBe(SearchErrors.tooLong);
    expect(errorOf('ab '.repeat(3500))).toBe(SearchErrors.tooLong);
    expect(termsOf('x'.repeat(SEARCH_QUERY_MAX))).toEqual([word('x'.repeat(SEARCH_QUERY_MAX))]);
    expect(errorOf('x'.repeat(SEARCH_QUERY_MAX + 1))).toBe(SearchErrors.tooLong);
    // Characters count as code points: 200 emoji and a word are too long, 199 are not.
    expect(errorOf(`${'😀'.repeat(SEARCH_QUERY_MAX - 1)}a`)).toBeNull();
    expect(errorOf(`${'😀'.repeat(SEARCH_QUERY_MAX)}a`)).toBe(SearchErrors.tooLong);
    for (const query of ['( ) * : ^ -', '*', '""', '" "', "'", '😀 🇫🇷', '\u200b', '-- ++ ~~']) {
      expect(errorOf(query), query).toBe(SearchErrors.noWords);
    }
  });

  it('treats operators as plain words and punctuation as nothing', () => {
    expect(termsOf('AND OR NOT ( ) * : ^ -')).toEqual([word('and'), word('or'), word('not')]);
    expect(termsOf('NEAR(a b)')).toEqual([phrase('near', 'a'), word('b')]);
    expect(termsOf('a OR b')).toEqual([word('a'), word('or'), word('b')]);
    expect(termsOf('-x ^a col:val')).toEqual([word('x'), word('a'), phrase('col', 'val')]);
    expect(termsOf("'single' {braces} [x]")).toEqual([word('single'), word('braces'), word('x')]);
  });

  it('refuses more than SEARCH_TERMS_MAX terms', () => {
    const words = Array.from({ length: SEARCH_TERMS_MAX + 1 }, (_, i) => `w${i}`);
    expect(termsOf(words.slice(0, SEARCH_TERMS_MAX).join(' '))).toHaveLength(SEARCH_TERMS_MAX);
    expect(errorOf(words.join(' '))).toBe(SearchErrors.tooManyTerms);
    expect(errorOf(`${words.slice(0, 10).join(' ')} "x y"`)).toBe(SearchErrors.tooManyTerms);
  });
});

describe('searchWordsOf', () => {
  it('splits words in NFKC lower case, leaving accents and marks to the database', () => {
    expect(searchWordsOf('Café, CAFÉ!')).toEqual(['café', 'café']);
    expect(searchWordsOf('ﬁne Ⅻ ｶﾀｶﾅ')).toEqual(['fine', 'xii', 'カタカナ']);
    expect(searchWordsOf('cafe\u0301')).toEqual(searchWordsOf('café'));
    // Vowel signs are marks, and part of the word.
    expect(searchWordsOf('हिन्दी')).toEqual(['हिन्दी']);
    expect(searchWordsOf('日本語 😀 e-mail')).toEqual(['日本語', 'e', 'mail']);
  });

  it('takes no mark standing alone for a word', () => {
    // NFKC turns the spacing breve into a space and a combining breve.
    expect(searchWordsOf('˘')).toEqual([]);
    expect(searchWordsOf('\u0301\u0306 a\u0301')).toEqual(searchWordsOf('á'));
  });
});

describe('schemas of the discovery calls', () => {
  it('parses the search query, with latest first by default', () => {
    const parsed = postSearchQuerySchema.parse({ q: '  Café "quiet river"  ' });
    expect(parsed).toMatchObject({ sort: 'latest', limit: 20 });
    expect(parsed.q).toEqual({
      text: 'Café "quiet river"',
      terms: [word('café'), phrase('quiet', 'river')],
    });
    expect(issuesOf(postSearchQuerySchema, { q: '"x' })).toEqual([SearchErrors.unclosedQuote]);
    expect(issuesOf(postSearchQuerySchema, { q: 'x'.repeat(10 * 1024) })).toEqual([
      SearchErrors.tooLong,
    ]);
    expect(issuesOf(postSearchQuerySchema, {})).toEqual([SearchErrors.empty]);
    expect(issuesOf(postSearchQuerySchema, { q: 'x', sort: 'bogus' })).toEqual([
      'sort must be latest or top.',
    ]);
  });

  it('reads the tag of a path in its normal form', () => {
    const tagOf = (tag: string) => tagParamsSchema.parse({ tag }).tag;
    expect(tagOf('Perch')).toBe('perch');
    expect(tagOf('#PERCH')).toBe('perch');
    expect(tagOf('Ünïcödé')).toBe('ünïcödé');
    expect(tagOf('ﬁ')).toBe('fi');
    for (const tag of [
      '123',
      '#',
      '',
      'a b',
      'a-b',
      'x'.repeat(300),
      'a'.repeat(TAG_MAX_LENGTH + 1),
    ]) {
      expect(issuesOf(tagParamsSchema, { tag }), tag).toEqual([SearchErrors.badTag]);
    }
  });

  it('reads a tag prefix in the form tags are stored in', () => {
    const prefixOf = (q: string) => tagSearchQuerySchema.parse({ q }).q;
    expect(prefixOf('')).toBe('');
    expect(prefixOf('#Pe')).toBe('pe');
    expect(prefixOf(' ＡＢ ')).toBe('ab');
    expect(prefixOf('12')).toBe('12');
    expect(issuesOf(tagSearchQuerySchema, { q: 'a b' })).toEqual([SearchErrors.badTag]);
    expect(issuesOf(tagSearchQuerySchema, { q: 'x'.repeat(300) })).toEqual([SearchErrors.badTag]);
  });

  it('reads a prefix of digits only in NFKC too, as tags are stored', () => {
    // `#１２ab` is stored as the tag `12ab`: the prefix `１２` must find it.
    expect(tagSearchQuerySchema.parse({ q: '１２' }).q).toBe('12');
    expect(tagSearchQuerySchema.parse({ q: '#①' }).q).toBe('1');
  });

  it('bounds the trending limit', () => {
    expect(trendingQuerySchema.parse({})).toEqual({ limit: TRENDING_TAGS_MAX });
    expect(trendingQuerySchema.parse({ limit: '3' })).toEqual({ limit: 3 });
    expect(issuesOf(trendingQuerySchema, { limit: '0' })).toEqual(['limit must be at least 1.']);
    expect(issuesOf(trendingQuerySchema, { limit: String(TRENDING_TAGS_MAX + 1) })).toEqual([
      `limit must be at most ${TRENDING_TAGS_MAX}.`,
    ]);
  });
});
