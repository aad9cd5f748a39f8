import { z } from 'zod';
import { entitySchema } from './entities';
import { recordIdFields, userStubSchema } from './records';

/** Why a quote is refused (POST /api/posts with `quoteId`). */
export const QuoteErrors = {
  /** The quoted post does not exist (or never did). */
  notFound: 'The quoted post was not found.',
  /** A block stands between the member and the quoted post's author. */
  blocked: 'You cannot quote this post.',
} as const;

/**
 * The post a post quotes, as it shows inside the quoting post: enough for a compact card. Its own
 * quote is only named (`quoteId`), so a quote of a quote embeds one level.
 */
export const quotedPostSchema = z.object({
  ...recordIdFields,
  author: userStubSchema,
  content: z.string(),
  entities: z.array(entitySchema),
  mediaURL: z.string().nullable(),
  mediaAlt: z.string().nullable(),
  contentWarning: z.string().nullable(),
  sensitive: z.boolean(),
  createdAt: z.string(),
  /** The post it quotes in turn, shown as a link; null when it quotes none. */
  quoteId: z.string().nullable(),
});
export type QuotedPost = z.infer<typeof quotedPostSchema>;

/**
 * A post's quote for the reader: the quoted post, or `unavailable` when it was deleted or the
 * reader does not see its author (a block either way, or a mute).
 */
export const postQuoteSchema = z.discriminatedUnion('state', [
  z.object({ state: z.literal('available'), post: quotedPostSchema }),
  z.object({ state: z.literal('unavailable') }),
]);
export type PostQuote = z.infer<typeof postQuoteSchema>;

/** What a quote's identifier may be (a post id). */
export const quoteIdSchema = z
  .string({ error: 'quoteId must be a post id.' })
  .min(1, 'quoteId must be a post id.')
  .max(64, 'quoteId must be a post id.');
