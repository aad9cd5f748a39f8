import { z } from 'zod';
import { countCharacters } from './text';
import { pageQuerySchema } from './pagination';
import { mediaUrlSchema } from './posts';
import { recordIdFields, userStubSchema } from './records';
import {
  BIO_MAX,
  NAME_MAX,
  RESERVED_USERNAMES,
  USERNAME_PATTERN,
  USERNAME_RESERVED,
  USERNAME_RULE,
} from './userRules';

export const usernameSchema = z
  .string()
  .trim()
  .regex(USERNAME_PATTERN, USERNAME_RULE)
  .refine((name) => !RESERVED_USERNAMES.includes(name.toLowerCase()), USERNAME_RESERVED);

export const nameSchema = (label: string) =>
  z
    .string({ error: `${label} is required.` })
    .trim()
    .min(1, `${label} is required.`)
    .max(NAME_MAX, `${label} must be at most ${NAME_MAX} characters.`);

/**
 * A member as the API shows them to anyone. Email appears only on the viewer's own record.
 *
 * `followers`, `following` and `bookmarks` are the original API's arrays, bounded (all left out
 * with `Prefer: return=minimal`; the counts are always the totals):
 * - the viewer's own record (login, signup, /auth/me, profile edit, follow's `user`): `following`
 *   complete (at most FOLLOWING_MAX), `followers` the first PROFILE_RELATIONS_MAX, `bookmarks` the
 *   ids of the OWN_BOOKMARK_IDS_MAX newest bookmarks;
 * - a single profile (GET /users/{username}, follow's `followUser`): `followers` and `following`,
 *   the first PROFILE_RELATIONS_MAX each, in join order, with the viewer always listed first in
 *   `followers` when they follow the member;
 * - lists (search, who-to-follow): at most the viewer in each (in `followers` when the viewer
 *   follows them, in `following` when they follow the viewer).
 */
export const userSchema = z.object({
  ...recordIdFields,
  username: z.string(),
  firstName: z.string(),
  lastName: z.string(),
  email: z.string().optional(),
  bio: z.string(),
  avatarURL: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
  followersCount: z.number().int(),
  followingCount: z.number().int(),
  postsCount: z.number().int(),
  /** Present when the request has a viewer: whether the viewer follows this member. */
  followedByViewer: z.boolean().optional(),
  /**
   * On a single profile with a viewer (see safety.ts): the viewer blocked / muted this member. A
   * profile the viewer blocked still answers, so it can be unblocked; one that blocked the viewer
   * answers 404.
   */
  viewerBlocks: z.boolean().optional(),
  viewerMutes: z.boolean().optional(),
  followers: z.array(userStubSchema).optional(),
  following: z.array(userStubSchema).optional(),
  bookmarks: z.array(z.string()).optional(),
});
export type User = z.infer<typeof userSchema>;

export const userResponseSchema = z.object({ user: userSchema });
export type UserResponse = z.infer<typeof userResponseSchema>;

export const userPageSchema = z.object({
  users: z.array(userSchema),
  nextCursor: z.string().nullable(),
});
export type UserPage = z.infer<typeof userPageSchema>;

export const usernameParamsSchema = z.object({ username: z.string().min(1).max(64) });
export const userIdParamsSchema = z.object({ userId: z.string().min(1).max(64) });

/**
 * Profile edit, sent as {userData}. Only these fields change; a username that differs from the
 * member's own is refused, anything else sent along is ignored.
 */
export const userEditBodySchema = z.object({
  userData: z.object({
    firstName: nameSchema('First name'),
    lastName: nameSchema('Last name'),
    bio: z
      .string({ error: 'Bio must be text.' })
      .refine(
        (bio) => countCharacters(bio) <= BIO_MAX,
        `Bio must be at most ${BIO_MAX} characters.`,
      )
      .optional(),
    avatarURL: mediaUrlSchema.optional(),
    username: z.string().optional(),
  }),
});
export type UserEditBody = z.input<typeof userEditBodySchema>;

/** Answer of follow and unfollow: the viewer and the other member, both as they are now. */
export const followResponseSchema = z.object({ user: userSchema, followUser: userSchema });
export type FollowResponse = z.infer<typeof followResponseSchema>;

export const userSearchQuerySchema = pageQuerySchema.extend({
  q: z.string().max(100, 'Search text must be at most 100 characters.').optional(),
});
export type UserSearchQuery = z.infer<typeof userSearchQuerySchema>;
