import type { LiveEventHandler, LiveEventHandlersFor } from '../../shared/live/liveEventHandlers';
import { resyncEverything } from '../../shared/live/liveEventHandlers';
import { fetchCurrentUser } from '../session/auth.api';
import { findCachedUser, invalidateMember, updateUserInCaches } from './userCache';
import { editProfileMutationKey, followMutationKey, postListsKey, userKeys } from './users.queries';

const onFollow: LiveEventHandler<'member.followed' | 'member.unfollowed'> = (
  { type, payload },
  { queryClient, store, viewer },
) => {
  const follow = type === 'member.followed';
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
    void queryClient.invalidateQueries({ queryKey: postListsKey, refetchType: 'none' });
  }
};

const onProfileEdited: LiveEventHandler<'profile.edited'> = (
  { payload: { userId } },
  { queryClient, store, viewer, token },
) => {
  invalidateMember(queryClient, userId);
  if (userId !== viewer._id) return;
  if (queryClient.isMutating({ mutationKey: editProfileMutationKey }) > 0) return;
  fetchCurrentUser(token).then(
    ({ user }) => {
      store.updateUser(user);
    },
    () => undefined,
  );
};

/**
 * The member and everything of theirs are gone, which changes lists and counts anywhere: what
 * is shown is read again (for the viewer's own account, that answers 401).
 */
const onMemberDeleted: LiveEventHandler<'member.deleted'> = (_event, context) => {
  resyncEverything(context);
};

/** What the events about members change in the members this app has loaded. */
export const memberLiveHandlers = {
  'member.followed': onFollow,
  'member.unfollowed': onFollow,
  'profile.edited': onProfileEdited,
  'member.deleted': onMemberDeleted,
} satisfies LiveEventHandlersFor<
  'member.followed' | 'member.unfollowed' | 'profile.edited' | 'member.deleted'
>;
