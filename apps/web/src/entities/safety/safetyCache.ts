import type { User, UserPage } from '@perch/contract';
import type { InfiniteData, QueryClient } from '@tanstack/react-query';
import { commentKeys } from '../comment/comments.queries';
import { notificationKeys } from '../notification/notificationKeys';
import { parseListKey, postKeys } from '../post/postKeys';
import { updateUserInCaches } from '../member/userCache';
import { userKeys } from '../member/users.queries';
import type { SafetyAction, SafetyListKind } from './safety.api';

/** Query keys of the member's blocked and muted lists (each loaded page by page). */
export const safetyKeys = {
  all: ['safety'] as const,
  list: (kind: SafetyListKind) => ['safety', kind] as const,
};

export const safetyMutationKey = ['safety', 'change'] as const;

export type SafetyListPages = InfiniteData<UserPage>;

/** The list an action changes, and whether the member joins it or leaves it. */
export function listChangedBy(action: SafetyAction): { kind: SafetyListKind; joins: boolean } {
  switch (action) {
    case 'block':
      return { kind: 'blocked', joins: true };
    case 'unblock':
      return { kind: 'blocked', joins: false };
    case 'mute':
      return { kind: 'muted', joins: true };
    case 'unmute':
      return { kind: 'muted', joins: false };
  }
}

/** The member's record once the viewer blocked, unblocked, muted or unmuted them. */
function withSafetyAction(user: User, action: SafetyAction): User {
  switch (action) {
    case 'block':
      // Blocking ends the follows between the two members.
      return { ...user, viewerBlocks: true, followedByViewer: false };
    case 'unblock':
      return { ...user, viewerBlocks: false };
    case 'mute':
      return { ...user, viewerMutes: true };
    case 'unmute':
      return { ...user, viewerMutes: false };
  }
}

/**
 * Shows the action at once wherever the member is cached (their profile above all), and takes
 * them off the blocked or muted list they left.
 */
export function showSafetyAction(queryClient: QueryClient, userId: string, action: SafetyAction) {
  updateUserInCaches(queryClient, userId, (user) => withSafetyAction(user, action));
  const { kind, joins } = listChangedBy(action);
  if (joins) return;
  queryClient.setQueryData<SafetyListPages>(safetyKeys.list(kind), (data) =>
    data?.pages.some((page) => page.users.some((user) => user._id === userId))
      ? {
          ...data,
          pages: data.pages.map((page) => ({
            ...page,
            users: page.users.filter((user) => user._id !== userId),
          })),
        }
      : data,
  );
}

/**
 * A block or mute changes what the server shows the viewer nearly everywhere: every feed, post
 * page, comment list, search and tag page, who-to-follow, notification and profile is read
 * again, as are the blocked and muted lists. The posts of a member just blocked (`blockedUsername`)
 * are only marked stale: their profile no longer shows them, so they are not fetched.
 */
export function invalidateHiddenContent(
  queryClient: QueryClient,
  { blockedUsername }: { blockedUsername?: string } = {},
): void {
  const isBlockedMembersPosts = (queryKey: readonly unknown[]) => {
    const source = parseListKey(queryKey)?.source;
    return (
      blockedUsername !== undefined &&
      source?.kind === 'user' &&
      source.username.toLowerCase() === blockedUsername.toLowerCase()
    );
  };
  void queryClient.invalidateQueries({
    queryKey: postKeys.all,
    predicate: ({ queryKey }) => !isBlockedMembersPosts(queryKey),
  });
  void queryClient.invalidateQueries({
    queryKey: postKeys.lists(),
    predicate: ({ queryKey }) => isBlockedMembersPosts(queryKey),
    refetchType: 'none',
  });
  void queryClient.invalidateQueries({ queryKey: commentKeys.all });
  void queryClient.invalidateQueries({ queryKey: userKeys.all });
  void queryClient.invalidateQueries({ queryKey: notificationKeys.all });
  void queryClient.invalidateQueries({ queryKey: safetyKeys.all });
}
