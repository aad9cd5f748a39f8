import type {
  Comment,
  Entity,
  mastodon,
  Post,
  PostMedia,
  PreviewCard,
  Poll as PerchPoll,
} from '@perch/contract';
import { decodeTime } from 'ulid';
import { thumbnailUrlOf } from '../../modules/media/media.service';
import { contentHtml } from '../../read-model/post/content-html';
import { absolute, postUrl, profileUrl, tagUrl, type Links } from './links';
import { mediaIdOf } from '../statuses-ids';

type StatusFields = Omit<mastodon.Status, 'reblog' | 'quote'>;

/** What a page of statuses is rendered with: its authors' accounts, read once for the page. */
export interface StatusContext {
  links: Links;
  /** Accounts by member id. */
  accounts: ReadonlyMap<string, mastodon.Account>;
  /** The full posts that posts of the page quote, by id (quoted statuses are shown whole). */
  quoted: ReadonlyMap<string, Post>;
  viewerId: string | null;
}

const contentOf = (text: string, entities: readonly Entity[], links: Links): string =>
  contentHtml(text, entities, {
    tag: (tag) => tagUrl(links, tag),
    member: (username) => profileUrl(links, username),
  });

function mentionsOf(entities: readonly Entity[], links: Links): mastodon.Status['mentions'] {
  const seen = new Set<string>();
  const mentions: mastodon.Status['mentions'] = [];
  for (const entity of entities) {
    if (entity.type !== 'mention' || seen.has(entity.userId)) continue;
    seen.add(entity.userId);
    const url = profileUrl(links, entity.username);
    mentions.push({ id: entity.userId, username: entity.username, acct: entity.username, url });
  }
  return mentions;
}

function tagsOf(entities: readonly Entity[], links: Links): mastodon.Status['tags'] {
  const names = new Set<string>();
  for (const entity of entities) if (entity.type === 'tag') names.add(entity.tag.toLowerCase());
  return [...names].map((name) => ({ name, url: tagUrl(links, name) }));
}

/** One image of an album as a MediaAttachment; its id names the upload (see statuses-ids.ts). */
export function toMediaAttachment(image: PostMedia, links: Links): mastodon.MediaAttachment {
  const { width, height } = image;
  const original =
    width !== null && height !== null && height > 0
      ? { width, height, size: `${width}x${height}`, aspect: width / height }
      : undefined;
  return {
    id: mediaIdOf(image.url),
    type: 'image',
    url: absolute(links, image.url),
    preview_url: absolute(links, thumbnailUrlOf(image.url) ?? image.url),
    remote_url: null,
    meta: original ? { original } : {},
    description: image.alt,
    blurhash: image.blurhash,
  };
}

export function toPoll(poll: PerchPoll, viewerId: string | null): mastodon.Poll {
  return {
    id: poll.id,
    expires_at: poll.expiresAt,
    expired: poll.expired,
    multiple: poll.multiple,
    votes_count: poll.votesCount,
    voters_count: poll.votersCount,
    options: poll.options.map((option) => ({
      title: option.title,
      votes_count: option.votesCount,
    })),
    emojis: [],
    ...(viewerId !== null && { voted: poll.voted, own_votes: poll.ownVotes }),
  };
}

export function toCard(card: PreviewCard, links: Links): mastodon.PreviewCard {
  return {
    url: card.url,
    title: card.title,
    description: card.description ?? '',
    type: 'link',
    authors: [],
    author_name: '',
    author_url: '',
    provider_name: card.siteName ?? '',
    provider_url: '',
    html: '',
    width: card.imageWidth ?? 0,
    height: card.imageHeight ?? 0,
    image: card.imageURL === null ? null : absolute(links, card.imageURL),
    image_description: '',
    embed_url: '',
    blurhash: null,
  };
}

/** Perch lets every member quote a public post; a reader without a token is not known. */
const quoteApprovalFor = (viewerId: string | null): mastodon.Status['quote_approval'] => ({
  automatic: ['public'],
  manual: [],
  current_user: viewerId === null ? 'unknown' : 'automatic',
});

