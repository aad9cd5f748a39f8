import type { Generated, Insertable, Selectable } from 'kysely';

/** Times are milliseconds since the epoch, stored as integers on both databases. */
export interface UsersTable {
  id: string;
  username: string;
  first_name: string;
  last_name: string;
  email: string;
  password_hash: string;
  bio: Generated<string>;
  avatar_url: string | null;
  followers_count: Generated<number>;
  following_count: Generated<number>;
  posts_count: Generated<number>;
  created_at: number;
  updated_at: number;
  /** 1: people who are not signed in may see the member's profile and posts (migration 0023). */
  public_profile: Generated<number>;
  /** 1: the member's public pages ask search engines not to index them. */
  noindex: Generated<number>;
  /** 1: images marked sensitive are shown to the member at once (migration 0025). */
  always_show_sensitive: Generated<number>;
}

export interface PostsTable {
  id: string;
  user_id: string;
  content: string;
  media_url: string | null;
  /** The image's description (alt text); null without an image or when none was given. */
  media_alt: string | null;
  /** Tags and mentions of the content as JSON (see modules/discovery); null when none. */
  entities: string | null;
  /** Shown in place of the text and images until the reader asks (migration 0025); null: none. */
  content_warning: Generated<string | null>;
  /** 1: the images are blurred until pressed; always 1 with a content warning. */
  sensitive: Generated<number>;
  like_count: Generated<number>;
  comment_count: Generated<number>;
  /** Reposts of it (migration 0031), kept as likes are. */
  repost_count: Generated<number>;
  created_at: number;
  updated_at: number;
  /** The preview card the post shows, as JSON (see modules/preview-cards); null for none. */
  preview_card: Generated<string | null>;
  /** The poll as a card shows it, as JSON (see modules/polls); null for none. */
  poll: Generated<string | null>;
  /** The post's images in order, as JSON (see modules/posts/album.ts); null for none. */
  media: Generated<string | null>;
  /** The post it quotes, kept when that post is deleted (migration 0030); null: none. */
  quote_id: Generated<string | null>;
}

/** A post's poll (migration 0029): its totals kept by each vote; `closed` set by the closing job. */
export interface PollsTable {
  id: string;
  post_id: string;
  user_id: string;
  multiple: number;
  expires_at: number;
  votes_count: Generated<number>;
  voters_count: Generated<number>;
  closed: Generated<number>;
}

export interface PollOptionsTable {
  poll_id: string;
  position: number;
  title: string;
  votes_count: Generated<number>;
}

/** One row per member who voted in a poll. */
export interface PollVotersTable {
  poll_id: string;
  user_id: string;
  voted_at: number;
}

/** The options each voter chose. */
export interface PollVotesTable {
  poll_id: string;
  user_id: string;
  position: number;
}

/** One image of a post (migration 0028), so that media release can tell an image is used. */
export interface PostMediaTable {
  post_id: string;
  position: number;
  url: string;
}

/** What a link's page said of itself, one row per URL (migration 0026). */
export interface PreviewCardsTable {
  url: string;
  title: string | null;
  description: string | null;
  site_name: string | null;
  /** The page's image, stored as Perch media. */
  image_url: string | null;
  image_width: number | null;
  image_height: number | null;
  /** Why the fetch gave no card; null when it gave one. */
  error: string | null;
  fetched_at: number;
}

/** Posts waiting for their first link's card. */
export interface PreviewCardFetchesTable {
  post_id: string;
  url: string;
  queued_at: number;
  /** Until when a worker holds it (0: nobody). */
  claimed_until: Generated<number>;
}

export interface LikesTable {
  post_id: string;
  user_id: string;
  created_at: number;
}

export interface CommentsTable {
  id: string;
  post_id: string;
  /** null once the author's account is gone: shown as 'Unknown'. */
  user_id: string | null;
  text: string;
  /** Tags and mentions of the text as JSON (see modules/discovery); null when none. */
  entities: string | null;
  upvote_count: Generated<number>;
  downvote_count: Generated<number>;
  created_at: number;
  updated_at: number;
}

