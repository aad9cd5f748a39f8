import { z } from 'zod';
import { entitySchema } from './entities';
import { recordIdFields, userRefSchema } from './records';

/**
 * A comment. The author fields are null when the author's account no longer exists (shown as
 * 'Unknown'). `votes.upvotedBy`/`downvotedBy` hold at most the viewer; the counts hold the totals.
 */
export const commentSchema = z.object({
  ...recordIdFields,
  postId: z.string(),
  userId: z.string().nullable(),
  username: z.string().nullable(),
  firstName: z.string().nullable(),
  lastName: z.string().nullable(),
  profileAvatar: z.string().nullable(),
  avatarURL: z.string().nullable(),
  text: z.string(),
  /** Tags and mentions of `text`, with offsets (see entityRules.ts). */
  entities: z.array(entitySchema),
  votes: z.object({
    upvoteCount: z.number().int(),
    downvoteCount: z.number().int(),
    upvotedBy: z.array(userRefSchema),
    downvotedBy: z.array(userRefSchema),
  }),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type Comment = z.infer<typeof commentSchema>;
