import { z } from 'zod';
import { countCharacters } from './text';
import { MEDIA_ALT_MAX, MEDIA_URL_PATTERN, POST_MEDIA_MAX, PostMediaMessages } from './postRules';

/** One image a member puts in a post: an upload of theirs and its description. */
export const postMediaItemInputSchema = z.object({
  url: z
    .string({ error: PostMediaMessages.notUploaded })
    .max(300, PostMediaMessages.notUploaded)
    .regex(MEDIA_URL_PATTERN, PostMediaMessages.notUploaded),
  /** Spaces around it dropped; empty or null for none. */
  alt: z
    .string({ error: 'alt must be text.' })
    .refine((text) => countCharacters(text) <= MEDIA_ALT_MAX, {
      message: PostMediaMessages.altTooLong,
    })
    .nullable()
    .optional(),
});
export type PostMediaItemInput = z.infer<typeof postMediaItemInputSchema>;

/**
 * A post's images as sent, in the order they are shown; empty (or null) for none, so that a post
 * read without images may be sent back as it is.
 */
export const postMediaInputSchema = z
  .array(postMediaItemInputSchema, { error: 'media must be a list of images.' })
  .max(POST_MEDIA_MAX, PostMediaMessages.tooMany)
  .refine((items) => new Set(items.map((item) => item.url)).size === items.length, {
    message: PostMediaMessages.duplicate,
  });

/**
 * One image of a post as answered: its description (null for none), its size and its blurhash
 * (null where the upload recorded none, as for images uploaded before either was kept).
 */
export const postMediaSchema = z.object({
  url: z.string(),
  alt: z.string().nullable(),
  width: z.number().int().nullable(),
  height: z.number().int().nullable(),
  blurhash: z.string().nullable(),
});
export type PostMedia = z.infer<typeof postMediaSchema>;