export interface CommentVotesTable {
  comment_id: string;
  user_id: string;
  /** 1 for an upvote, -1 for a downvote. */
  vote: number;
}

export interface FollowsTable {
  follower_id: string;
  followee_id: string;
  created_at: number;
}

/** A member (user_id) blocking or muting another (target_id): see modules/safety. */
export interface SafetyTable {
  user_id: string;
  target_id: string;
  created_at: number;
}

export interface BookmarksTable {
  user_id: string;
  post_id: string;
  created_at: number;
}

/** A post its author pinned to their profile (see modules/interactions/pin.ts). */
export interface PinnedPostsTable {
  user_id: string;
  post_id: string;
  pinned_at: number;
}

/** A member's repost of a post; `id` is a ULID minted when it was made (see 0031). */
export interface RepostsTable {
  id: string;
  post_id: string;
  user_id: string;
  created_at: number;
}

/** An uploaded image; one row per member who uploaded these bytes. */
export interface MediaTable {
  id: string;
  user_id: string;
  /** /media/<prefix>/<sha256>.<ext>, shared by everyone who uploads the same bytes. */
  url: string;
  thumbnail_url: string;
  mime: string;
  bytes: number;
  width: number;
  height: number;
  /** A blurred likeness of the image (migration 0027); null for older uploads. */
  blurhash: Generated<string | null>;
  /** The member's latest upload of these bytes: orphans are swept a grace period after it. */
  created_at: number;
}

/** A domain event, recorded in its write's transaction (see events/). */
export interface OutboxTable {
  id: Generated<number>;
  type: string;
  /** The event's payload as JSON. */
  payload: string;
  created_at: number;
}

/** Where an exactly-once consumer of the outbox stands. */
export interface EventConsumersTable {
  name: string;
  last_id: number;
}

export interface NotificationsTable {
  id: string;
  recipient_id: string;
  kind: string;
  actor_id: string;
  post_id: string | null;
  comment_id: string | null;
  group_key: string;
  created_at: number;
  read_at: number | null;
}

/** A member's unread notifications, kept by triggers (migration 0020). */
export interface NotificationUnreadCountsTable {
  recipient_id: string;
  count: number | string;
}

/** Who runs a scheduled job until when (see src/platform/infra/jobs.ts). */
export interface JobLeasesTable {
  name: string;
  /** The process that holds the lease; it may renew it, others may take it once it expired. */
  holder: string;
  expires_at: number;
}

export interface SessionsTable {
  id: string;
  user_id: string;
  /** As the browser named itself at sign-in, cut to a few hundred characters. */
  user_agent: Generated<string>;
  created_at: number;
  last_used_at: number;
  expires_at: number;
  revoked_at: number | null;
  /** The app the session was granted to (see mastodon/oauth); null for Perch's own sign-ins. */
  app_id: string | null;
  /** The OAuth scopes an app's session may use, space-separated; null for Perch's own. */
  scopes: string | null;
}

/** An app registered through Mastodon's API (see mastodon/oauth). */
export interface OAuthAppsTable {
  id: string;
  name: string;
  website: string | null;
  /** One URI a line. */
  redirect_uris: string;
  /** Space-separated. */
  scopes: string;
  client_id: string;
  /** SHA-256 of the client secret, hex. */
  secret_digest: string;
  created_at: number;
}

/** An authorization code waiting to be exchanged for a token; used once. */
export interface OAuthCodesTable {
  /** SHA-256 of the code, hex. */
  code_digest: string;
  app_id: string;
  user_id: string;
  redirect_uri: string;
  scopes: string;
  /** PKCE's S256 challenge, when the app sent one. */
  code_challenge: string | null;
  expires_at: number;
}

/** An app-level token (client credentials): it speaks for the app, not for a member. */
export interface OAuthAppTokensTable {
  id: string;
  app_id: string;
  scopes: string;
  created_at: number;
  expires_at: number;
  revoked_at: number | null;
}

/** A member's Home as it is kept (see modules/timelines). */
export interface HomeTimelinesTable {
  user_id: string;
  /** Entries hold every Home post with an id at or above this one; '' when they hold all. */
  floor: Generated<string>;
  /** When the member last read Home: timelines unread for long are dropped. */
  read_at: number;
}

