import { z } from 'zod';

/** Mastodon's CustomEmoji; Perch has none of its own, so lists of them are empty. */
export const customEmojiSchema = z.object({
  shortcode: z.string(),
  url: z.string(),
  static_url: z.string(),
  visible_in_picker: z.boolean(),
  category: z.string().nullable(),
});
export type CustomEmoji = z.infer<typeof customEmojiSchema>;

export const fieldSchema = z.object({
  name: z.string(),
  value: z.string(),
  verified_at: z.string().nullable(),
});
export type Field = z.infer<typeof fieldSchema>;

/** Mastodon's Account entity (docs.joinmastodon.org/entities/Account). */
export const accountSchema = z.object({
  id: z.string(),
  username: z.string(),
  /** `username` for a local member, `username@host` for a remote one. */
  acct: z.string(),
  url: z.string().nullable(),
  uri: z.string(),
  display_name: z.string(),
  /** The bio as HTML. */
  note: z.string(),
  avatar: z.string(),
  avatar_static: z.string(),
  header: z.string(),
  header_static: z.string(),
  locked: z.boolean(),
  fields: z.array(fieldSchema),
  emojis: z.array(customEmojiSchema),
  bot: z.boolean(),
  group: z.boolean(),
  discoverable: z.boolean().nullable(),
  indexable: z.boolean(),
  noindex: z.boolean().nullable().optional(),
  suspended: z.boolean().optional(),
  limited: z.boolean().optional(),
  created_at: z.string(),
  /** A date (YYYY-MM-DD), null when the member has not posted. */
  last_status_at: z.string().nullable(),
  statuses_count: z.number().int(),
  followers_count: z.number().int(),
  following_count: z.number().int(),
  hide_collections: z.boolean().nullable(),
  roles: z.array(z.object({ id: z.string(), name: z.string(), color: z.string() })).optional(),
});
export type Account = z.infer<typeof accountSchema>;

/** Mastodon's Relationship entity: the viewer's relations to one account. */
export const relationshipSchema = z.object({
  id: z.string(),
  following: z.boolean(),
  showing_reblogs: z.boolean(),
  notifying: z.boolean(),
  languages: z.array(z.string()).nullable(),
  followed_by: z.boolean(),
  blocking: z.boolean(),
  blocked_by: z.boolean(),
  muting: z.boolean(),
  muting_notifications: z.boolean(),
  requested: z.boolean(),
  requested_by: z.boolean(),
  domain_blocking: z.boolean(),
  endorsed: z.boolean(),
  note: z.string(),
});
export type Relationship = z.infer<typeof relationshipSchema>;

/** What only the account's owner reads of themselves (CredentialAccount's `source`). */
export const accountSourceSchema = z.object({
  /** The bio as the member wrote it, in plain text. */
  note: z.string(),
  fields: z.array(fieldSchema),
  privacy: z.enum(['public', 'unlisted', 'private', 'direct']),
  sensitive: z.boolean(),
  language: z.string().nullable(),
  follow_requests_count: z.number().int(),
  hide_collections: z.boolean().nullable().optional(),
  discoverable: z.boolean().nullable().optional(),
  indexable: z.boolean().optional(),
  attribution_domains: z.array(z.string()).optional(),
});

/** Mastodon's CredentialAccount: the Account verify_credentials and update_credentials answer. */
export const credentialAccountSchema = accountSchema.extend({ source: accountSourceSchema });
export type CredentialAccount = z.infer<typeof credentialAccountSchema>;

/** Mastodon's Preferences: the member's defaults for posting and reading, by key. */
export const preferencesSchema = z.object({
  'posting:default:visibility': z.enum(['public', 'unlisted', 'private', 'direct']),
  'posting:default:sensitive': z.boolean(),
  'posting:default:language': z.string().nullable(),
  'reading:expand:media': z.enum(['default', 'show_all', 'hide_all']),
  'reading:expand:spoilers': z.boolean(),
});
export type Preferences = z.infer<typeof preferencesSchema>;

/** The timelines whose reading position Mastodon's markers keep. */
export const MARKER_TIMELINES = ['home', 'notifications'] as const;
export type MarkerTimeline = (typeof MARKER_TIMELINES)[number];

/** Mastodon's Marker: where the member stopped reading a timeline. */
export const markerSchema = z.object({
  last_read_id: z.string(),
  /** Counts the saves, so that clients can tell a stale copy. */
  version: z.number().int(),
  updated_at: z.string(),
});
export type Marker = z.infer<typeof markerSchema>;

/** The markers asked for, by timeline; a timeline without one is left out. */
export const markersSchema = z.object({
  home: markerSchema.optional(),
  notifications: markerSchema.optional(),
});
export type Markers = z.infer<typeof markersSchema>;
