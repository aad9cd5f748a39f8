import { z } from 'zod';
import { normalizeTag, TAG_MAX_LENGTH } from './entityRules';
import { nextCursorSchema, pageQuerySchema } from './pagination';
import { postSchema } from './posts';
import {
  parseSearch,
  SEARCH_QUERY_MAX,
  SEARCH_SORTS,
  SearchErrors,
  TRENDING_TAGS_MAX,
} from './searchRules';

// Post search, tags and trending tags; the search syntax and its limits: searchRules.ts.
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
