import type { Comment, Post, PostPage, User, UserPage } from '@perch/contract';
import { MutationObserver, QueryClient } from '@tanstack/react-query';
import { http, HttpResponse } from 'msw';
import { beforeEach, describe, expect, it } from 'vitest';
import { makeUser } from '../test/fixtures';
import { server } from '../test/server';
import { createSessionStore, type SessionStore } from '../entities/session/session';
import { commentKeys, type CommentPages } from '../entities/comment/comments.queries';
import { notificationKeys } from '../entities/notification/notificationKeys';
import { findCachedPost, type PostPages } from '../entities/post/postCache';
import { postKeys, type FeedSource } from '../entities/post/postKeys';
import { makeComment, makePost } from '../entities/post/posts.mocks';
import { userKeys } from '../entities/member/users.queries';
import type { LiveEvent } from '../shared/live/liveEventTypes';
import type { LiveContext } from '../shared/live/liveEventHandlers';
import { applyLiveEvent } from './liveEventHandlers';
import { createNewPostsStore } from '../shared/live/newPosts';

const viewer = makeUser({ _id: 'u-me', username: 'ada', followersCount: 2, followingCount: 1 });

let queryClient: QueryClient;
let store: SessionStore;
let context: LiveContext;

beforeEach(() => {
  queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  store = createSessionStore(window.localStorage, undefined);
  store.signIn({ token: 'token-me', user: viewer });
  context = { queryClient, store, newPosts: createNewPostsStore() };
});

function apply(event: LiveEvent): void {
  applyLiveEvent(context, event);
}

function seedList(source: FeedSource, posts: Post[], sort: 'latest' | 'trending' = 'latest') {
  const data: PostPages = { pages: [{ posts, nextCursor: null }], pageParams: [null] };
  queryClient.setQueryData(postKeys.list(source, sort), data);
}

function listPosts(source: FeedSource, sort: 'latest' | 'trending' = 'latest'): Post[] {
  const data = queryClient.getQueryData<PostPages>(postKeys.list(source, sort));
  return data?.pages.flatMap((page: PostPage) => page.posts) ?? [];
}

function cachedEverywhere(postId: string): Post[] {
  return queryClient
    .getQueriesData({ queryKey: postKeys.all })
    .flatMap(([, data]) =>
      data && typeof data === 'object' && 'pages' in data
        ? (data as PostPages).pages.flatMap((page) => page.posts)
        : [data as Post],
    )
    .filter((post) => post._id === postId);
}

function isStale(queryKey: readonly unknown[]): boolean {
  return queryClient.getQueryState(queryKey)?.isInvalidated === true;
}

const liked = (postId: string, userId: string, likeCount: number): LiveEvent => ({
  type: 'post.liked',
  payload: { postId, postAuthorId: 'u-grace', userId, likeCount },
});

