import type { mastodon, User, UserStub } from '@perch/contract';
import escapeHtml from 'escape-html';
import { absolute, profileUrl, type Links } from './links';

/** What a member without a picture shows: Perch's app icon, as Mastodon apps need an image. */
export const MISSING_AVATAR = '/icons/icon-192.png';
export const MISSING_HEADER = '/icons/header-missing.png';

/** A bio as HTML: escaped, paragraphs on blank lines, line breaks kept. */
export function noteHtml(bio: string): string {
  const text = bio.trim();
  if (text === '') return '';
  return text
    .split(/\n{2,}/)
    .map((paragraph) => `<p>${escapeHtml(paragraph).replace(/\n/g, '<br />')}</p>`)
    .join('');
}

export const displayNameOf = (user: Pick<UserStub, 'firstName' | 'lastName' | 'username'>) =>
  `${user.firstName} ${user.lastName}`.trim() || user.username;

/** A Perch member as Mastodon's Account. */
export function toAccount(
  user: User,
  links: Links,
  extra: { lastStatusAt?: string | null } = {},
): mastodon.Account {
  const avatar = absolute(links, user.avatarURL ?? MISSING_AVATAR);
  const header = absolute(links, MISSING_HEADER);
  const url = profileUrl(links, user.username);
  return {
    id: user._id,
    username: user.username,
    acct: user.username,
    url,
    uri: url,
    display_name: displayNameOf(user),
    note: noteHtml(user.bio),
    avatar,
    avatar_static: avatar,
    header,
    header_static: header,
    locked: false,
    fields: [],
    emojis: [],
    bot: false,
    group: false,
    discoverable: true,
    indexable: true,
    noindex: false,
    created_at: user.createdAt,
    last_status_at: extra.lastStatusAt ?? null,
    statuses_count: user.postsCount,
    followers_count: user.followersCount,
    following_count: user.followingCount,
    hide_collections: false,
  };
}

/** The member's own Account, with what only they read (`source`): the bio as they wrote it. */
export function toCredentialAccount(
  user: User,
  links: Links,
  extra: { lastStatusAt?: string | null } = {},
): mastodon.CredentialAccount {
  const account = toAccount(user, links, extra);
  return {
    ...account,
    source: {
      note: user.bio,
      fields: [],
      privacy: 'public',
      sensitive: false,
      language: null,
      follow_requests_count: 0,
      hide_collections: account.hide_collections,
      discoverable: account.discoverable,
      indexable: account.indexable,
      attribution_domains: [],
    },
  };
}

/** A post's time as Mastodon's `last_status_at` (a date, YYYY-MM-DD). */
export const statusDateOf = (createdAtMs: number | null): string | null =>
  createdAtMs === null ? null : new Date(createdAtMs).toISOString().slice(0, 10);
