import type { DomainEventType } from '@perch/contract';
import type { Schemas } from '../lib/schemas';

/**
 * The contract's event payloads, narrowed to the fields the app reads: a field the server adds,
 * leaves out or renames elsewhere in a payload never costs an event. Built from the schemas once
 * they have loaded (see lib/schemas).
 */
export function liveEventSchemasOf({ domainEventSchemas: events }: Schemas) {
  return {
    'post.created': events['post.created'],
    'post.edited': events['post.edited'].pick({ postId: true, authorId: true }),
    'post.deleted': events['post.deleted'].pick({ postId: true, authorId: true }),
    'post.card.attached': events['post.card.attached'],
    'post.liked': events['post.liked'],
    'post.unliked': events['post.unliked'],
    'post.pinned': events['post.pinned'],
    'post.unpinned': events['post.unpinned'],
    'post.reposted': events['post.reposted'].pick({
      postId: true,
      userId: true,
      repostCount: true,
    }),
    'post.unreposted': events['post.unreposted'].pick({
      postId: true,
      userId: true,
      repostCount: true,
    }),
    'comment.added': events['comment.added'],
    'comment.edited': events['comment.edited'].pick({ postId: true, commentId: true }),
    'comment.voted': events['comment.voted'].pick({
      postId: true,
      commentId: true,
      upvoteCount: true,
      downvoteCount: true,
    }),
    'comment.deleted': events['comment.deleted'].pick({
      postId: true,
      commentId: true,
      commentCount: true,
    }),
    'member.followed': events['member.followed'],
    'member.unfollowed': events['member.unfollowed'],
    'members.mentioned': events['members.mentioned'].pick({ postId: true }),
    'poll.voted': events['poll.voted'].pick({
      postId: true,
      votesCount: true,
      votersCount: true,
      optionVotes: true,
    }),
    'poll.vote.cast': events['poll.vote.cast'].pick({ postId: true, choices: true }),
    'poll.ended': events['poll.ended'].pick({ postId: true }),
    'bookmark.added': events['bookmark.added'],
    'bookmark.removed': events['bookmark.removed'],
    'profile.edited': events['profile.edited'].pick({ userId: true }),
    'member.deleted': events['member.deleted'].pick({ userId: true }),
    'member.blocked': events['member.blocked'],
    'member.unblocked': events['member.unblocked'],
    'member.muted': events['member.muted'],
    'member.unmuted': events['member.unmuted'],
    'notifications.changed': events['notifications.changed'],
    'sessions.revoked': events['sessions.revoked'],
  } satisfies Record<DomainEventType, unknown>;
}

export type LiveEventSchemas = ReturnType<typeof liveEventSchemasOf>;
export type LiveEventType = keyof LiveEventSchemas;

export type LiveEventPayloads = {
  [K in LiveEventType]: ReturnType<LiveEventSchemas[K]['parse']>;
};

/** One event of the stream as the app reads it: `{type, payload}`. */
export type LiveEvent = {
  [K in LiveEventType]: { type: K; payload: LiveEventPayloads[K] };
}[LiveEventType];