describe('likes', () => {
  it('sets the like count of the post in every list and its single-post entry', () => {
    const post = makePost({ likes: { likeCount: 4, likedBy: [], dislikedBy: [] } });
    seedList({ kind: 'home' }, [makePost(), post]);
    seedList({ kind: 'explore' }, [post], 'trending');
    seedList({ kind: 'user', username: 'grace_h' }, [post]);
    queryClient.setQueryData(postKeys.detail(post._id), post);

    apply(liked(post._id, 'u-someone', 5));

    const copies = cachedEverywhere(post._id);
    expect(copies).toHaveLength(4);
    for (const copy of copies) {
      expect(copy.likes.likeCount).toBe(5);
      expect(copy.likedByViewer).toBe(false);
    }
    // Counts are absolute: the same event again (or one about a like already shown) changes nothing.
    apply(liked(post._id, 'u-someone', 5));
    expect(findCachedPost(queryClient, post._id)?.likes.likeCount).toBe(5);
  });

  it('does not count this tab’s own optimistic like twice', () => {
    // Liked in this tab: the count already went from 4 to 5.
    const post = makePost({
      likedByViewer: true,
      likes: {
        likeCount: 5,
        likedBy: [{ _id: viewer._id, id: viewer._id, username: 'ada' }],
        dislikedBy: [],
      },
    });
    seedList({ kind: 'home' }, [post]);
    seedList({ kind: 'liked' }, [post]);

    apply(liked(post._id, viewer._id, 5));

    const [home] = listPosts({ kind: 'home' });
    expect(home?.likes.likeCount).toBe(5);
    expect(home?.likes.likedBy).toEqual([{ _id: viewer._id, id: viewer._id, username: 'ada' }]);
    expect(isStale(postKeys.list({ kind: 'liked' }, 'latest'))).toBe(false);
  });

  it('shows the viewer’s like from another tab as theirs, and their unlike too', () => {
    const post = makePost({ likes: { likeCount: 2, likedBy: [], dislikedBy: [] } });
    seedList({ kind: 'home' }, [post]);
    seedList({ kind: 'liked' }, [makePost()]);

    apply(liked(post._id, viewer._id, 3));

    let [home] = listPosts({ kind: 'home' });
    expect(home?.likedByViewer).toBe(true);
    expect(home?.likes.likeCount).toBe(3);
    expect(home?.likes.likedBy).toEqual([{ _id: viewer._id, id: viewer._id, username: 'ada' }]);
    expect(isStale(postKeys.list({ kind: 'liked' }, 'latest'))).toBe(true);

    seedList({ kind: 'liked' }, listPosts({ kind: 'home' }));
    apply({
      type: 'post.unliked',
      payload: { postId: post._id, postAuthorId: 'u-grace', userId: viewer._id, likeCount: 2 },
    });

    [home] = listPosts({ kind: 'home' });
    expect(home?.likedByViewer).toBe(false);
    expect(home?.likes.likedBy).toEqual([]);
    expect(home?.likes.likeCount).toBe(2);
    expect(listPosts({ kind: 'liked' })).toEqual([]);
  });

  it('leaves the viewer’s flag to a toggle still on its way in this tab', async () => {
    const post = makePost({ likes: { likeCount: 2, likedBy: [], dislikedBy: [] } });
    seedList({ kind: 'home' }, [post]);
    const pending = new MutationObserver(queryClient, {
      mutationKey: ['posts', 'like'],
      scope: { id: `posts:like:${post._id}` },
      mutationFn: () => new Promise<never>(() => undefined),
    });
    void pending.mutate();
    await Promise.resolve();

    apply(liked(post._id, viewer._id, 3));

    const [home] = listPosts({ kind: 'home' });
    expect(home?.likes.likeCount).toBe(3);
    expect(home?.likedByViewer).toBe(false);
  });
});

describe('comments', () => {
  function seedComments(postId: string, comments: Comment[]) {
    const data: CommentPages = { pages: [{ comments, nextCursor: null }], pageParams: [null] };
    queryClient.setQueryData(commentKeys.post(postId), data);
  }

  it('sets the comment count and fetches the comments shown again for a new one', () => {
    const post = makePost({ commentCount: 1 });
    seedList({ kind: 'home' }, [post]);
    queryClient.setQueryData(postKeys.detail(post._id), post);
    const known = makeComment({ postId: post._id });
    seedComments(post._id, [known]);

    apply({
      type: 'comment.added',
      payload: {
        postId: post._id,
        commentId: known._id,
        postAuthorId: 'u-grace',
        userId: viewer._id,
        commentCount: 1,
      },
    });
    // Already shown (added in this tab): nothing to fetch.
    expect(isStale(commentKeys.post(post._id))).toBe(false);

    apply({
      type: 'comment.added',
      payload: {
        postId: post._id,
        commentId: 'c-new',
        postAuthorId: 'u-grace',
        userId: 'u-bo',
        commentCount: 2,
      },
    });

    for (const copy of cachedEverywhere(post._id)) expect(copy.commentCount).toBe(2);
    expect(isStale(commentKeys.post(post._id))).toBe(true);
  });

  it('takes a deleted comment out and sets the count', () => {
    const post = makePost({ commentCount: 2 });
    seedList({ kind: 'explore' }, [post]);
    const first = makeComment();
    const second = makeComment();
    seedComments(post._id, [first, second]);

    apply({
      type: 'comment.deleted',
      payload: {
        postId: post._id,
        commentId: first._id,
        commentCount: 1,
      },
    });

    expect(listPosts({ kind: 'explore' })[0]?.commentCount).toBe(1);
    const comments = queryClient.getQueryData<CommentPages>(commentKeys.post(post._id));
    expect(comments?.pages[0]?.comments.map((comment) => comment._id)).toEqual([second._id]);
  });

  it("sets a voted comment's counts and keeps the viewer's own vote", () => {
    const post = makePost({ commentCount: 2 });
    const mine = { _id: viewer._id, id: viewer._id, username: viewer.username };
    const voted = makeComment();
    const votedByMe = { ...voted, votes: { ...voted.votes, upvoteCount: 1, upvotedBy: [mine] } };
    const other = makeComment();
    seedComments(post._id, [votedByMe, other]);

    apply({
      type: 'comment.voted',
      payload: { postId: post._id, commentId: voted._id, upvoteCount: 3, downvoteCount: 1 },
    });

    const comments = queryClient.getQueryData<CommentPages>(commentKeys.post(post._id));
    const [first, second] = comments?.pages[0]?.comments ?? [];
    expect(first?.votes).toEqual({ ...votedByMe.votes, upvoteCount: 3, downvoteCount: 1 });
    expect(second).toBe(other);
  });
});

