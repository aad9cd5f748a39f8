// Plain values only (no zod): clients import them without loading the schemas.

import { MEDIA_URL_RULE } from './postRules';

/** Largest upload accepted, in bytes. */
export const MEDIA_MAX_BYTES = 10 * 1024 * 1024;
/** Largest picture accepted (width × height), checked from the header before decoding. */
export const MEDIA_MAX_PIXELS = 40_000_000;
/** An animation may not hold more pixels than this over all its frames. */
export const MEDIA_MAX_ANIMATION_PIXELS = 100_000_000;
/** Post images are scaled down (never up) so that their long side is at most this. */
export const MEDIA_POST_MAX_SIDE = 2048;
/** Avatars are cropped to a square of this side. */
export const MEDIA_AVATAR_SIDE = 400;
/** Thumbnails fit in a square of this side. */
export const MEDIA_THUMBNAIL_SIDE = 320;

/** Kinds of images accepted, recognised by their content; every upload is stored as WebP. */
export const MEDIA_ACCEPTED_TYPES = ['image/jpeg', 'image/png', 'image/webp', 'image/gif'] as const;
export const MEDIA_STORED_TYPE = 'image/webp';

export const MEDIA_PURPOSES = ['post', 'avatar'] as const;
export const MediaMessages = {
  missingFile: 'Choose an image to upload (a multipart field named file).',
  notMultipart: 'Send the image as multipart/form-data, in a field named file.',
  oneFile: 'Send one image at a time, in a field named file.',
  tooManyFields: 'Send only the image (field file) and its purpose.',
  malformed: 'The upload could not be read as multipart/form-data.',
  unsupportedType: 'Only JPEG, PNG, WebP and GIF images can be uploaded.',
  tooLarge: `Images can be at most ${MEDIA_MAX_BYTES / (1024 * 1024)} MB.`,
  tooManyPixels: `Images can be at most ${MEDIA_MAX_PIXELS / 1_000_000} megapixels.`,
  animationTooLarge: `Animations can be at most ${MEDIA_MAX_ANIMATION_PIXELS / 1_000_000} megapixels over all their frames.`,
  unreadable: 'The image could not be read; it may be damaged or incomplete.',
  notUploaded: MEDIA_URL_RULE,
} as const;
