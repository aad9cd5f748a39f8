import { z } from 'zod';

/**
 * Every record carries its id twice, as `_id` and `id`: the original API's records had both, and
 * clients key their lists by either.
 */
export const recordIdFields = { _id: z.string(), id: z.string() };

/** A member named inside another record (`likes.likedBy`, comment votes). */
export const userRefSchema = z.object({ ...recordIdFields, username: z.string() });
export type UserRef = z.infer<typeof userRefSchema>;

/** A member in a list of followers or following: enough to show and compare them. */
export const userStubSchema = z.object({
  ...recordIdFields,
  username: z.string(),
  firstName: z.string(),
  lastName: z.string(),
  avatarURL: z.string().nullable(),
});
export type UserStub = z.infer<typeof userStubSchema>;
