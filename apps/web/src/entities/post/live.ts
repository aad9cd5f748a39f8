import type { QueryClient } from '@tanstack/react-query';
import { invalidateMember } from '../member/userCache';
import {
  handleWithEach,
  type LiveEventHandler,
  type LiveEventHandlersFor,
} from '../../shared/live/liveEventHandlers';
import { onBookmarkEvent } from './bookmark';
import { onLikeEvent } from './like';
import { onPinEvent } from './pin';
import { onQuotedPostDeleted } from './quote';
import { onRepostEvent } from './repost';
import { pollLiveHandlers } from './poll';
import {
  findCachedPost,
  removePostFromLists,
  updatePostInCaches,
  withEdits,
  type PostPages,
} from './postCache';
import { postKeys, type FeedSource } from './postKeys';
import { fetchPost } from './posts.api';

const listsOf = (kind: FeedSource['kind']) => [...postKeys.lists(), { kind }];

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

const onPostCreated: LiveEventHandler<'post.created'> = (
  { payload: { postId, authorId } },
  { queryClient, newPosts, viewer },
) => {
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
};

const onPostEdited: LiveEventHandler<'post.edited'> = (
  { payload: { postId } },
  { queryClient, token },
) => {
  if (!findCachedPost(queryClient, postId)) return;
  fetchPost(postId, token).then(
    ({ post }) => {
      updatePostInCaches(queryClient, postId, (cached) => withEdits(cached, post));
    },
    () => undefined, // Deleted meanwhile, or offline: the next event or load settles it.
  );
};

/** A preview card fetched after the post was written: shown where the post is loaded. */
const onCardAttached: LiveEventHandler<'post.card.attached'> = (
  { payload: { postId, card } },
  { queryClient },
) => {
  updatePostInCaches(queryClient, postId, (cached) => ({ ...cached, card }));
};

const onPostDeleted: LiveEventHandler<'post.deleted'> = (
  { payload: { postId, authorId } },
  { queryClient, newPosts },
) => {
  newPosts.remove(postId);
  removePostFromLists(queryClient, postId);
  queryClient.removeQueries({ queryKey: postKeys.detail(postId), exact: true });
  invalidateMember(queryClient, authorId);
};

/** A followed member's repost brings the post to Home: offered there, as their own posts are. */
const onRepostForHome: LiveEventHandler<'post.reposted'> = (
  { payload: { postId, userId } },
  { queryClient, newPosts, viewer },
) => {
  if (!viewer.following?.some((member) => member._id === userId)) return;
  if (homeLoaded(queryClient) && !listHolds(queryClient, 'home', postId)) {
    newPosts.add(postId, userId);
  }
};

/** An undone repost no longer offers the post, unless its author or another repost brought it. */
const onUnrepostForHome: LiveEventHandler<'post.unreposted'> = (
  { payload: { postId, userId } },
  { newPosts },
) => {
  newPosts.withdraw(postId, userId);
};

/** Posts carry their author's name and avatar: fresh on their next load. */
const onAuthorEdited: LiveEventHandler<'profile.edited'> = (_event, { queryClient }) => {
  void queryClient.invalidateQueries({ queryKey: postKeys.all, refetchType: 'none' });
};

/** What the events about posts change in the posts this app has loaded. */
export const postLiveHandlers = {
  'post.created': onPostCreated,
  'post.edited': onPostEdited,
  'post.deleted': handleWithEach(onPostDeleted, onQuotedPostDeleted),
  'post.card.attached': onCardAttached,
  'post.liked': onLikeEvent,
  'post.unliked': onLikeEvent,
  'post.pinned': onPinEvent,
  'post.unpinned': onPinEvent,
  'post.reposted': handleWithEach(onRepostEvent, onRepostForHome),
  'post.unreposted': handleWithEach(onRepostEvent, onUnrepostForHome),
  'bookmark.added': onBookmarkEvent,
  'bookmark.removed': onBookmarkEvent,
  'profile.edited': onAuthorEdited,
  ...pollLiveHandlers,
} satisfies LiveEventHandlersFor<
  | 'post.created'
  | 'post.edited'
  | 'post.deleted'
  | 'post.card.attached'
  | 'post.liked'
  | 'post.unliked'
  | 'post.pinned'
  | 'post.unpinned'
  | 'post.reposted'
  | 'post.unreposted'
  | 'bookmark.added'
  | 'bookmark.removed'
  | 'profile.edited'
  | 'poll.voted'
  | 'poll.vote.cast'
  | 'poll.ended'
>;
