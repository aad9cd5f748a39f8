import { z } from 'zod';

/** Mastodon's Error entity: what every failed call of its client API answers. */
export const errorSchema = z.object({
  error: z.string(),
  error_description: z.string().optional(),
});
export type Error = z.infer<typeof errorSchema>;

export const errorResponseSchemas = {
  '4xx': errorSchema.describe('Refused: `error` says why.'),
  '5xx': errorSchema.describe('The server could not answer.'),
} as const;
