import { z } from 'zod';
import { accountSchema, customEmojiSchema } from './account';

/** An image's size as MediaAttachment's `meta` gives it ("640x480", width over height). */
const mediaSizeSchema = z.object({
  width: z.number().int(),
  height: z.number().int(),
  size: z.string(),
  aspect: z.number(),
});

/** Mastodon's MediaAttachment; Perch's are images. */
export const mediaAttachmentSchema = z.object({
  id: z.string(),
  type: z.enum(['unknown', 'image', 'gifv', 'video', 'audio']),
  url: z.string().nullable(),
  preview_url: z.string().nullable(),
  remote_url: z.string().nullable(),
  meta: z
    .object({
      original: mediaSizeSchema.optional(),
      small: mediaSizeSchema.optional(),
      focus: z.object({ x: z.number(), y: z.number() }).optional(),
    })
    .nullable(),
  description: z.string().nullable(),
  blurhash: z.string().nullable(),
});
export type MediaAttachment = z.infer<typeof mediaAttachmentSchema>;

export const pollSchema = z.object({
  id: z.string(),
  expires_at: z.string().nullable(),
  expired: z.boolean(),
  multiple: z.boolean(),
  votes_count: z.number().int(),
  voters_count: z.number().int().nullable(),
  options: z.array(z.object({ title: z.string(), votes_count: z.number().int().nullable() })),
  emojis: z.array(customEmojiSchema),
  voted: z.boolean().optional(),
  own_votes: z.array(z.number().int()).optional(),
});
export type Poll = z.infer<typeof pollSchema>;

export const previewCardSchema = z.object({
  url: z.string(),
  title: z.string(),
  description: z.string(),
  type: z.enum(['link', 'photo', 'video', 'rich']),
  authors: z.array(z.object({ name: z.string(), url: z.string(), account: z.null() })),
  author_name: z.string(),
  author_url: z.string(),
  provider_name: z.string(),
  provider_url: z.string(),
  html: z.string(),
  width: z.number().int(),
  height: z.number().int(),
  image: z.string().nullable(),
  image_description: z.string(),
  embed_url: z.string(),
  blurhash: z.string().nullable(),
});
export type PreviewCard = z.infer<typeof previewCardSchema>;

export const mentionSchema = z.object({
  id: z.string(),
  username: z.string(),
  url: z.string(),
  acct: z.string(),
});

export const statusTagSchema = z.object({ name: z.string(), url: z.string() });

/** Who may quote a status, and whether the viewer may. */
export const quoteApprovalSchema = z.object({
  automatic: z.array(z.enum(['public', 'followers', 'following', 'unsupported_policy'])),
  manual: z.array(z.enum(['public', 'followers', 'following', 'unsupported_policy'])),
  current_user: z.enum(['automatic', 'manual', 'denied', 'unknown']),
});

export const quoteStateSchema = z.enum([
  'pending',
  'accepted',
  'rejected',
  'revoked',
  'deleted',
  'unauthorized',
  'blocked_account',
  'blocked_domain',
  'muted_account',
]);

const statusFields = {
  id: z.string(),
  uri: z.string(),
  created_at: z.string(),
  account: accountSchema,
  content: z.string(),
  visibility: z.enum(['public', 'unlisted', 'private', 'direct']),
  sensitive: z.boolean(),
  spoiler_text: z.string(),
  media_attachments: z.array(mediaAttachmentSchema),
  application: z.object({ name: z.string(), website: z.string().nullable() }).optional(),
  mentions: z.array(mentionSchema),
  tags: z.array(statusTagSchema),
  emojis: z.array(customEmojiSchema),
  reblogs_count: z.number().int(),
  favourites_count: z.number().int(),
  quotes_count: z.number().int(),
  replies_count: z.number().int(),
  url: z.string().nullable(),
  in_reply_to_id: z.string().nullable(),
  in_reply_to_account_id: z.string().nullable(),
  poll: pollSchema.nullable(),
  card: previewCardSchema.nullable(),
  language: z.string().nullable(),
  text: z.string().nullable(),
  edited_at: z.string().nullable(),
  quote_approval: quoteApprovalSchema,
  favourited: z.boolean().optional(),
  reblogged: z.boolean().optional(),
  muted: z.boolean().optional(),
  bookmarked: z.boolean().optional(),
  pinned: z.boolean().optional(),
  filtered: z.array(z.unknown()).optional(),
};

/** A quote that names the quoted status only (inside a quoted status: quotes do not nest). */
export const shallowQuoteSchema = z.object({
  state: quoteStateSchema,
  quoted_status_id: z.string().nullable(),
});

/** A status shown inside another's quote. */
export const quotedStatusSchema = z.object({
  ...statusFields,
  reblog: z.null(),
  quote: shallowQuoteSchema.nullable(),
});

export const quoteSchema = z.object({
  state: quoteStateSchema,
  quoted_status: quotedStatusSchema.nullable(),
});

/** A status inside a reblog: a reblog of a reblog does not exist. */
export const rebloggedStatusSchema = z.object({
  ...statusFields,
  reblog: z.null(),
  quote: quoteSchema.nullable(),
});

/** Mastodon's Status entity (docs.joinmastodon.org/entities/Status). */
export const statusSchema = z.object({
  ...statusFields,
  reblog: rebloggedStatusSchema.nullable(),
  quote: quoteSchema.nullable(),
});
export type Status = z.infer<typeof statusSchema>;
export type QuotedStatus = z.infer<typeof quotedStatusSchema>;
export type RebloggedStatus = z.infer<typeof rebloggedStatusSchema>;

/** Mastodon's Context entity: the statuses above one in its thread, and those below it. */
export const contextSchema = z.object({
  ancestors: z.array(statusSchema),
  descendants: z.array(statusSchema),
});
export type Context = z.infer<typeof contextSchema>;

/** Mastodon's StatusSource: a status's text as written, for editing it. */
export const statusSourceSchema = z.object({
  id: z.string(),
  text: z.string(),
  spoiler_text: z.string(),
});
export type StatusSource = z.infer<typeof statusSourceSchema>;

/** Mastodon's StatusEdit: one version of a status. */
export const statusEditSchema = z.object({
  content: z.string(),
  spoiler_text: z.string(),
  sensitive: z.boolean(),
  created_at: z.string(),
  account: accountSchema,
  poll: z.object({ options: z.array(z.object({ title: z.string() })) }).optional(),
  media_attachments: z.array(mediaAttachmentSchema),
  emojis: z.array(customEmojiSchema),
});
export type StatusEdit = z.infer<typeof statusEditSchema>;
