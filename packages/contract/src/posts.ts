import { z } from 'zod';
import { countCharacters } from './text';
import { commentSchema } from './comment';
import { entitySchema } from './entities';
import { nextCursorSchema } from './pagination';
import { previewCardSchema } from './previewCard';
import { pollInputSchema, pollSchema } from './polls';
import { PollMessages } from './pollRules';
import { postQuoteSchema, quoteIdSchema } from './quotes';
import { recordIdFields, userRefSchema, userStubSchema } from './records';
import {
  CONTENT_WARNING_MAX,
  CONTENT_WARNING_TOO_LONG,
  MEDIA_ALT_MAX,
  MEDIA_ALT_TOO_LONG,
  MEDIA_URL_PATTERN,
  MEDIA_URL_RULE,
  POST_CONTENT_MAX,
  POST_EMPTY,
} from './postRules';
import { postMediaInputSchema, postMediaSchema } from './postMedia';

/** An image this server issued, or none: null, or the empty string that clients send for none. */
export const mediaUrlSchema = z
  .string({ error: MEDIA_URL_RULE })
  .max(300, MEDIA_URL_RULE)
  .refine((url) => url === '' || MEDIA_URL_PATTERN.test(url), MEDIA_URL_RULE)
  .transform((url) => (url === '' ? null : url))
  .nullable();

/** What a member may set on a post; anything else sent along (ids, likes, dates) is ignored. */
export const postInputSchema = z.object({
  content: z
    .string({ error: 'content must be text.' })
    .refine((text) => countCharacters(text) <= POST_CONTENT_MAX, {
      message: `A post can be at most ${POST_CONTENT_MAX} characters.`,
    })
    .optional(),
  mediaURL: mediaUrlSchema.optional(),
  /**
   * The image's description for people who cannot see it (spaces around it dropped; empty for
   * none, as is null). Kept only with an image: a new image without one starts with none.
   */
  mediaAlt: z
    .string({ error: 'mediaAlt must be text.' })
    .refine((text) => countCharacters(text) <= MEDIA_ALT_MAX, { message: MEDIA_ALT_TOO_LONG })
    // A post sent back as it was read carries null for none.
    .nullable()
    .optional(),
  /**
   * A warning shown in place of the post's text and images until the reader asks to see them
   * (spaces around it dropped; empty or null for none). A post with one has its images sensitive.
   */
  contentWarning: z
    .string({ error: 'contentWarning must be text.' })
    .refine((text) => countCharacters(text.trim()) <= CONTENT_WARNING_MAX, {
      message: CONTENT_WARNING_TOO_LONG,
    })
    .nullable()
    .optional(),
  /** The post's images are blurred until the reader presses them (or always shows them). */
  sensitive: z.boolean({ error: 'sensitive must be true or false.' }).optional(),
  /**
   * The post's images in order (an album); empty or null for none. Absent, or sent back as the
   * post holds them, mediaURL and mediaAlt decide, as for clients that know one image a post.
   */
  media: postMediaInputSchema.nullable().optional(),
  /** The post this one quotes, set when it is created (an edit leaves it as it was); null: none. */
  quoteId: quoteIdSchema.nullable().optional(),
});
export type PostInput = z.infer<typeof postInputSchema>;

/** A new post may carry a poll (fixed once posted: edits ignore it), but not with an image. */
export const postCreateInputSchema = postInputSchema.extend({ poll: pollInputSchema.optional() });
export type PostCreateInput = z.infer<typeof postCreateInputSchema>;

export const postBodySchema = z.object({
  postData: postCreateInputSchema
    .refine(
      (post) =>
        (post.content ?? '').trim() !== '' || Boolean(post.mediaURL) || Boolean(post.media?.length),
      { message: POST_EMPTY },
    )
    .refine((post) => !post.poll || (!post.mediaURL && !post.media?.length), {
      message: PollMessages.pollWithImage,
    }),
});
export type PostBody = z.input<typeof postBodySchema>;

