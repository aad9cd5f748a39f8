import { z } from 'zod';
import { previewCardSchema } from './previewCard';

/**
 * Domain events: what happened, recorded in the write's transaction and handed to handlers after
 * commit. The same names and payloads reach the web app over the event stream (GET /api/events),
 * each to the members allowed to see it (see EVENT_AUDIENCE).
 */
const id = z.string();

export const domainEventSchemas = {
  /** quote: the post it quotes and that post's author, when it quotes one. */
  'post.created': z.object({
    postId: id,
    authorId: id,
    quote: z.object({ postId: id, authorId: id }).optional(),
  }),
  /**
   * previousMediaURLs: the images the edit removed from the post (previousMediaURL: the first of
   * them, for clients that know one image a post), empty when it kept them all.
   */
  'post.edited': z.object({
    postId: id,
    authorId: id,
    previousMediaURL: z.string().nullable(),
    previousMediaURLs: z.array(z.string()),
  }),
  /** mediaURLs: every image the post held (mediaURL: its first). */
  'post.deleted': z.object({
    postId: id,
    authorId: id,
    mediaURL: z.string().nullable(),
    mediaURLs: z.array(z.string()),
  }),
  /**
   * The post's preview card was fetched after the post was written or edited: the card as the post
   * now shows it (see previewCardSchema in posts.ts).
   */
  'post.card.attached': z.object({ postId: id, authorId: id, card: previewCardSchema }),
  'post.liked': z.object({ postId: id, postAuthorId: id, userId: id, likeCount: z.number() }),
  'post.unliked': z.object({ postId: id, postAuthorId: id, userId: id, likeCount: z.number() }),
  /** The author (userId) pinned their post to their profile, or took the pin off. */
  'post.pinned': z.object({ postId: id, userId: id }),
  'post.unpinned': z.object({ postId: id, userId: id }),
  /**
   * A member (userId) reposted a post to their followers, or undid it; repostId names the repost
   * (a ULID minted when it was made: where it stands in Home); repostCount is the post's count now.
   */
  'post.reposted': z.object({
    postId: id,
    postAuthorId: id,
    userId: id,
    repostId: id,
    repostCount: z.number(),
  }),
  'post.unreposted': z.object({
    postId: id,
    postAuthorId: id,
    userId: id,
    repostId: id,
    repostCount: z.number(),
  }),
  'comment.added': z.object({
    postId: id,
    commentId: id,
    postAuthorId: id,
    userId: id,
    commentCount: z.number(),
  }),
  'comment.edited': z.object({ postId: id, commentId: id, userId: id }),
  /** A member voted on a comment (or turned their vote around); the counts as they are now. */
  'comment.voted': z.object({
    postId: id,
    commentId: id,
    userId: id,
    upvoteCount: z.number(),
    downvoteCount: z.number(),
  }),
  'comment.deleted': z.object({
    postId: id,
    commentId: id,
    postAuthorId: id,
    userId: id.nullable(),
    commentCount: z.number(),
  }),
  'member.followed': z.object({
    followerId: id,
    followeeId: id,
    /** The followee's followers and the follower's following, as they are after the change. */
    followersCount: z.number(),
    followingCount: z.number(),
  }),
  'member.unfollowed': z.object({
    followerId: id,
    followeeId: id,
    followersCount: z.number(),
    followingCount: z.number(),
  }),
  /** Members named in a post or comment for the first time (not its author). */
  'members.mentioned': z.object({
    postId: id,
    commentId: id.nullable(),
    authorId: id,
    userIds: z.array(id),
  }),
  /**
   * A member voted in the post's poll: its counts as they are now (the voter is not named: votes
   * are private, see 'poll.vote.cast').
   */
  'poll.voted': z.object({
    pollId: id,
    postId: id,
    authorId: id,
    votesCount: z.number(),
    votersCount: z.number(),
    optionVotes: z.array(z.number()),
  }),
  /** The member's own vote (owner-only): the positions they chose. */
  'poll.vote.cast': z.object({ userId: id, pollId: id, postId: id, choices: z.array(z.number()) }),
  /** The poll's time ran out; its author and voters are notified once. */
  'poll.ended': z.object({ pollId: id, postId: id, authorId: id }),
  'bookmark.added': z.object({ userId: id, postId: id }),
  'bookmark.removed': z.object({ userId: id, postId: id }),
  /** previousAvatarURL: the picture the edit replaced or removed, if any. */
  'profile.edited': z.object({ userId: id, previousAvatarURL: z.string().nullable() }),
  /**
   * The member deleted their account: everything of theirs is gone (posts, comments, likes,
   * follows…), and with it counts on other members' posts and profiles changed. mediaURLs: images
   * their posts and profile showed (a bounded number), freed once nothing else shows them.
   */
  'member.deleted': z.object({ userId: id, mediaURLs: z.array(z.string()) }),
  /**
   * The member (userId) blocked, unblocked, muted or unmuted another (targetId). Owner-only: the
   * other member is not told. A block's ended follows are recorded as 'member.unfollowed' too.
   */
  'member.blocked': z.object({ userId: id, targetId: id }),
  'member.unblocked': z.object({ userId: id, targetId: id }),
  'member.muted': z.object({ userId: id, targetId: id }),
  'member.unmuted': z.object({ userId: id, targetId: id }),
  /** Sessions ended before their time (logout, log out everywhere): their tokens are refused. */
  'sessions.revoked': z.object({ userId: id, sessionIds: z.array(id) }),
  /** The member's notifications changed (one arrived, was removed or was read). */
  'notifications.changed': z.object({ userId: id, unreadCount: z.number() }),
} as const;

