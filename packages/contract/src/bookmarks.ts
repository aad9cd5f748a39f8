import { z } from 'zod';
import { nextCursorSchema } from './pagination';
import { postSchema } from './posts';

/** The viewer's bookmarked posts, newest bookmark first. */
export const bookmarkPageSchema = z.object({
  bookmarks: z.array(postSchema),
  nextCursor: nextCursorSchema,
});
export type BookmarkPage = z.infer<typeof bookmarkPageSchema>;

/**
 * Answer of adding or removing a bookmark: the post with its new flag, plus (unless
 * `Prefer: return=minimal`) the first page of the viewer's bookmarks.
 */
export const bookmarkMutationResponseSchema = z.object({
  post: postSchema,
  bookmarks: z.array(postSchema).optional(),
});
export type BookmarkMutationResponse = z.infer<typeof bookmarkMutationResponseSchema>;
