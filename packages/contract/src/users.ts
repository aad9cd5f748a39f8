import { z } from 'zod';
import { countCharacters } from './text';
import { pageQuerySchema } from './pagination';
import { mediaUrlSchema } from './posts';

export const USERNAME_PATTERN = /^[A-Za-z0-9_]{3,30}$/;
export const USERNAME_RULE = 'Username must be 3 to 30 letters, digits or underscores.';
export const NAME_MAX = 50;
export const BIO_MAX = 300;
export const PASSWORD_MIN = 8;
export const PASSWORD_MAX = 128;

/** Names that are paths under /api/users and so cannot be profile names. */
export const RESERVED_USERNAMES = ['bookmark', 'suggestions', 'edit', 'follow', 'unfollow', 'me'];
export const USERNAME_RESERVED = 'This username is reserved.';

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

/** A member as the API shows them to anyone. Email appears only on the viewer's own record. */
export const userSchema = z.object({
  _id: z.string(),
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
  /** Present when the request carries a token: whether the viewer follows this member. */
  followedByViewer: z.boolean().optional(),
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
