import type { Post } from '@perch/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import toast from 'react-hot-toast';
import { toastToggleQueued } from '../../shared/offlineQueue/messages';
import {
  findCachedPost,
  insertPostIntoLists,
  removePostFromLists,
  restoreRemovedPosts,
  updatePostInCaches,
  type RemovedFrom,
} from './postCache';
import type { FeedSource } from './postKeys';
import {
  postToggleMutationKey,
  postToggleScope,
  resyncAfterConflict,
  type OptimisticToggle,
  type PostToggleKind,
} from './postToggles';

/** The list a toggle puts the post in or takes it out of (the liked posts, the bookmarks, …). */
export interface ToggledList<A> {
  filter: (source: FeedSource) => boolean;
  /** Whether the action puts the post in the list (else it takes it out). */
  adds: (action: A) => boolean;
  /** Where it goes: first, or at its place in each list's sort order. */
  order?: 'top';
}

/** What one kind of toggle does; the hook does the rest the same way for every kind. */
export interface PostToggleSpec<A> {
  kind: PostToggleKind;
  postId: string;
  /** Sends the action or keeps it in the offline queue (null: it waits on this device). */
  send: (action: A) => Promise<{ post: Post } | null>;
  /** The post as it looks once the action is made, shown before the server answers. */
  apply: (post: Post, action: A) => Post;
  /** The cached post with the toggle's fields taken from `from` (the answer, or the post before). */
  keep: (cached: Post, from: Post) => Post;
  list?: ToggledList<A>;
  /** The toast for a refusal. */
  refused: (action: A, error: unknown) => string;
  /** Said once the server took it. */
  sent?: (action: A) => void;
}

/**
 * A toggle of a post (like, bookmark, pin, repost) shown at once in every list and count that
 * holds the post, then confirmed with the server; a refusal puts everything back and says why.
 * Toggles of one post and kind reach the server in the order made, and run even offline: one the
 * server cannot get waits in the offline queue.
 */
export function usePostToggle<A>(spec: PostToggleSpec<A>) {
  const queryClient = useQueryClient();
  const { kind, postId, list } = spec;
  return useMutation({
    mutationKey: postToggleMutationKey(kind),
    scope: postToggleScope(kind, postId),
    networkMode: 'always',
    mutationFn: spec.send,
    onMutate: (action): OptimisticToggle => {
      const previous = findCachedPost(queryClient, postId);
      updatePostInCaches(queryClient, postId, (post) => spec.apply(post, action));
      const current = findCachedPost(queryClient, postId);
      let removed: RemovedFrom[] = [];
      let added = false;
      if (list?.adds(action) && current) {
        // Who reposted it is Home's own note: the post joins other lists without it.
        const { repostedBy: _home, ...post } = current;
        insertPostIntoLists(queryClient, post, list.filter, list.order);
        added = true;
      } else if (list && !list.adds(action)) {
        removed = removePostFromLists(queryClient, postId, list.filter);
      }
      return { previous, removed, added };
    },
    onSuccess: (answer, action) => {
      if (answer === null) {
        toastToggleQueued();
        return;
      }
      updatePostInCaches(queryClient, postId, (cached) => spec.keep(cached, answer.post));
      spec.sent?.(action);
    },
    onError: (error, action, context) => {
      const previous = context?.previous;
      if (previous) updatePostInCaches(queryClient, postId, (post) => spec.keep(post, previous));
      if (context?.added && list) removePostFromLists(queryClient, postId, list.filter);
      if (context) restoreRemovedPosts(queryClient, context.removed);
      toast.error(spec.refused(action, error));
      resyncAfterConflict(queryClient, error);
    },
  });
}