export type DomainEventType = keyof typeof domainEventSchemas;
export type DomainEventPayloads = {
  [K in DomainEventType]: z.infer<(typeof domainEventSchemas)[K]>;
};
export const DOMAIN_EVENT_TYPES = Object.keys(domainEventSchemas) as DomainEventType[];

/** One event of any type, as recorded: `{type, payload}` with the payload of that type. */
export type DomainEvent = {
  [K in DomainEventType]: { type: K; payload: DomainEventPayloads[K] };
}[DomainEventType];

/** An event after commit, with its place in the outbox: ids only grow. */
export type PublishedEvent = DomainEvent & { id: number; createdAt: number };

/**
 * Who may receive an event on the stream:
 * - public: anyone (counts and changes of public posts and profiles);
 * - followers: the author and the members who follow them (new posts for their Home);
 * - owner: only the member it belongs to (bookmarks, notifications).
 */
export type EventAudience =
  { kind: 'public' } | { kind: 'followers'; authorId: string } | { kind: 'owner'; userId: string };

export function audienceOf(event: DomainEvent): EventAudience {
  switch (event.type) {
    case 'post.created':
      return { kind: 'followers', authorId: event.payload.authorId };
    case 'bookmark.added':
    case 'bookmark.removed':
    case 'poll.vote.cast':
    case 'notifications.changed':
    case 'sessions.revoked':
    case 'member.blocked':
    case 'member.unblocked':
    case 'member.muted':
    case 'member.unmuted':
      return { kind: 'owner', userId: event.payload.userId };
    default:
      return { kind: 'public' };
  }
}

/**
 * The members an event is about, whose blocks and mutes keep it from a stream as lists keep their
 * posts and comments: a member blocked either way with one of them, or muting one of them, does
 * not receive it. Deletions name no one, so a copy already shown is always taken down; owner-only
 * events name no one, as only their owner receives them.
 */
export function membersInvolved(event: DomainEvent): readonly string[] {
  switch (event.type) {
    case 'post.created':
    case 'post.edited':
    case 'post.card.attached':
    case 'poll.voted':
    case 'poll.ended':
      return [event.payload.authorId];
    case 'post.liked':
    case 'post.unliked':
    case 'post.reposted':
    case 'post.unreposted':
    case 'comment.added':
      return [event.payload.postAuthorId, event.payload.userId];
    case 'post.pinned':
    case 'post.unpinned':
    case 'comment.edited':
    case 'comment.voted':
    case 'profile.edited':
      return [event.payload.userId];
    case 'member.followed':
    case 'member.unfollowed':
      return [event.payload.followerId, event.payload.followeeId];
    case 'members.mentioned':
      return [event.payload.authorId];
    case 'post.deleted':
    case 'comment.deleted':
    case 'member.deleted':
    case 'bookmark.added':
    case 'bookmark.removed':
    case 'poll.vote.cast':
    case 'notifications.changed':
    case 'sessions.revoked':
    case 'member.blocked':
    case 'member.unblocked':
    case 'member.muted':
    case 'member.unmuted':
      return [];
  }
}

/** The `ready` message's data (see streamRules.ts). */
export const streamReadySchema = z.object({ unreadCount: z.number() });
export type StreamReady = z.infer<typeof streamReadySchema>;
