import type { Comment, Post, User } from '@perch/contract';
import type { QueryClient, QueryKey } from '@tanstack/react-query';
import { fetchCurrentUser } from '../../entities/session/auth.api';
import type { SessionStore } from '../../entities/session/session';
import { commentKeys, type CommentPages } from '../../entities/comment/comments.queries';
import { notificationKeys } from '../../entities/notification/notificationKeys';
import { setUnreadCount } from '../../entities/notification/notifications.queries';
import {
  findCachedPost,
  isSource,
  removePostFromLists,
  updatePostInCaches,
  type PostPages,
} from '../../entities/post/postCache';
import { postKeys, type FeedSource } from '../../entities/post/postKeys';
import { fetchPost } from '../../entities/post/posts.api';
import { invalidateHiddenContent, safetyMutationKey } from '../../entities/safety/safetyCache';
import { findCachedUser, showsUser, updateUserInCaches } from '../../entities/member/userCache';
import { editProfileMutationKey, followMutationKey, userKeys } from '../../entities/member/users.queries';
import type { LiveEvent, LiveEventPayloads } from '../../shared/live/liveEventTypes';
import type { NewPostsStore } from '../../shared/live/newPosts';

/** What the live events change: the query cache, the session record and Home's new posts. */
export interface LiveContext {
  queryClient: QueryClient;
  store: SessionStore;
  newPosts: NewPostsStore;
}

type Viewer = Pick<User, '_id' | 'username'>;

const listsOf = (kind: FeedSource['kind']): QueryKey => [...postKeys.lists(), { kind }];

/** Whether this tab has a toggle of the same kind on its way for the post (it settles itself). */
function togglePending(queryClient: QueryClient, kind: 'like' | 'bookmark', postId: string) {
  const scope = `posts:${kind}:${postId}`;
  return (
    queryClient.getMutationCache().findAll({
      mutationKey: ['posts', kind],
      status: 'pending',
      predicate: (mutation) => mutation.options.scope?.id === scope,
    }).length > 0
  );
}

/** Whether a loaded list of posts of this kind holds the post. */
function listHolds(queryClient: QueryClient, kind: FeedSource['kind'], postId: string): boolean {
  return queryClient
    .getQueriesData<PostPages>({ queryKey: listsOf(kind) })
    .some(([, data]) => data?.pages.some((page) => page.posts.some((post) => post._id === postId)));
}

function homeLoaded(queryClient: QueryClient): boolean {
  return queryClient
    .getQueriesData<PostPages>({ queryKey: listsOf('home') })
    .some(([, data]) => data !== undefined);
}

/** The post as it looks when the viewer likes it (or not); the count is left alone. */
function withViewerLike(post: Post, liked: boolean, viewer: Viewer): Post {
  const likedBy = post.likes.likedBy.filter((ref) => ref._id !== viewer._id);
  return {
    ...post,
    likedByViewer: liked,
    likes: {
      ...post.likes,
      likedBy: liked
        ? [...likedBy, { _id: viewer._id, id: viewer._id, username: viewer.username }]
        : likedBy,
    },
  };
}

/** Profiles and member lists showing this member are out of date (e.g. their post count). */
function invalidateMember(queryClient: QueryClient, userId: string): void {
  void queryClient.invalidateQueries({
    queryKey: userKeys.all,
    predicate: (query) => showsUser(query.state.data, userId),
  });
}

function onLike(
  { queryClient }: LiveContext,
  viewer: Viewer,
  { postId, userId, likeCount }: LiveEventPayloads['post.liked'],
  liked: boolean,
): void {
  // The viewer's own like from another tab (this tab's own toggles settle themselves).
  const own = userId === viewer._id && !togglePending(queryClient, 'like', postId);
  const before = findCachedPost(queryClient, postId);
  updatePostInCaches(queryClient, postId, (post) => {
    const next = own && post.likedByViewer !== liked ? withViewerLike(post, liked, viewer) : post;
    if (next === post && post.likes.likeCount === likeCount) return post;
    return { ...next, likes: { ...next.likes, likeCount } };
  });
  if (!own || before?.likedByViewer === liked) return;
  if (liked) void queryClient.invalidateQueries({ queryKey: listsOf('liked') });
  else removePostFromLists(queryClient, postId, isSource('liked'));
}

function setCommentCount(queryClient: QueryClient, postId: string, commentCount: number): void {
  updatePostInCaches(queryClient, postId, (post) =>
    post.commentCount === commentCount ? post : { ...post, commentCount },
  );
}

function cachedComments(queryClient: QueryClient, postId: string): Comment[] | undefined {
  return queryClient
    .getQueryData<CommentPages>(commentKeys.post(postId))
    ?.pages.flatMap((page) => page.comments);
}

