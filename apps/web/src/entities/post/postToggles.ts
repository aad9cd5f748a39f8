import type { Post } from '@perch/contract';
import type { QueryClient } from '@tanstack/react-query';
import { isApiError } from '../../shared/lib/api';
import type { RemovedFrom } from './postCache';
import { postKeys } from './postKeys';

/**
 * A like, bookmark, pin or repost toggle of a post, which this tab puts in place before the
 * server answers.
 */
export type PostToggleKind = 'like' | 'bookmark' | 'pin' | 'repost';

export const postToggleMutationKey = (kind: PostToggleKind) => ['posts', kind] as const;

/** Toggles of one post and kind share a scope, so they reach the server in the order made. */
export const postToggleScope = (kind: PostToggleKind, postId: string) => ({
  id: `posts:${kind}:${postId}`,
});

/** Whether this tab has a toggle of the same kind on its way for the post (it settles itself). */
export function postTogglePending(
  queryClient: QueryClient,
  kind: PostToggleKind,
  postId: string,
): boolean {
  const scope = postToggleScope(kind, postId).id;
  return (
    queryClient.getMutationCache().findAll({
      mutationKey: postToggleMutationKey(kind),
      status: 'pending',
      predicate: (mutation) => mutation.options.scope?.id === scope,
    }).length > 0
  );
}

/** What an optimistic toggle changed, to put back when the server refuses it. */
export interface OptimisticToggle {
  previous: Post | undefined;
  removed: RemovedFrom[];
  added: boolean;
}

/** A refused toggle means this tab's view was out of date: fetch the truth again. */
export function resyncAfterConflict(queryClient: QueryClient, error: unknown): void {
  if (isApiError(error) && error.status === 400) {
    void queryClient.invalidateQueries({ queryKey: postKeys.all });
  }
}
