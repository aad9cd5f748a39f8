import { z } from 'zod';
import { MEDIA_PURPOSES } from './mediaRules';

export const mediaPurposeSchema = z.enum(MEDIA_PURPOSES, {
  error: 'purpose must be "post" or "avatar".',
});
export type MediaPurpose = z.infer<typeof mediaPurposeSchema>;

/** Answer of POST /api/media (201): where the stored image and its thumbnail are served. */
export const mediaUploadResponseSchema = z.object({
  url: z.string(),
  thumbnailURL: z.string(),
  width: z.number().int(),
  height: z.number().int(),
  /** A blurred likeness of the image (https://blurha.sh), drawn while it loads. */
  blurhash: z.string(),
  mimeType: z.string(),
  /** Bytes of the stored image. */
  size: z.number().int(),
});
export type MediaUploadResponse = z.infer<typeof mediaUploadResponseSchema>;
