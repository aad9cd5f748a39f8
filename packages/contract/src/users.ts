import { z } from 'zod';

export const USERNAME_PATTERN = /^[A-Za-z0-9_]{3,30}$/;
export const USERNAME_RULE = 'Username must be 3 to 30 letters, digits or underscores.';
export const NAME_MAX = 50;
export const BIO_MAX = 300;
export const PASSWORD_MIN = 8;
export const PASSWORD_MAX = 128;

export const usernameSchema = z.string().trim().regex(USERNAME_PATTERN, USERNAME_RULE);

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
});
export type User = z.infer<typeof userSchema>;