describe('posts', () => {
  it('takes a deleted post out of every list', () => {
    const post = makePost();
    const other = makePost();
    seedList({ kind: 'home' }, [post, other]);
    seedList({ kind: 'bookmarks' }, [post]);
    queryClient.setQueryData(postKeys.detail(post._id), post);
    context.newPosts.add(post._id);

    apply({ type: 'post.deleted', payload: { postId: post._id, authorId: 'u-grace' } });

    expect(listPosts({ kind: 'home' })).toEqual([other]);
    expect(listPosts({ kind: 'bookmarks' })).toEqual([]);
    expect(queryClient.getQueryData(postKeys.detail(post._id))).toBeUndefined();
    expect(context.newPosts.getSnapshot()).toBe(0);
  });

  it('counts a followed member’s new post for Home without inserting it', () => {
    const shown = makePost();
    seedList({ kind: 'home' }, [shown]);

    apply({ type: 'post.created', payload: { postId: 'p-new-1', authorId: 'u-grace' } });
    apply({ type: 'post.created', payload: { postId: 'p-new-2', authorId: 'u-grace' } });
    apply({ type: 'post.created', payload: { postId: 'p-new-2', authorId: 'u-grace' } });
    // Already on Home: not new.
    apply({ type: 'post.created', payload: { postId: shown._id, authorId: 'u-grace' } });

    expect(context.newPosts.getSnapshot()).toBe(2);
    expect(listPosts({ kind: 'home' })).toEqual([shown]);
    expect(isStale(postKeys.list({ kind: 'home' }, 'latest'))).toBe(false);
  });

  it('does not count new posts before Home has loaded (its first page brings them)', () => {
    apply({ type: 'post.created', payload: { postId: 'p-new', authorId: 'u-grace' } });
    expect(context.newPosts.getSnapshot()).toBe(0);
  });

  it('refreshes Home for the viewer’s own post from another tab', () => {
    seedList({ kind: 'home' }, [makePost()]);
    seedList({ kind: 'user', username: 'ada' }, []);
    seedList({ kind: 'explore' }, [makePost()]);

    apply({ type: 'post.created', payload: { postId: 'p-mine', authorId: viewer._id } });

    expect(context.newPosts.getSnapshot()).toBe(0);
    expect(isStale(postKeys.list({ kind: 'home' }, 'latest'))).toBe(true);
    expect(isStale(postKeys.list({ kind: 'user', username: 'ada' }, 'latest'))).toBe(true);
    expect(isStale(postKeys.list({ kind: 'explore' }, 'latest'))).toBe(false);
  });

  it('fetches an edited post and shows its new text and tags wherever it is', async () => {
    const post = makePost({ content: 'Before' });
    seedList({ kind: 'home' }, [post]);
    seedList({ kind: 'liked' }, [post]);
    const entities = [{ type: 'tag' as const, tag: 'after', start: 0, end: 6 }];
    server.use(
      http.get(`/api/posts/${post._id}`, () =>
        HttpResponse.json({
          post: {
            ...post,
            content: '#After',
            entities,
            contentWarning: 'Now warned',
            sensitive: true,
            updatedAt: '2026-11-23T10:00:00.000Z',
          },
        }),
      ),
    );

    apply({ type: 'post.edited', payload: { postId: post._id, authorId: 'u-grace' } });

    await expect.poll(() => listPosts({ kind: 'home' })[0]?.content).toBe('#After');
    expect(listPosts({ kind: 'home' })[0]?.entities).toEqual(entities);
    expect(listPosts({ kind: 'home' })[0]).toMatchObject({
      contentWarning: 'Now warned',
      sensitive: true,
    });
    expect(listPosts({ kind: 'liked' })[0]?.content).toBe('#After');
  });
});

