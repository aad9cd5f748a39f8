import type { FollowResponse, User, UserEditBody, UserPage } from '@perch/contract';
import {
  keepPreviousData,
  useMutation,
  useMutationState,
  useQuery,
  useQueryClient,
  type QueryClient,
} from '@tanstack/react-query';
import toast from 'react-hot-toast';
import { uploadImage } from '../../shared/lib/upload';
import { toastToggleQueued } from '../../shared/offlineQueue/messages';
import { sendOrQueueToggle } from '../../shared/offlineQueue/toggleQueue';
import { useRequiredSession, useSessionStore } from '../session/SessionProvider';
import type { SessionStore } from '../session/session';
import { usersMessages } from './messages';
import { mapUserInPages, type UserPages } from './userCache';
import {
  editProfile,
  fetchProfile,
  fetchSuggestions,
  followUser,
  searchUsers,
  unfollowUser,
} from './users.api';

export const userKeys = {
  all: ['users'] as const,
  profiles: ['users', 'profile'] as const,
  profile: (username: string) => ['users', 'profile', username] as const,
  searches: ['users', 'search'] as const,
  search: (q: string) => ['users', 'search', q] as const,
  /** The search page's members, loaded page by page (InfiniteData, unlike `search`). */
  searchPageLists: ['users', 'search-pages'] as const,
  searchPages: (q: string) => ['users', 'search-pages', q] as const,
  /** Members offered while typing an @mention. */
  mentions: (q: string) => ['users', 'mentions', q] as const,
  suggestions: ['users', 'suggestions'] as const,
};

/** Every cached post list (home, explore, a member's posts, …): who you follow changes them. */
export const postListsKey = ['posts', 'list'] as const;
/** Everything about posts and comments, which carry their author's name and avatar. */
const postsKey = ['posts'] as const;
const commentsKey = ['comments'] as const;

export const followMutationKey = ['users', 'follow'] as const;
export const editProfileMutationKey = ['users', 'edit'] as const;

/** How many members 'Who to follow?' lists. */
export const SUGGESTIONS_LIMIT = 5;
/** How many matches the search dropdown lists. */
export const SEARCH_LIMIT = 8;

/** A member's profile, by username (any case). Refreshed whenever a profile page opens. */
export function useProfileQuery(username: string) {
  const { token } = useRequiredSession();
  return useQuery({
    queryKey: userKeys.profile(username),
    queryFn: async ({ signal }) => (await fetchProfile(username, { token, signal })).user,
    staleTime: 0,
  });
}

/** Members matching `q` (already trimmed and debounced); idle while `q` is empty. */
export function useUserSearchQuery(q: string) {
  const { token } = useRequiredSession();
  return useQuery({
    queryKey: userKeys.search(q),
    queryFn: ({ signal }) => searchUsers(q, { limit: SEARCH_LIMIT, token, signal }),
    enabled: q !== '',
    placeholderData: keepPreviousData,
  });
}

/** The first members of 'Who to follow?'. */
export function useSuggestionsQuery() {
  const { token } = useRequiredSession();
  return useQuery({
    queryKey: userKeys.suggestions,
    queryFn: ({ signal }) => fetchSuggestions({ limit: SUGGESTIONS_LIMIT, token, signal }),
  });
}

export interface FollowVariables {
  /** The member to follow or unfollow, as currently shown. */
  user: User;
  /** True to follow, false to unfollow. */
  follow: boolean;
}

interface FollowContext {
  /** Where the member stood in 'Who to follow?' before being taken out of it, if they were. */
  suggestionIndex: number | null;
}

const isUser = (data: unknown): data is User =>
  typeof data === 'object' && data !== null && '_id' in data && 'followersCount' in data;

/** Applies `change` to every cached profile of the member with this id. */
function updateCachedProfiles(
  queryClient: QueryClient,
  userId: string,
  change: (user: User) => User,
): void {
  queryClient.setQueriesData<User>({ queryKey: userKeys.profiles }, (cached) =>
    isUser(cached) && cached._id === userId ? change(cached) : cached,
  );
}

