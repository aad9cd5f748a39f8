// Plain values only (no zod): clients import them without loading the schemas.

/**
 * A member's own account: password change, deleting the account, exporting their data, privacy.
 * POST /api/auth/password, DELETE /api/users/me, GET /api/users/me/export,
 * GET and PATCH /api/account/privacy.
 */
export const AccountErrors = {
  wrongPassword: 'Your current password is not correct.',
  samePassword: 'Your new password must differ from the current one.',
  wrongUsername: 'Type your username exactly to confirm.',
  sharedGuest:
    'The guest account is shared: its password cannot be changed and it cannot be deleted.',
  exportTooOften: 'You can download your data 3 times an hour. Please try again later.',
  privacyEmpty: 'Send publicProfile, noindex or both.',
  privacyNotBoolean: (field: 'publicProfile' | 'noindex') => `${field} must be true or false.`,
  preferencesEmpty: 'Send alwaysShowSensitiveMedia.',
  preferenceNotBoolean: (field: 'alwaysShowSensitiveMedia') => `${field} must be true or false.`,
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
  'pins.json',
  'reposts.json',
  'poll-votes.json',
  'follows.json',
  'notifications.json',
] as const;

/** The name an export is downloaded as: perch-<username>-<YYYY-MM-DD>.zip (UTC date). */
export const exportFileName = (username: string, at: Date): string =>
  `perch-${username}-${at.toISOString().slice(0, 10)}.zip`;
