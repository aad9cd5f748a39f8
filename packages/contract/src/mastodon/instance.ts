import { z } from 'zod';
import { accountSchema } from './account';

/** Mastodon's Rule: one of the server's rules. */
export const ruleSchema = z.object({
  id: z.string(),
  text: z.string(),
  hint: z.string(),
  translations: z.record(z.string(), z.object({ text: z.string(), hint: z.string() })).optional(),
});
export type Rule = z.infer<typeof ruleSchema>;

const pollLimitsSchema = z.object({
  max_options: z.number().int(),
  max_characters_per_option: z.number().int(),
  /** Seconds. */
  min_expiration: z.number().int(),
  max_expiration: z.number().int(),
});

const mediaLimitsSchema = z.object({
  supported_mime_types: z.array(z.string()),
  description_limit: z.number().int().optional(),
  /** Bytes. */
  image_size_limit: z.number().int(),
  /** Pixels (width × height). */
  image_matrix_limit: z.number().int(),
  video_size_limit: z.number().int(),
  video_frame_rate_limit: z.number().int(),
  video_matrix_limit: z.number().int(),
});

const statusLimitsSchema = z.object({
  max_characters: z.number().int(),
  max_media_attachments: z.number().int(),
  characters_reserved_per_url: z.number().int(),
});

const feedAccessSchema = z.enum(['public', 'authenticated', 'disabled']);
const feedAccessPairSchema = z.object({ local: feedAccessSchema, remote: feedAccessSchema });

/** Mastodon's Instance (v2): the server, its limits and how to join it. */
export const instanceSchema = z.object({
  domain: z.string(),
  title: z.string(),
  version: z.string(),
  source_url: z.string(),
  description: z.string(),
  usage: z.object({ users: z.object({ active_month: z.number().int() }) }),
  thumbnail: z.object({
    url: z.string(),
    description: z.string().optional(),
    blurhash: z.string().optional(),
    versions: z.record(z.string(), z.string()).optional(),
  }),
  icon: z.array(z.object({ src: z.string(), size: z.string() })),
  languages: z.array(z.string()),
  configuration: z.object({
    urls: z.object({
      streaming: z.string(),
      status: z.string().nullable().optional(),
      about: z.string().optional(),
      privacy_policy: z.string().nullable().optional(),
      terms_of_service: z.string().nullable().optional(),
    }),
    vapid: z.object({ public_key: z.string() }),
    accounts: z.object({
      max_featured_tags: z.number().int(),
      max_pinned_statuses: z.number().int(),
      max_display_name_length: z.number().int().optional(),
      max_note_length: z.number().int().optional(),
      max_profile_fields: z.number().int().optional(),
    }),
    statuses: statusLimitsSchema,
    media_attachments: mediaLimitsSchema,
    polls: pollLimitsSchema,
    translation: z.object({ enabled: z.boolean() }),
    timelines_access: z
      .object({
        live_feeds: feedAccessPairSchema,
        hashtag_feeds: feedAccessPairSchema,
        trending_link_feeds: feedAccessPairSchema,
      })
      .optional(),
    limited_federation: z.boolean().optional(),
  }),
  registrations: z.object({
    enabled: z.boolean(),
    approval_required: z.boolean(),
    message: z.string().nullable(),
    min_age: z.number().int().nullable().optional(),
    reason_required: z.boolean().nullable().optional(),
    url: z.string().nullable().optional(),
  }),
  api_versions: z.object({ mastodon: z.number().int() }),
  contact: z.object({ email: z.string(), account: accountSchema.nullable() }),
  rules: z.array(ruleSchema),
});
export type Instance = z.infer<typeof instanceSchema>;

/** Mastodon's older Instance (GET /api/v1/instance), which older apps still read. */
export const v1InstanceSchema = z.object({
  uri: z.string(),
  title: z.string(),
  short_description: z.string(),
  description: z.string(),
  email: z.string(),
  version: z.string(),
  urls: z.object({ streaming_api: z.string() }),
  stats: z.object({
    user_count: z.number().int(),
    status_count: z.number().int(),
    domain_count: z.number().int(),
  }),
  thumbnail: z.string().nullable(),
  languages: z.array(z.string()),
  registrations: z.boolean(),
  approval_required: z.boolean(),
  invites_enabled: z.boolean(),
  configuration: z.object({
    accounts: z.object({ max_featured_tags: z.number().int() }),
    statuses: statusLimitsSchema,
    media_attachments: mediaLimitsSchema.omit({ description_limit: true }),
    polls: pollLimitsSchema,
  }),
  contact_account: accountSchema.nullable(),
  rules: z.array(ruleSchema),
});
export type V1Instance = z.infer<typeof v1InstanceSchema>;

/** Where a server's NodeInfo documents are (/.well-known/nodeinfo). */
export const nodeInfoLinksSchema = z.object({
  links: z.array(z.object({ rel: z.string(), href: z.string() })),
});

/** NodeInfo 2.0 and 2.1 (nodeinfo.diaspora.software/schema): the software and its usage. */
export const nodeInfoSchema = z.object({
  version: z.enum(['2.0', '2.1']),
  software: z.object({
    name: z.string().regex(/^[a-z0-9-]+$/),
    version: z.string(),
    repository: z.string().optional(),
    homepage: z.string().optional(),
  }),
  protocols: z.array(z.string()),
  services: z.object({ inbound: z.array(z.string()), outbound: z.array(z.string()) }),
  openRegistrations: z.boolean(),
  usage: z.object({
    users: z.object({
      total: z.number().int().min(0).optional(),
      activeHalfyear: z.number().int().min(0).optional(),
      activeMonth: z.number().int().min(0).optional(),
    }),
    localPosts: z.number().int().min(0).optional(),
    localComments: z.number().int().min(0).optional(),
  }),
  metadata: z.record(z.string(), z.unknown()),
});
export type NodeInfo = z.infer<typeof nodeInfoSchema>;
