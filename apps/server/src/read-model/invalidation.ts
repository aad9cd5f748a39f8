import type { DomainEvent, DomainEventPayloads, DomainEventType } from '@perch/contract';

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
  /** What each member did to posts (liked, bookmarked). */
  viewerStates: {
    forget: (userId: string) => void;
  };
  /**
   * member views: the views of members, comments and blocks, still cached in their modules, each
   * told of the event by its module's listener.
   */
  others: (event: DomainEvent) => void;
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
    // member views: the author's post count.
    views.others({ type: 'post.created', payload });
  },
  'post.edited': (payload, views) => {
    views.posts.rewritten(payload.postId);
  },
  'post.deleted': (payload, views) => {
    views.posts.rewritten(payload.postId);
    // member views: the author's post count; comment views: the post's first comments.
    views.others({ type: 'post.deleted', payload });
  },
  'post.liked': (payload, views) => {
    views.posts.forget(payload.postId);
    views.viewerStates.forget(payload.userId);
  },
  'post.unliked': (payload, views) => {
    views.posts.forget(payload.postId);
    views.viewerStates.forget(payload.userId);
  },
  'bookmark.added': (payload, views) => {
    views.viewerStates.forget(payload.userId);
  },
  'bookmark.removed': (payload, views) => {
    views.viewerStates.forget(payload.userId);
  },
  'comment.added': (payload, views) => {
    views.posts.forget(payload.postId);
    // comment views: the post's first comments.
    views.others({ type: 'comment.added', payload });
  },
  'comment.deleted': (payload, views) => {
    views.posts.forget(payload.postId);
    // comment views: the post's first comments.
    views.others({ type: 'comment.deleted', payload });
  },
  'comment.edited': (payload, views) => {
    // comment views: the post's first comments.
    views.others({ type: 'comment.edited', payload });
  },
  'comment.voted': (payload, views) => {
    // comment views: the post's first comments, the voter's votes.
    views.others({ type: 'comment.voted', payload });
  },
  'member.followed': (payload, views) => {
    // member views: both members' counts, whom the follower follows.
    views.others({ type: 'member.followed', payload });
  },
  'member.unfollowed': (payload, views) => {
    // member views: both members' counts, whom the follower follows.
    views.others({ type: 'member.unfollowed', payload });
  },
  'profile.edited': (payload, views) => {
    views.posts.forgetAuthor(payload.userId);
    // member views: the member's summary and view, member search; comment views: their comments.
    views.others({ type: 'profile.edited', payload });
  },
  'member.deleted': (payload, views) => {
    // Their posts went, and their likes and comments changed counts on posts the event does not
    // list. Accounts are deleted rarely; the views refill as read.
    views.posts.forgetAll();
    views.viewerStates.forget(payload.userId);
    // member views: every member's counts, member search; comment views: every thread.
    views.others({ type: 'member.deleted', payload });
  },
  'member.blocked': (payload, views) => {
    // member views: whom both members hide.
    views.others({ type: 'member.blocked', payload });
  },
  'member.unblocked': (payload, views) => {
    // member views: whom both members hide.
    views.others({ type: 'member.unblocked', payload });
  },
  'member.muted': (payload, views) => {
    // member views: whom the member hides.
    views.others({ type: 'member.muted', payload });
  },
  'member.unmuted': (payload, views) => {
    // member views: whom the member hides.
    views.others({ type: 'member.unmuted', payload });
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
