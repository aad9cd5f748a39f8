import {
  BIO_MAX,
  MEDIA_ACCEPTED_TYPES,
  MEDIA_MAX_BYTES,
  MEDIA_MAX_PIXELS,
  MEDIA_ALT_MAX,
  NAME_MAX,
  PINNED_POSTS_MAX,
  POLL_EXPIRES_MAX,
  POLL_EXPIRES_MIN,
  POLL_OPTION_MAX,
  POLL_OPTIONS_MAX,
  POST_CONTENT_MAX,
  POST_MEDIA_MAX,
  type mastodon,
} from '@perch/contract';
import serverPackage from '../../package.json';
import { absolute, type Links } from './entities/links';
import type { InstanceCounts } from '../modules/instance/instance.service';

/** Perch's own version, as NodeInfo and the instance's `version` name it. */
export const PERCH_VERSION = serverPackage.version;

/**
 * Apps read `version` to tell which of Mastodon's methods a server has: Perch names the Mastodon
 * release whose client API it follows, then itself, as other compatible servers do.
 */
export const MASTODON_VERSION = `4.3.0 (compatible; Perch ${PERCH_VERSION})`;
/** The `api_versions.mastodon` of that release. */
export const MASTODON_API_VERSION = 2;

const TITLE = 'Perch';
const DESCRIPTION = 'A self-hosted community on Perch.';

/** Perch's limits, as Mastodon's configuration names them: read from the rules Perch enforces. */
export const limits = {
  statuses: {
    max_characters: POST_CONTENT_MAX,
    max_media_attachments: POST_MEDIA_MAX,
    // Perch counts every character of a link; Mastodon's apps count a link as this many.
    characters_reserved_per_url: 23,
  },
  media_attachments: {
    supported_mime_types: [...MEDIA_ACCEPTED_TYPES],
    description_limit: MEDIA_ALT_MAX,
    image_size_limit: MEDIA_MAX_BYTES,
    image_matrix_limit: MEDIA_MAX_PIXELS,
    // Perch takes images only.
    video_size_limit: 0,
    video_frame_rate_limit: 0,
    video_matrix_limit: 0,
  },
  polls: {
    max_options: POLL_OPTIONS_MAX,
    max_characters_per_option: POLL_OPTION_MAX,
    min_expiration: POLL_EXPIRES_MIN,
    max_expiration: POLL_EXPIRES_MAX,
  },
};

const hostOf = (links: Links) => new URL(links.origin).host;
const streamingOf = (links: Links) => links.origin.replace(/^http/, 'ws');

/** GET /api/v2/instance. */
export function instanceV2(links: Links, counts: InstanceCounts): mastodon.Instance {
  return {
    domain: hostOf(links),
    title: TITLE,
    version: MASTODON_VERSION,
    // Perch names no public repository: the instance itself is where its software is found.
    source_url: links.origin,
    description: DESCRIPTION,
    usage: { users: { active_month: counts.activeMonth } },
    thumbnail: { url: absolute(links, '/icons/icon-512.png') },
    icon: [
      { src: absolute(links, '/icons/icon-192.png'), size: '192x192' },
      { src: absolute(links, '/icons/icon-512.png'), size: '512x512' },
    ],
    languages: ['en'],
    configuration: {
      urls: { streaming: streamingOf(links), status: null, about: absolute(links, '/') },
      vapid: { public_key: '' },
      accounts: {
        max_featured_tags: 0,
        max_pinned_statuses: PINNED_POSTS_MAX,
        // Perch keeps a first and a last name, each up to NAME_MAX (see update_credentials).
        max_display_name_length: NAME_MAX * 2 + 1,
        max_note_length: BIO_MAX,
        max_profile_fields: 0,
      },
      ...limits,
      translation: { enabled: false },
      limited_federation: true,
    },
    registrations: { enabled: true, approval_required: false, message: null, url: null },
    api_versions: { mastodon: MASTODON_API_VERSION },
    contact: { email: '', account: null },
    rules: [],
  };
}

/** GET /api/v1/instance: the same facts in Mastodon's older shape. */
export function instanceV1(links: Links, counts: InstanceCounts): mastodon.V1Instance {
  const { description_limit: _omitted, ...media } = limits.media_attachments;
  return {
    uri: hostOf(links),
    title: TITLE,
    short_description: DESCRIPTION,
    description: DESCRIPTION,
    email: '',
    version: MASTODON_VERSION,
    urls: { streaming_api: streamingOf(links) },
    stats: { user_count: counts.members, status_count: counts.posts, domain_count: 0 },
    thumbnail: absolute(links, '/icons/icon-512.png'),
    languages: ['en'],
    registrations: true,
    approval_required: false,
    invites_enabled: false,
    configuration: {
      accounts: { max_featured_tags: 0 },
      statuses: limits.statuses,
      media_attachments: media,
      polls: limits.polls,
    },
    contact_account: null,
    rules: [],
  };
}