/** Edits may change one field; the result must still have text or an image (checked by the server). */
export const postEditBodySchema = z.object({ postData: postInputSchema });
export type PostEditBody = z.input<typeof postEditBodySchema>;

export const postIdParamsSchema = z.object({ postId: z.string().min(1).max(64) });

/** A post's author, as any member is named inside another record. */
export const postAuthorSchema = userStubSchema;
export type PostAuthor = z.infer<typeof postAuthorSchema>;

/**
 * A post. `likes.likedBy` holds at most the viewer (when they like it) and `dislikedBy` is always
 * empty: the full lists would grow without bound, so counts and viewer flags stand in for them.
 * `comments` holds the first EMBEDDED_COMMENTS_MAX comments, oldest first (`commentCount` is the
 * total; GET /api/comments/{postId} pages through all); it is left out when the request says
 * `Prefer: return=minimal`.
 */
export const postSchema = z.object({
  ...recordIdFields,
  content: z.string(),
  /** Tags and mentions of `content`, with offsets (see entityRules.ts). */
  entities: z.array(entitySchema),
  mediaURL: z.string().nullable(),
  /** The image's description (alt text), null when it has none (or there is no image). */
  mediaAlt: z.string().nullable(),
  /** Every image of the post in order, the first being mediaURL's; empty when it has none. */
  media: z.array(postMediaSchema),
  /** A warning that hides the text and images until the reader asks; null when there is none. */
  contentWarning: z.string().nullable(),
  /** Whether the images are blurred until pressed; always true with a content warning. */
  sensitive: z.boolean(),
  /**
   * The preview of the first link in `content`, null until it is fetched (a `post.card.attached`
   * event follows), when the text has no link, or when the page offered nothing to show.
   */
  card: previewCardSchema.nullable(),
  username: z.string(),
  userId: z.string(),
  author: postAuthorSchema,
  createdAt: z.string(),
  updatedAt: z.string(),
  /** Whether its author pinned it to their profile (the same for every reader). */
  pinned: z.boolean(),
  /**
   * On Home only, when a member the viewer follows brought the post there by reposting it: the
   * newest such reposter (a post reposted several times shows once). Absent elsewhere.
   */
  repostedBy: userStubSchema.optional(),
  likes: z.object({
    likeCount: z.number().int(),
    likedBy: z.array(userRefSchema),
    dislikedBy: z.array(userRefSchema),
  }),
  commentCount: z.number().int(),
  /** How many members reposted it. */
  repostCount: z.number().int(),
  comments: z.array(commentSchema).optional(),
  likedByViewer: z.boolean(),
  bookmarkedByViewer: z.boolean(),
  repostedByViewer: z.boolean(),
  /** The post's poll as the viewer sees it (see pollSchema); null when it has none. */
  poll: pollSchema.nullable(),
  /** The post it quotes as the reader may see it; null when it quotes none. */
  quote: postQuoteSchema.nullable(),
});
export type Post = z.infer<typeof postSchema>;

export const postPageSchema = z.object({
  posts: z.array(postSchema),
  nextCursor: nextCursorSchema,
});
export type PostPage = z.infer<typeof postPageSchema>;

/** A member's pinned posts, newest pin first (GET /api/posts/user/{username}/pinned). */
export const pinnedPostsSchema = z.object({ posts: z.array(postSchema) });
export type PinnedPosts = z.infer<typeof pinnedPostsSchema>;

export const postResponseSchema = z.object({ post: postSchema });
export type PostResponse = z.infer<typeof postResponseSchema>;

/**
 * Answer of a post mutation: the changed post, plus (unless the request says
 * `Prefer: return=minimal`) the first page of the latest posts, where the original API returned
 * the whole table.
 */
export const postMutationResponseSchema = z.object({
  post: postSchema,
  posts: z.array(postSchema).optional(),
});
export type PostMutationResponse = z.infer<typeof postMutationResponseSchema>;

export const postDeleteResponseSchema = z.object({
  postId: z.string(),
  posts: z.array(postSchema).optional(),
});
export type PostDeleteResponse = z.infer<typeof postDeleteResponseSchema>;
