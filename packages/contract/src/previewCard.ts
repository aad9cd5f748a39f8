import { z } from 'zod';

/**
 * A post's preview card: what the page its text links to first says of itself (OpenGraph, Twitter
 * card tags, oEmbed, or its title), fetched after the post is written. `imageURL` is a copy of the
 * page's image stored by this server (never the page's own address); its size is given when known.
 */
export const previewCardSchema = z.object({
  /** The link as the post's text has it (normalised as a URL). */
  url: z.string(),
  title: z.string(),
  description: z.string().nullable(),
  siteName: z.string().nullable(),
  imageURL: z.string().nullable(),
  imageWidth: z.number().int().optional(),
  imageHeight: z.number().int().optional(),
});
export type PreviewCard = z.infer<typeof previewCardSchema>;