/** The fields every status has, of a post (its quote and reblog are the caller's). */
function postFields(post: Post, account: mastodon.Account, context: StatusContext): StatusFields {
  const { links, viewerId } = context;
  const url = postUrl(links, post.username, post._id);
  const viewerFlags =
    viewerId === null
      ? {}
      : {
          favourited: post.likedByViewer,
          reblogged: post.repostedByViewer,
          bookmarked: post.bookmarkedByViewer,
          muted: false,
          ...(viewerId === post.userId && { pinned: post.pinned }),
        };
  return {
    id: post._id,
    uri: url,
    url,
    created_at: post.createdAt,
    account,
    content: contentOf(post.content, post.entities, links),
    visibility: 'public',
    sensitive: post.sensitive,
    spoiler_text: post.contentWarning ?? '',
    media_attachments: post.media.map((image) => toMediaAttachment(image, links)),
    mentions: mentionsOf(post.entities, links),
    tags: tagsOf(post.entities, links),
    emojis: [],
    reblogs_count: post.repostCount,
    favourites_count: post.likes.likeCount,
    quotes_count: 0,
    replies_count: post.commentCount,
    in_reply_to_id: null,
    in_reply_to_account_id: null,
    poll: post.poll === null ? null : toPoll(post.poll, viewerId),
    card: post.card === null ? null : toCard(post.card, links),
    language: null,
    text: null,
    edited_at: post.updatedAt !== post.createdAt ? post.updatedAt : null,
    quote_approval: quoteApprovalFor(viewerId),
    ...viewerFlags,
  };
}

/**
 * A post's quote. Perch does not tell a reader whether a quoted post they cannot see was deleted
 * or is kept from them (a block or a mute); both show as `deleted`.
 */
function quoteOf(post: Post, context: StatusContext): mastodon.Status['quote'] {
  if (post.quote === null) return null;
  if (post.quote.state === 'unavailable') return { state: 'deleted', quoted_status: null };
  const quoted = context.quoted.get(post.quote.post._id);
  const account = quoted && context.accounts.get(quoted.userId);
  if (!quoted || !account) return { state: 'deleted', quoted_status: null };
  const inner =
    quoted.quote === null
      ? null
      : {
          state: quoted.quote.state === 'available' ? ('accepted' as const) : ('deleted' as const),
          quoted_status_id: quoted.quote.state === 'available' ? quoted.quote.post._id : null,
        };
  return {
    state: 'accepted',
    quoted_status: { ...postFields(quoted, account, context), reblog: null, quote: inner },
  };
}

/** A post as a Status; null when its author's account is not among the context's. */
export function toStatus(post: Post, context: StatusContext): mastodon.RebloggedStatus | null {
  const account = context.accounts.get(post.userId);
  if (!account) return null;
  return { ...postFields(post, account, context), reblog: null, quote: quoteOf(post, context) };
}

/**
 * A repost as Mastodon's reblog: a status of the reposter's, its id the repost's own (a ULID
 * minted when reposting, so that it stands in Home where the repost does), wrapping the post.
 */
export function toReblog(
  post: Post,
  reblog: { id: string; userId: string },
  context: StatusContext,
): mastodon.Status | null {
  const inner = toStatus(post, context);
  const account = context.accounts.get(reblog.userId);
  if (!inner || !account) return null;
  return {
    ...inner,
    id: reblog.id,
    // Perch has no page of a repost of its own: its address is the post's.
    uri: `${profileUrl(context.links, account.username)}/reblogs/${reblog.id}`,
    url: inner.url,
    created_at: new Date(decodeTime(reblog.id)).toISOString(),
    account,
    content: '',
    sensitive: false,
    spoiler_text: '',
    media_attachments: [],
    mentions: [],
    tags: [],
    reblogs_count: 0,
    favourites_count: 0,
    replies_count: 0,
    poll: null,
    card: null,
    edited_at: null,
    ...(context.viewerId !== null && { pinned: undefined }),
    reblog: inner,
    quote: null,
  };
}

/** A comment as a Status replying to its post (id: see statuses-ids.ts). */
export function toCommentStatus(
  comment: Comment,
  post: Pick<Post, '_id' | 'userId' | 'username'>,
  statusId: string,
  context: StatusContext,
): mastodon.Status | null {
  const account = comment.userId === null ? undefined : context.accounts.get(comment.userId);
  if (!account) return null;
  const { links, viewerId } = context;
  const url = `${postUrl(links, post.username, post._id)}#comment-${comment._id}`;
  const upvoted = viewerId !== null && comment.votes.upvotedBy.some((ref) => ref._id === viewerId);
  return {
    id: statusId,
    uri: url,
    url,
    created_at: comment.createdAt,
    account,
    content: contentOf(comment.text, comment.entities, links),
    visibility: 'public',
    sensitive: false,
    spoiler_text: '',
    media_attachments: [],
    mentions: mentionsOf(comment.entities, links),
    tags: tagsOf(comment.entities, links),
    emojis: [],
    reblogs_count: 0,
    favourites_count: comment.votes.upvoteCount,
    quotes_count: 0,
    replies_count: 0,
    in_reply_to_id: post._id,
    in_reply_to_account_id: post.userId,
    poll: null,
    card: null,
    language: null,
    text: null,
    edited_at: comment.updatedAt !== comment.createdAt ? comment.updatedAt : null,
    quote_approval: quoteApprovalFor(viewerId),
    ...(viewerId !== null && {
      favourited: upvoted,
      reblogged: false,
      bookmarked: false,
      muted: false,
    }),
    reblog: null,
    quote: null,
  };
}
