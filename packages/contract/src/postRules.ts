// Plain values only (no zod): clients import them without loading the schemas.

export const POST_CONTENT_MAX = 2000;

/** Media this server issued: uploads live under /media/. */
export const MEDIA_URL_PATTERN = /^\/media\/[A-Za-z0-9._/-]+$/;
export const MEDIA_URL_RULE = 'Images must be uploaded to Perch first.';

export const POST_EMPTY = 'A post needs some text or an image.';

/** The longest description (alt text) an image may have, in characters. */
export const MEDIA_ALT_MAX = 1500;
export const MEDIA_ALT_TOO_LONG = `An image description can be at most ${MEDIA_ALT_MAX.toLocaleString('en-US')} characters.`;

/** How many of a post's comments its answers embed as `comments`: the first page, oldest first. */
export const EMBEDDED_COMMENTS_MAX = 20;

/**
 * The longest content warning a post may carry, in characters. A warning hides the post's text
 * and images behind it until the reader asks to see them, and marks its images sensitive.
 */
export const CONTENT_WARNING_MAX = 200;
export const CONTENT_WARNING_TOO_LONG = `A content warning can be at most ${CONTENT_WARNING_MAX} characters.`;

/** How many of their own posts a member may pin to their profile (Mastodon's limit too). */
export const PINNED_POSTS_MAX = 5;

/** The most images one post may hold (an album), shown in the order the member gave. */
export const POST_MEDIA_MAX = 10;

/** Why a post's images were refused. */
export const PostMediaMessages = {
  tooMany: `A post can hold at most ${POST_MEDIA_MAX} images.`,
  notUploaded: MEDIA_URL_RULE,
  altTooLong: MEDIA_ALT_TOO_LONG,
  duplicate: 'Each image can appear only once in a post.',
  conflicting: 'Send the images either as media or as mediaURL, not both with different images.',
} as const;