export interface HomeTimelineEntriesTable {
  user_id: string;
  /** Where the entry stands: the post's id, or the id of the repost that brought it (0031). */
  entry_id: string;
  post_id: string;
  author_id: string;
  /** The member followed who reposted it, when a repost brought it. */
  reposted_by: string | null;
}

/** Widely followed members whose posts Home reads when read, from `since` on (migration 0016). */
export interface PulledAuthorsTable {
  user_id: string;
  since: string;
}

/** A tag and how many posts carry it (kept by triggers on post_tags). */
export interface TagsTable {
  name: string;
  post_count: number;
}

export interface PostTagsTable {
  tag: string;
  post_id: string;
  author_id: string;
  /** The post's creation time. */
  created_at: number;
}

export interface CommentTagsTable {
  tag: string;
  comment_id: string;
  author_id: string;
  created_at: number;
}

export interface PostMentionsTable {
  post_id: string;
  user_id: string;
}

export interface CommentMentionsTable {
  comment_id: string;
  user_id: string;
}

/** SQLite: each run of three adjacent characters of a member's lower-cased names (migration 0017). */
export interface MemberNameTriplesTable {
  triple: string;
  lower_username: string;
  user_id: string;
}

/** SQLite: each pair of adjacent characters of a member's lower-cased names (migration 0015). */
export interface MemberNamePairsTable {
  pair: string;
  lower_username: string;
  user_id: string;
}

export interface Database {
  users: UsersTable;
  member_name_pairs: MemberNamePairsTable;
  member_name_triples: MemberNameTriplesTable;
  posts: PostsTable;
  post_media: PostMediaTable;
  likes: LikesTable;
  comments: CommentsTable;
  comment_votes: CommentVotesTable;
  follows: FollowsTable;
  bookmarks: BookmarksTable;
  pinned_posts: PinnedPostsTable;
  reposts: RepostsTable;
  media: MediaTable;
  preview_cards: PreviewCardsTable;
  preview_card_fetches: PreviewCardFetchesTable;
  outbox: OutboxTable;
  event_consumers: EventConsumersTable;
  notifications: NotificationsTable;
  notification_unread_counts: NotificationUnreadCountsTable;
  job_leases: JobLeasesTable;
  polls: PollsTable;
  poll_options: PollOptionsTable;
  poll_voters: PollVotersTable;
  poll_votes: PollVotesTable;
  sessions: SessionsTable;
  oauth_apps: OAuthAppsTable;
  oauth_codes: OAuthCodesTable;
  oauth_app_tokens: OAuthAppTokensTable;
  home_timelines: HomeTimelinesTable;
  home_timeline_entries: HomeTimelineEntriesTable;
  pulled_authors: PulledAuthorsTable;
  tags: TagsTable;
  post_tags: PostTagsTable;
  comment_tags: CommentTagsTable;
  post_mentions: PostMentionsTable;
  comment_mentions: CommentMentionsTable;
  blocks: SafetyTable;
  mutes: SafetyTable;
  idempotency_keys: IdempotencyKeysTable;
  markers: MarkersTable;
}

/** A create's Idempotency-Key and what the first request with it made (modules/idempotency). */
export interface IdempotencyKeysTable {
  user_id: string;
  key: string;
  post_id: string | null;
  comment_id: string | null;
  created_at: number;
}

/** Where a member stopped reading a timeline, as Mastodon's apps save it (migration 0034). */
export interface MarkersTable {
  user_id: string;
  /** 'home' or 'notifications'. */
  timeline: string;
  last_read_id: string;
  /** How many times it was saved. */
  version: number;
  updated_at: number;
}

export type UserRow = Selectable<UsersTable>;
/**
 * A member's columns as lists and answers read them: every one but the password's hash and the
 * privacy settings (read where they decide something: modules/users/public.ts, modules/account).
 */
export type MemberRow = Omit<
  UserRow,
  'password_hash' | 'public_profile' | 'noindex' | 'always_show_sensitive'
>;
export type NewUser = Insertable<UsersTable>;
export type MediaRow = Selectable<MediaTable>;
