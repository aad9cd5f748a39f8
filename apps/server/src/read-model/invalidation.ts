import type { DomainEvent, DomainEventPayloads, DomainEventType } from '@perch/contract';
import type { CommentPresenter } from './comment/presenter';
import type { MemberPresenter } from './member/presenter';

/** What the invalidation table may drop: every cached view, by what an event names. */
export interface ReadModelViews {
  posts: {
    /** The post's view: a count or the viewer's state of it changed. */
    forget: (postId: string) => void;
    /** The post's text changed or the post went: its view, and lists found by text. */
    rewritten: (postId: string) => void;
    /** Every view of the member's posts (their name or picture changed). */
    forgetAuthor: (userId: string) => void;
    /** Every post view and every list found by text (an account and all it touched went). */
    forgetAll: () => void;
  };
  /** What each member did to posts (liked, bookmarked, reposted, voted in their polls). */
  viewerStates: {
    forget: (userId: string) => void;
  };
  /** Members: summaries, list views, whom viewers follow, member search's pages. */
  members: MemberPresenter['invalidate'];
  /** Comments as posts embed them, and viewers' votes. */
  comments: CommentPresenter['invalidate'];
  /** Whom each viewer blocks, is blocked by and mutes. */
  relations: { forget: (userId: string) => void };
}

type Invalidation = {
  [T in DomainEventType]: (payload: DomainEventPayloads[T], views: ReadModelViews) => void;
};

const nothing = (): void => undefined;

/**
 * Which views each event changes, stated once for every event type: a new type does not compile
 * until it says which views it changes (nothing is an answer too).
 */
export const invalidation: Invalidation = {
  'post.created': (payload, views) => {
    views.members.countsChanged(payload.authorId);
  },
  'post.edited': (payload, views) => {
    views.posts.rewritten(payload.postId);
  },
  'post.deleted': (payload, views) => {
    views.posts.rewritten(payload.postId);
    views.members.countsChanged(payload.authorId);
    views.comments.postChanged(payload.postId);
  },
  'post.card.attached': (payload, views) => {
    views.posts.forget(payload.postId);
  },
  'post.liked': (payload, views) => {
    views.posts.forget(payload.postId);
    views.viewerStates.forget(payload.userId);
  },
  'post.unliked': (payload, views) => {
    views.posts.forget(payload.postId);
    views.viewerStates.forget(payload.userId);
  },
  'post.reposted': (payload, views) => {
    views.posts.forget(payload.postId);
    views.viewerStates.forget(payload.userId);
  },
  'post.unreposted': (payload, views) => {
    views.posts.forget(payload.postId);
    views.viewerStates.forget(payload.userId);
  },
  // A pin shows on the post's view, the same for every reader.
  'post.pinned': (payload, views) => {
    views.posts.forget(payload.postId);
  },
  'post.unpinned': (payload, views) => {
    views.posts.forget(payload.postId);
  },
  // A poll's counts show on its post's view; the voter's choices are their viewer state.
  'poll.voted': (payload, views) => {
    views.posts.forget(payload.postId);
  },
  'poll.vote.cast': (payload, views) => {
    views.viewerStates.forget(payload.userId);
  },
  // Whether it ended is decided as the post is shown; its view changes only with its counts.
  'poll.ended': nothing,
  'bookmark.added': (payload, views) => {
    views.viewerStates.forget(payload.userId);
  },
  'bookmark.removed': (payload, views) => {
    views.viewerStates.forget(payload.userId);
  },
  'comment.added': (payload, views) => {
    views.posts.forget(payload.postId);
    views.comments.postChanged(payload.postId);
  },
  'comment.deleted': (payload, views) => {
    views.posts.forget(payload.postId);
    views.comments.postChanged(payload.postId);
  },
  'comment.edited': (payload, views) => {
    views.comments.postChanged(payload.postId);
  },
  'comment.voted': (payload, views) => {
    views.comments.postChanged(payload.postId);
    views.comments.votesChanged(payload.userId);
  },
  'member.followed': (payload, views) => {
    views.members.countsChanged(payload.followerId);
    views.members.countsChanged(payload.followeeId);
    views.members.followsChanged(payload.followerId);
  },
  'member.unfollowed': (payload, views) => {
    views.members.countsChanged(payload.followerId);
    views.members.countsChanged(payload.followeeId);
    views.members.followsChanged(payload.followerId);
  },
  'profile.edited': (payload, views) => {
    views.posts.forgetAuthor(payload.userId);
    views.members.profileChanged(payload.userId);
    views.comments.authorChanged(payload.userId);
  },
  'member.deleted': (payload, views) => {
    // Their posts went, and their likes and comments changed counts on posts the event does not
    // list. Accounts are deleted rarely; the views refill as read.
    views.posts.forgetAll();
    views.viewerStates.forget(payload.userId);
    views.members.memberDeleted(payload.userId);
    views.comments.memberDeleted(payload.userId);
    // Others' relations may still list their id, which matches nothing any more.
    views.relations.forget(payload.userId);
  },
  'member.blocked': (payload, views) => {
    // A block works both ways: the target's relations changed too.
    views.relations.forget(payload.userId);
    views.relations.forget(payload.targetId);
  },
  'member.unblocked': (payload, views) => {
    views.relations.forget(payload.userId);
    views.relations.forget(payload.targetId);
  },
  'member.muted': (payload, views) => {
    views.relations.forget(payload.userId);
  },
  'member.unmuted': (payload, views) => {
    views.relations.forget(payload.userId);
  },
  'members.mentioned': nothing,
  'sessions.revoked': nothing,
  'notifications.changed': nothing,
};

/** Drops the views `event` changed, as the table says. */
export function invalidate(event: DomainEvent, views: ReadModelViews): void {
  const entry = invalidation[event.type] as (
    payload: DomainEvent['payload'],
    views: ReadModelViews,
  ) => void;
  entry(event.payload, views);
}

/**
 * The table as the relay's listener (every process, other processes' writes) and as the
 * transactions' afterCommit (this process's writes, before they are answered). A view that fails
 * to drop is reported, and the events after it are still handed on.
 */
export function createInvalidation(
  views: ReadModelViews,
  report: (error: unknown) => void,
): (events: readonly DomainEvent[]) => void {
  return (events) => {
    for (const event of events) {
      try {
        invalidate(event, views);
      } catch (error) {
        report(error);
      }
    }
  };
}
