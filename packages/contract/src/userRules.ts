// Plain values only (no zod): clients import them without loading the schemas.

export const USERNAME_PATTERN = /^[A-Za-z0-9_]{3,30}$/;
export const USERNAME_RULE = 'Username must be 3 to 30 letters, digits or underscores.';
export const NAME_MAX = 50;
export const BIO_MAX = 300;
export const PASSWORD_MIN = 8;
export const PASSWORD_MAX = 128;

/** Names that are paths under /api/users and so cannot be profile names. */
export const RESERVED_USERNAMES = ['bookmark', 'suggestions', 'edit', 'follow', 'unfollow', 'me'];
export const USERNAME_RESERVED = 'This username is reserved.';

/** How many members one member may follow: the viewer's own `following` is always complete. */
export const FOLLOWING_MAX = 5000;
export const FOLLOWING_LIMIT_REACHED = `You can follow at most ${FOLLOWING_MAX.toLocaleString('en-US')} members.`;

/** How many followers (and followees) a single profile answer lists; the counts hold the totals. */
export const PROFILE_RELATIONS_MAX = 500;

/** How many bookmarked post ids the viewer's own record lists, newest bookmark first. */
export const OWN_BOOKMARK_IDS_MAX = 1000;
