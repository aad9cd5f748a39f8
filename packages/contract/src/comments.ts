import { z } from 'zod';
import { countCharacters } from './text';
import { nextCursorSchema } from './pagination';
import { commentSchema } from './comment';
import { postSchema } from './posts';

export const COMMENT_MAX = 1000;

export const commentBodySchema = z.object({
  commentData: z.object({
    text: z
      .string({ error: 'Comment text is required.' })
      .refine((text) => text.trim() !== '', { message: 'A comment cannot be empty.' })
      .refine((text) => countCharacters(text) <= COMMENT_MAX, {
        message: `A comment can be at most ${COMMENT_MAX} characters.`,
      }),
  }),
});
export type CommentBody = z.input<typeof commentBodySchema>;

export const commentParamsSchema = z.object({
  postId: z.string().min(1).max(64),
  commentId: z.string().min(1).max(64),
});

/** Comments of a post, oldest first. */
export const commentPageSchema = z.object({
  comments: z.array(commentSchema),
  nextCursor: nextCursorSchema,
});
export type CommentPage = z.infer<typeof commentPageSchema>;

/** Answer of add/edit: the comment and its post (for the new count), plus a posts page unless minimal. */
export const commentMutationResponseSchema = z.object({
  comment: commentSchema,
  post: postSchema,
  posts: z.array(postSchema).optional(),
});
export type CommentMutationResponse = z.infer<typeof commentMutationResponseSchema>;

export const commentDeleteResponseSchema = z.object({
  commentId: z.string(),
  post: postSchema,
  posts: z.array(postSchema).optional(),
});
export type CommentDeleteResponse = z.infer<typeof commentDeleteResponseSchema>;

/** Answer of a vote: the comment, plus the first page of the post's comments unless minimal. */
export const commentVoteResponseSchema = z.object({
  comment: commentSchema,
  comments: z.array(commentSchema).optional(),
});
export type CommentVoteResponse = z.infer<typeof commentVoteResponseSchema>;
