import { z } from 'zod';

// Tags and mentions as posts and comments carry them; finding them in text: entityRules.ts.
export const tagEntitySchema = z.object({
  type: z.literal('tag'),
  tag: z.string(),
  start: z.number().int(),
  end: z.number().int(),
});
export const mentionEntitySchema = z.object({
  type: z.literal('mention'),
  username: z.string(),
  userId: z.string(),
  start: z.number().int(),
  end: z.number().int(),
});
export const entitySchema = z.discriminatedUnion('type', [tagEntitySchema, mentionEntitySchema]);
export type TagEntity = z.infer<typeof tagEntitySchema>;
export type MentionEntity = z.infer<typeof mentionEntitySchema>;
export type Entity = z.infer<typeof entitySchema>;