/**
 * Shows the viewer as following `target` (or not) wherever the target is cached. Does nothing
 * to a record that already says so, so applying it twice is harmless.
 */
function setFollowedByViewer(queryClient: QueryClient, target: User, follow: boolean): void {
  const change = (user: User): User =>
    user.followedByViewer === follow
      ? user
      : {
          ...user,
          followedByViewer: follow,
          followersCount: Math.max(0, user.followersCount + (follow ? 1 : -1)),
        };
  updateCachedProfiles(queryClient, target._id, change);
  queryClient.setQueriesData<UserPages>({ queryKey: userKeys.searchPageLists }, (data) =>
    data === undefined ? data : mapUserInPages(data, target._id, change),
  );
  queryClient.setQueriesData<UserPage>({ queryKey: userKeys.searches }, (page) =>
    page === undefined
      ? page
      : {
          ...page,
          users: page.users.map((user) => (user._id === target._id ? change(user) : user)),
        },
  );
}

/** Moves the viewer's own following count (session record and own profile) by `delta`. */
function shiftViewerFollowing(queryClient: QueryClient, store: SessionStore, delta: number): void {
  const viewer = store.getSnapshot().session?.user;
  if (!viewer) return;
  const change = (user: User): User => ({
    ...user,
    followingCount: Math.max(0, user.followingCount + delta),
  });
  store.updateUser(change(viewer));
  updateCachedProfiles(queryClient, viewer._id, change);
}

/** Takes the member out of 'Who to follow?'; answers where they were. */
function removeSuggestion(queryClient: QueryClient, userId: string): number | null {
  let index: number | null = null;
  queryClient.setQueryData<UserPage>(userKeys.suggestions, (page) => {
    if (page === undefined) return page;
    const at = page.users.findIndex((user) => user._id === userId);
    if (at === -1) return page;
    index = at;
    return { ...page, users: page.users.filter((user) => user._id !== userId) };
  });
  return index;
}

function restoreSuggestion(queryClient: QueryClient, user: User, index: number): void {
  queryClient.setQueryData<UserPage>(userKeys.suggestions, (page) => {
    if (page === undefined || page.users.some((listed) => listed._id === user._id)) return page;
    const users = [...page.users];
    users.splice(Math.min(index, users.length), 0, { ...user, followedByViewer: false });
    return { ...page, users };
  });
}

/**
 * Follows or unfollows a member. Every cached place the change shows in (their profile and
 * follower count, 'Who to follow?', the viewer's following count in the session and on their
 * own profile) changes at once and is put back if the server refuses.
 */
