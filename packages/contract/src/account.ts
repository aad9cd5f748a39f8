import { z } from 'zod';
import { AccountErrors } from './accountRules';
import { PASSWORD_MISMATCH } from './authRules';
import { PASSWORD_MAX, PASSWORD_MIN } from './userRules';

// A member's own account: the bodies it sends. Its messages and export files: accountRules.ts.

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

/**
 * A member's privacy settings (GET /api/account/privacy). They govern Perch's public pages,
 * feeds and sitemap; the read API stays open as the product's specification has it.
 * - publicProfile: people who are not signed in may see the member's profile and posts (default
 *   true);
 * - noindex: the member's public pages ask search engines not to index them (default false).
 */
export const privacySettingsSchema = z.object({
  publicProfile: z.boolean(),
  noindex: z.boolean(),
});
export type PrivacySettings = z.infer<typeof privacySettingsSchema>;

/** PATCH /api/account/privacy: either setting or both; nothing else. */
export const privacyUpdateBodySchema = z
  .strictObject({
    publicProfile: z
      .boolean({ error: AccountErrors.privacyNotBoolean('publicProfile') })
      .optional(),
    noindex: z.boolean({ error: AccountErrors.privacyNotBoolean('noindex') }).optional(),
  })
  .refine((body) => body.publicProfile !== undefined || body.noindex !== undefined, {
    message: AccountErrors.privacyEmpty,
  });
export type PrivacyUpdateBody = z.input<typeof privacyUpdateBodySchema>;

/**
 * A member's reading preferences (GET /api/account/preferences), the same on every device:
 * - alwaysShowSensitiveMedia: images marked sensitive are shown at once rather than blurred
 *   (default false). Content warnings still hide their posts.
 */
export const preferencesSchema = z.object({
  alwaysShowSensitiveMedia: z.boolean(),
});
export type Preferences = z.infer<typeof preferencesSchema>;

/** PATCH /api/account/preferences: the preferences to change; nothing else. */
export const preferencesUpdateBodySchema = z
  .strictObject({
    alwaysShowSensitiveMedia: z
      .boolean({ error: AccountErrors.preferenceNotBoolean('alwaysShowSensitiveMedia') })
      .optional(),
  })
  .refine((body) => body.alwaysShowSensitiveMedia !== undefined, {
    message: AccountErrors.preferencesEmpty,
  });
export type PreferencesUpdateBody = z.input<typeof preferencesUpdateBodySchema>;
