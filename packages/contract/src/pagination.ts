import { z } from 'zod';

export const PAGE_SIZE_DEFAULT = 20;
export const PAGE_SIZE_MAX = 50;

/** `?limit=` and `?cursor=` of every list; the cursor is opaque, taken from the previous page. */
export const pageQuerySchema = z.object({
  limit: z.coerce
    .number({ error: 'limit must be a number.' })
    .int('limit must be a whole number.')
    .min(1, 'limit must be at least 1.')
    .max(PAGE_SIZE_MAX, `limit must be at most ${PAGE_SIZE_MAX}.`)
    .default(PAGE_SIZE_DEFAULT),
  cursor: z.string().max(200, 'cursor is invalid.').optional(),
});
export type PageQuery = z.infer<typeof pageQuerySchema>;

export const POST_SORTS = ['latest', 'oldest', 'trending'] as const;
export type PostSort = (typeof POST_SORTS)[number];

/** Trending: most liked first, then newest. Latest: newest first. Oldest: oldest first. */
export const feedQuerySchema = pageQuerySchema.extend({
  sort: z.enum(POST_SORTS, { error: 'sort must be latest, oldest or trending.' }).default('latest'),
});
export type FeedQuery = z.infer<typeof feedQuerySchema>;

/** null when there is no further page. */
export const nextCursorSchema = z.string().nullable();