function updateCachedComment(
  queryClient: QueryClient,
  postId: string,
  commentId: string,
  update: (comment: Comment) => Comment,
): void {
  queryClient.setQueryData<CommentPages>(commentKeys.post(postId), (data) =>
    data?.pages.some((page) => page.comments.some((item) => item._id === commentId))
      ? {
          ...data,
          pages: data.pages.map((page) => ({
            ...page,
            comments: page.comments.map((item) => (item._id === commentId ? update(item) : item)),
          })),
        }
      : data,
  );
}

function onComment(queryClient: QueryClient, event: LiveEvent): void {
  switch (event.type) {
    case 'comment.added': {
      const { postId, commentId, commentCount } = event.payload;
      setCommentCount(queryClient, postId, commentCount);
      const comments = cachedComments(queryClient, postId);
      if (comments && !comments.some((comment) => comment._id === commentId)) {
        void queryClient.invalidateQueries({ queryKey: commentKeys.post(postId), exact: true });
      }
      return;
    }
    case 'comment.edited': {
      const { postId } = event.payload;
      if (cachedComments(queryClient, postId)) {
        void queryClient.invalidateQueries({ queryKey: commentKeys.post(postId), exact: true });
      }
      return;
    }
    case 'comment.voted': {
      const { postId, commentId, upvoteCount, downvoteCount } = event.payload;
      updateCachedComment(queryClient, postId, commentId, (comment) =>
        comment.votes.upvoteCount === upvoteCount && comment.votes.downvoteCount === downvoteCount
          ? comment
          : { ...comment, votes: { ...comment.votes, upvoteCount, downvoteCount } },
      );
      return;
    }
    case 'comment.deleted': {
      const { postId, commentId, commentCount } = event.payload;
      setCommentCount(queryClient, postId, commentCount);
      queryClient.setQueryData<CommentPages>(commentKeys.post(postId), (data) => {
        if (!data?.pages.some((page) => page.comments.some((item) => item._id === commentId))) {
          return data;
        }
        return {
          ...data,
          pages: data.pages.map((page) => ({
            ...page,
            comments: page.comments.filter((item) => item._id !== commentId),
          })),
        };
      });
      return;
    }
    default:
      return;
  }
}

function onPostCreated(
  { queryClient, newPosts }: LiveContext,
  viewer: Viewer,
  { postId, authorId }: LiveEventPayloads['post.created'],
): void {
  invalidateMember(queryClient, authorId);
  if (listHolds(queryClient, 'home', postId)) return;
  if (authorId === viewer._id) {
    // Posted in another tab (this tab puts its own posts in place when the server answers).
    if (queryClient.isMutating({ mutationKey: ['posts', 'create'] }) > 0) return;
    void queryClient.invalidateQueries({ queryKey: listsOf('home') });
    void queryClient.invalidateQueries({
      queryKey: [...postKeys.lists(), { kind: 'user', username: viewer.username }],
    });
    return;
  }
  // A followed member's post: offered on Home, not inserted. Before Home loads, its first page
  // will bring the post anyway.
  if (homeLoaded(queryClient)) newPosts.add(postId);
}

function onPostEdited(queryClient: QueryClient, token: string, postId: string): void {
  if (!findCachedPost(queryClient, postId)) return;
  fetchPost(postId, token).then(
    ({ post }) => {
      updatePostInCaches(queryClient, postId, (cached) => ({
        ...cached,
        content: post.content,
        entities: post.entities,
        mediaURL: post.mediaURL,
        updatedAt: post.updatedAt,
      }));
    },
    () => undefined, // Deleted meanwhile, or offline: the next event or load settles it.
  );
}

function onPostDeleted(
  { queryClient, newPosts }: LiveContext,
  { postId, authorId }: LiveEventPayloads['post.deleted'],
): void {
  newPosts.remove(postId);
  removePostFromLists(queryClient, postId);
  queryClient.removeQueries({ queryKey: postKeys.detail(postId), exact: true });
  queryClient.removeQueries({ queryKey: commentKeys.post(postId), exact: true });
  invalidateMember(queryClient, authorId);
}

function onFollow(
  { queryClient, store }: LiveContext,
  viewer: User,
  payload: LiveEventPayloads['member.followed'],
  follow: boolean,
): void {
  const { followerId, followeeId, followersCount, followingCount } = payload;
  // The viewer's own follow from another tab (this tab's follows settle themselves).
  const own =
    followerId === viewer._id && queryClient.isMutating({ mutationKey: followMutationKey }) === 0;
  const before = findCachedUser(queryClient, followeeId);

  updateUserInCaches(queryClient, followeeId, (user) => ({
    ...user,
    followersCount,
    ...(own ? { followedByViewer: follow } : {}),
  }));
  updateUserInCaches(queryClient, followerId, (user) => ({ ...user, followingCount }));
  if (followeeId === viewer._id && viewer.followersCount !== followersCount) {
    store.updateUser({ ...viewer, followersCount });
  }
  if (followerId === viewer._id && viewer.followingCount !== followingCount) {
    store.updateUser({ ...viewer, followingCount });
  }

  if (own && before?.followedByViewer !== follow) {
    void queryClient.invalidateQueries({ queryKey: userKeys.suggestions });
    // Home changes with whom the member follows; it shows that on its next load, not now.
    void queryClient.invalidateQueries({ queryKey: postKeys.lists(), refetchType: 'none' });
  }
}

