import { DOMAIN_EVENT_TYPES, type DomainEvent, type DomainEventType } from '@perch/contract';
import { describe, expect, it } from 'vitest';
import { createInvalidation, invalidation, type ReadModelViews } from './invalidation';

/** Views that write down every drop asked of them. */
function recordingViews() {
  const dropped: string[] = [];
  const views: ReadModelViews = {
    posts: {
      forget: (postId) => dropped.push(`post ${postId}`),
      rewritten: (postId) => dropped.push(`post rewritten ${postId}`),
      forgetAuthor: (userId) => dropped.push(`posts by ${userId}`),
      forgetAll: () => dropped.push('every post'),
    },
    viewerStates: { forget: (userId) => dropped.push(`viewer state ${userId}`) },
    members: {
      profileChanged: (userId) => dropped.push(`member ${userId}`),
      countsChanged: (userId) => dropped.push(`member counts ${userId}`),
      followsChanged: (userId) => dropped.push(`followees of ${userId}`),
      memberDeleted: (userId) => dropped.push(`member deleted ${userId}`),
    },
    comments: {
      postChanged: (postId) => dropped.push(`comments under ${postId}`),
      votesChanged: (userId) => dropped.push(`votes of ${userId}`),
      authorChanged: (userId) => dropped.push(`comments by ${userId}`),
      memberDeleted: (userId) => dropped.push(`comments deleted ${userId}`),
    },
    relations: { forget: (userId) => dropped.push(`relations of ${userId}`) },
  };
  return { views, dropped };
}

describe('the invalidation table', () => {
  it('states every event type, and a table missing one does not compile', () => {
    expect(Object.keys(invalidation).sort()).toEqual([...DOMAIN_EVENT_TYPES].sort());
    const { 'post.liked': _liked, ...withoutLikes } = invalidation;
    // @ts-expect-error -- 'post.liked' is missing: the table must say what every event changes.
    const incomplete: typeof invalidation = withoutLikes;
    expect(Object.keys(incomplete)).not.toContain('post.liked' satisfies DomainEventType);
  });

  it('drops the views an event changes, and only those', () => {
    const { views, dropped } = recordingViews();
    const handOn = createInvalidation(views, (error) => {
      throw error;
    });
    const events: DomainEvent[] = [
      {
        type: 'post.liked',
        payload: { postId: 'p1', postAuthorId: 'a', userId: 'u1', likeCount: 1 },
      },
      { type: 'bookmark.added', payload: { userId: 'u2', postId: 'p2' } },
      {
        type: 'post.edited',
        payload: { postId: 'p3', authorId: 'a', previousMediaURL: null, previousMediaURLs: [] },
      },
      { type: 'profile.edited', payload: { userId: 'a', previousAvatarURL: null } },
      { type: 'notifications.changed', payload: { userId: 'u1', unreadCount: 2 } },
    ];
    handOn(events);
    expect(dropped).toEqual([
      'post p1',
      'viewer state u1',
      'viewer state u2',
      'post rewritten p3',
      'posts by a',
      'member a',
      'comments by a',
    ]);
  });

  it('hands on the events after a view that failed to drop, and reports the failure', () => {
    const { views, dropped } = recordingViews();
    const failures: unknown[] = [];
    const handOn = createInvalidation(
      {
        ...views,
        posts: {
          ...views.posts,
          forget: () => {
            throw new Error('broken');
          },
        },
      },
      (error) => failures.push(error),
    );
    handOn([
      {
        type: 'comment.added',
        payload: { postId: 'p', commentId: 'c', postAuthorId: 'a', userId: 'u', commentCount: 1 },
      },
      { type: 'bookmark.removed', payload: { userId: 'u', postId: 'p' } },
    ]);
    expect(failures).toHaveLength(1);
    // The failing post view stops the event's entry: its comments are not dropped either.
    expect(dropped).toEqual(['viewer state u']);
  });
});