export function useFollowMutation() {
  const queryClient = useQueryClient();
  const store = useSessionStore();
  const { token, user: member } = useRequiredSession();

  // Only the last of several follow changes in flight refreshes lists and the viewer's record,
  // so an earlier answer cannot undo a later optimistic change.
  const isLastInFlight = () => queryClient.isMutating({ mutationKey: followMutationKey }) <= 1;

  return useMutation<FollowResponse | null, Error, FollowVariables, FollowContext>({
    mutationKey: followMutationKey,
    // Run even offline: a follow the server cannot get waits on this device (the offline queue).
    networkMode: 'always',
    mutationFn: ({ user, follow }) =>
      sendOrQueueToggle(
        {
          kind: 'follow',
          action: follow ? 'follow' : 'unfollow',
          memberId: member._id,
          targetId: user._id,
          token,
        },
        (toggle, sessionToken) =>
          toggle.action === 'follow'
            ? followUser(toggle.targetId, sessionToken)
            : unfollowUser(toggle.targetId, sessionToken),
      ),
    onMutate: async ({ user, follow }) => {
      // A read in flight would overwrite the optimistic change with what it found before it.
      await queryClient.cancelQueries({
        queryKey: userKeys.all,
        predicate: (query) => query.state.data !== undefined,
      });
      setFollowedByViewer(queryClient, user, follow);
      shiftViewerFollowing(queryClient, store, follow ? 1 : -1);
      const suggestionIndex = follow ? removeSuggestion(queryClient, user._id) : null;
      return { suggestionIndex };
    },
    onSuccess: (answer, { follow }) => {
      if (answer === null) {
        toastToggleQueued();
        return;
      }
      const { user: viewer, followUser: target } = answer;
      updateCachedProfiles(queryClient, target._id, (cached) => ({ ...cached, ...target }));
      if (isLastInFlight()) {
        store.updateUser(viewer);
        updateCachedProfiles(queryClient, viewer._id, (cached) => ({ ...cached, ...viewer }));
      }
      void queryClient.invalidateQueries({ queryKey: postListsKey });
      toast.success(
        follow
          ? usersMessages.followed(target.username)
          : usersMessages.unfollowed(target.username),
      );
    },
    onError: (_error, { user, follow }, context) => {
      setFollowedByViewer(queryClient, user, !follow);
      shiftViewerFollowing(queryClient, store, follow ? -1 : 1);
      if (context?.suggestionIndex != null) {
        restoreSuggestion(queryClient, user, context.suggestionIndex);
      }
      // The server may know better (e.g. a follow made in another tab): ask it again.
      void queryClient.invalidateQueries({
        queryKey: userKeys.profiles,
        predicate: (query) => isUser(query.state.data) && query.state.data._id === user._id,
      });
      toast.error(usersMessages.followFailure);
    },
    onSettled: () => {
      // Lets the next member move up into 'Who to follow?'.
      if (isLastInFlight()) void queryClient.invalidateQueries({ queryKey: userKeys.suggestions });
    },
  });
}

/** Ids of the members whose follow or unfollow is on its way to the server. */
export function usePendingFollowIds(): string[] {
  return useMutationState({
    filters: { mutationKey: followMutationKey, status: 'pending' },
    select: (mutation) => (mutation.state.variables as FollowVariables | undefined)?.user._id ?? '',
  });
}

export interface EditProfileVariables {
  /** The new profile; `avatarURL` is the current avatar unless a new one is picked. */
  userData: UserEditBody['userData'];
  /** A newly picked avatar, uploaded first; its address replaces `userData.avatarURL`. */
  avatarFile?: File | null;
  /** Share of the avatar upload done, from 0 to 1. */
  onUploadProgress?: (fraction: number) => void;
  /** Aborts the avatar upload (closing the form). */
  signal?: AbortSignal;
}

/**
 * Saves the signed-in member's profile, uploading a newly picked avatar first. On success the
 * new name and avatar show everywhere: the session record (sidebar), cached profiles, search
 * results and posts.
 */
export function useEditProfileMutation() {
  const queryClient = useQueryClient();
  const store = useSessionStore();
  const { token } = useRequiredSession();

  return useMutation({
    mutationKey: editProfileMutationKey,
    mutationFn: async ({
      userData,
      avatarFile,
      onUploadProgress,
      signal,
    }: EditProfileVariables) => {
      let { avatarURL } = userData;
      if (avatarFile) {
        const uploaded = await uploadImage(avatarFile, {
          token,
          purpose: 'avatar',
          signal,
          onProgress: onUploadProgress,
        });
        avatarURL = uploaded.url;
      }
      signal?.throwIfAborted();
      return (await editProfile({ ...userData, avatarURL }, token)).user;
    },
    onSuccess: (user) => {
      store.updateUser(user);
      updateCachedProfiles(queryClient, user._id, (cached) => ({ ...cached, ...user }));
      void queryClient.invalidateQueries({ queryKey: userKeys.searches });
      void queryClient.invalidateQueries({ queryKey: userKeys.searchPageLists });
      void queryClient.invalidateQueries({ queryKey: userKeys.suggestions });
      void queryClient.invalidateQueries({ queryKey: postsKey });
      void queryClient.invalidateQueries({ queryKey: commentsKey });
      toast.success(usersMessages.profileEdited);
    },
    onError: (_error, { signal }) => {
      if (signal?.aborted) return;
      toast.error(usersMessages.profileEditFailure);
    },
  });
}
