import { z } from 'zod';
import { PASSWORD_MISMATCH } from './auth';
import { PASSWORD_MAX, PASSWORD_MIN } from './users';

/**
 * A member's own account: password change, deleting the account, exporting their data.
 * POST /api/auth/password, DELETE /api/users/me, GET /api/users/me/export.
 */
export const AccountErrors = {
  wrongPassword: 'Your current password is not correct.',
  samePassword: 'Your new password must differ from the current one.',
  wrongUsername: 'Type your username exactly to confirm.',
  sharedGuest:
    'The guest account is shared: its password cannot be changed and it cannot be deleted.',
  exportTooOften: 'You can download your data 3 times an hour. Please try again later.',
} as const;

/** Exports a member may start in an hour. */
export const EXPORTS_PER_HOUR = 3;

/** The files of an export (GET /api/users/me/export), beside its images under `media/`. */
export const EXPORT_FILES = [
  'profile.json',
  'posts.json',
  'comments.json',
  'likes.json',
  'bookmarks.json',
  'follows.json',
  'notifications.json',
] as const;

/** The name an export is downloaded as: perch-<username>-<YYYY-MM-DD>.zip (UTC date). */
export const exportFileName = (username: string, at: Date): string =>
  `perch-${username}-${at.toISOString().slice(0, 10)}.zip`;

const newPasswordSchema = z
  .string({ error: 'New password is required.' })
  .min(PASSWORD_MIN, `Password must be at least ${PASSWORD_MIN} characters.`)
  .max(PASSWORD_MAX, `Password must be at most ${PASSWORD_MAX} characters.`);

/** The new password follows the signup rules; on success every other session ends. */
export const passwordChangeBodySchema = z
  .object({
    currentPassword: z
      .string({ error: 'Current password is required.' })
      .min(1, 'Current password is required.')
      .max(PASSWORD_MAX, AccountErrors.wrongPassword),
    newPassword: newPasswordSchema,
    confirmPassword: z.string({ error: 'Confirm password is required.' }),
  })
  .refine((body) => body.newPassword === body.confirmPassword, {
    message: PASSWORD_MISMATCH,
    path: ['confirmPassword'],
  });
export type PasswordChangeBody = z.input<typeof passwordChangeBodySchema>;

/** Deleting the account takes the password and the username typed out (any case). */
export const accountDeleteBodySchema = z.object({
  password: z
    .string({ error: 'Password is required.' })
    .min(1, 'Password is required.')
    .max(PASSWORD_MAX, AccountErrors.wrongPassword),
  username: z.string({ error: AccountErrors.wrongUsername }).max(100, AccountErrors.wrongUsername),
});
export type AccountDeleteBody = z.input<typeof accountDeleteBodySchema>;