describe('follows', () => {
  const bo = makeUser({
    _id: 'u-bo',
    username: 'bo',
    email: undefined,
    followersCount: 7,
    followedByViewer: false,
  });

  it('sets the counts of both members, and the viewer’s follow from another tab', () => {
    queryClient.setQueryData(userKeys.profile('bo'), bo);
    queryClient.setQueryData<UserPage>(userKeys.suggestions, { users: [bo], nextCursor: null });
    queryClient.setQueryData(userKeys.profile('ada'), viewer);

    apply({
      type: 'member.followed',
      payload: { followerId: viewer._id, followeeId: bo._id, followersCount: 8, followingCount: 2 },
    });

    const profile = queryClient.getQueryData<User>(userKeys.profile('bo'));
    expect(profile).toMatchObject({ followersCount: 8, followedByViewer: true });
    expect(queryClient.getQueryData<UserPage>(userKeys.suggestions)?.users[0]).toMatchObject({
      followersCount: 8,
    });
    expect(queryClient.getQueryData<User>(userKeys.profile('ada'))?.followingCount).toBe(2);
    expect(store.getSnapshot().session?.user.followingCount).toBe(2);
    expect(isStale(userKeys.suggestions)).toBe(true);
  });

  it('counts a new follower of the viewer', () => {
    queryClient.setQueryData(userKeys.profile('ada'), viewer);
    queryClient.setQueryData(userKeys.profile('bo'), bo);

    apply({
      type: 'member.followed',
      payload: { followerId: bo._id, followeeId: viewer._id, followersCount: 3, followingCount: 5 },
    });

    expect(queryClient.getQueryData<User>(userKeys.profile('ada'))?.followersCount).toBe(3);
    expect(store.getSnapshot().session?.user.followersCount).toBe(3);
    expect(queryClient.getQueryData<User>(userKeys.profile('bo'))).toMatchObject({
      followingCount: 5,
      followedByViewer: false,
    });
  });
});

describe('bookmarks, profiles and notifications', () => {
  it('sets the viewer’s bookmark flag and refreshes the bookmarks list', () => {
    const post = makePost();
    seedList({ kind: 'home' }, [post]);
    seedList({ kind: 'bookmarks' }, []);

    apply({ type: 'bookmark.added', payload: { userId: viewer._id, postId: post._id } });

    expect(listPosts({ kind: 'home' })[0]?.bookmarkedByViewer).toBe(true);
    expect(isStale(postKeys.list({ kind: 'bookmarks' }, 'latest'))).toBe(true);

    apply({ type: 'bookmark.removed', payload: { userId: 'u-other', postId: post._id } });
    expect(listPosts({ kind: 'home' })[0]?.bookmarkedByViewer).toBe(true);
  });

  it('marks the edited member’s profile out of date', () => {
    queryClient.setQueryData(userKeys.profile('grace_h'), makeUser({ _id: 'u-grace' }));
    queryClient.setQueryData(userKeys.profile('bo'), makeUser({ _id: 'u-bo' }));

    apply({ type: 'profile.edited', payload: { userId: 'u-grace' } });

    expect(isStale(userKeys.profile('grace_h'))).toBe(true);
    expect(isStale(userKeys.profile('bo'))).toBe(false);
  });

  it('reads everything shown again when a member deletes their account', () => {
    seedList({ kind: 'home' }, [makePost()]);
    queryClient.setQueryData(userKeys.profile('grace_h'), makeUser({ _id: 'u-grace' }));

    apply({ type: 'member.deleted', payload: { userId: 'u-grace' } });

    expect(isStale(postKeys.list({ kind: 'home' }, 'latest'))).toBe(true);
    expect(isStale(userKeys.profile('grace_h'))).toBe(true);
  });

  it('sets the unread count', () => {
    apply({ type: 'notifications.changed', payload: { userId: viewer._id, unreadCount: 4 } });
    expect(queryClient.getQueryData(notificationKeys.unread)).toEqual({ unreadCount: 4 });

    apply({ type: 'notifications.changed', payload: { userId: 'u-other', unreadCount: 9 } });
    expect(queryClient.getQueryData(notificationKeys.unread)).toEqual({ unreadCount: 4 });
  });
});