function onBookmark(
  { queryClient }: LiveContext,
  { postId }: LiveEventPayloads['bookmark.added'],
  added: boolean,
): void {
  if (togglePending(queryClient, 'bookmark', postId)) return;
  updatePostInCaches(queryClient, postId, (post) =>
    post.bookmarkedByViewer === added ? post : { ...post, bookmarkedByViewer: added },
  );
  void queryClient.invalidateQueries({ queryKey: listsOf('bookmarks') });
}

function onProfileEdited(
  { queryClient, store }: LiveContext,
  viewer: User,
  token: string,
  userId: string,
): void {
  invalidateMember(queryClient, userId);
  // Posts and comments carry their author's name and avatar: fresh on their next load.
  void queryClient.invalidateQueries({ queryKey: postKeys.all, refetchType: 'none' });
  void queryClient.invalidateQueries({ queryKey: ['comments'], refetchType: 'none' });
  if (userId !== viewer._id) return;
  if (queryClient.isMutating({ mutationKey: editProfileMutationKey }) > 0) return;
  fetchCurrentUser(token).then(
    ({ user }) => {
      store.updateUser(user);
    },
    () => undefined,
  );
}

/**
 * The member blocked, unblocked, muted or unmuted someone in another tab or device: what that
 * hides or brings back is read again. This tab's own changes refresh it themselves.
 */
function onSafetyChange(
  { queryClient }: LiveContext,
  viewer: Viewer,
  event: Extract<
    LiveEvent,
    { type: 'member.blocked' | 'member.unblocked' | 'member.muted' | 'member.unmuted' }
  >,
): void {
  const { userId, targetId } = event.payload;
  if (userId !== viewer._id) return;
  if (queryClient.isMutating({ mutationKey: safetyMutationKey }) > 0) return;
  const target = findCachedUser(queryClient, targetId);
  const shown =
    event.type === 'member.blocked' || event.type === 'member.unblocked'
      ? target?.viewerBlocks === (event.type === 'member.blocked')
      : target?.viewerMutes === (event.type === 'member.muted');
  if (shown) return;
  invalidateHiddenContent(
    queryClient,
    event.type === 'member.blocked' && target ? { blockedUsername: target.username } : {},
  );
}

/**
 * Applies one event of the member's stream to what the app shows. Counts in events are
 * absolute (the value after the change), so they are set, never added: an event about a change
 * this tab already shows (its own like, follow or comment) changes nothing.
 */
export function applyLiveEvent(context: LiveContext, event: LiveEvent): void {
  const session = context.store.getSnapshot().session;
  if (session === null) return;
  const { queryClient } = context;
  const viewer = session.user;

  switch (event.type) {
    case 'post.liked':
    case 'post.unliked':
      onLike(context, viewer, event.payload, event.type === 'post.liked');
      return;
    case 'comment.added':
    case 'comment.edited':
    case 'comment.voted':
    case 'comment.deleted':
      onComment(queryClient, event);
      return;
    case 'post.created':
      onPostCreated(context, viewer, event.payload);
      return;
    case 'post.edited':
      onPostEdited(queryClient, session.token, event.payload.postId);
      return;
    case 'post.deleted':
      onPostDeleted(context, event.payload);
      return;
    case 'member.followed':
    case 'member.unfollowed':
      onFollow(context, viewer, event.payload, event.type === 'member.followed');
      return;
    case 'bookmark.added':
    case 'bookmark.removed':
      if (event.payload.userId !== viewer._id) return;
      onBookmark(context, event.payload, event.type === 'bookmark.added');
      return;
    case 'profile.edited':
      onProfileEdited(context, viewer, session.token, event.payload.userId);
      return;
    case 'notifications.changed': {
      const { userId, unreadCount } = event.payload;
      if (userId !== viewer._id) return;
      setUnreadCount(queryClient, unreadCount);
      // Something arrived: an open notifications page shows it.
      if (unreadCount > 0) void queryClient.invalidateQueries({ queryKey: notificationKeys.list });
      return;
    }
    case 'members.mentioned':
      // The mentioned member's notification arrives with its own 'notifications.changed'.
      return;
    case 'member.deleted':
      // The member and everything of theirs are gone, which changes lists and counts anywhere:
      // what is shown is read again (for the viewer's own account, that answers 401).
      resyncEverything(context);
      return;
    case 'member.blocked':
    case 'member.unblocked':
    case 'member.muted':
    case 'member.unmuted':
      onSafetyChange(context, viewer, event);
      return;
    case 'sessions.revoked':
      // Nothing to update: the server then closes the stream of a revoked session, and its
      // token's next call answers 401, which signs the app out.
      return;
  }
}

/** Everything shown may be out of date (events were missed): fetch it again. */
export function resyncEverything(context: LiveContext): void {
  void context.queryClient.invalidateQueries();
}
