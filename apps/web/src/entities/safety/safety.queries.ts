import { SafetyToasts, type User } from '@perch/contract';
import { useInfiniteQuery, useMutation, useQueryClient } from '@tanstack/react-query';
import toast from 'react-hot-toast';
import { useRequiredSession } from '../session/SessionProvider';
import {
  applySafetyAction,
  fetchSafetyList,
  type SafetyAction,
  type SafetyListKind,
} from './safety.api';
import {
  invalidateHiddenContent,
  safetyKeys,
  safetyMutationKey,
  showSafetyAction,
} from './safetyCache';

/** Members per page of the blocked and muted lists. */
export const SAFETY_PAGE_SIZE = 20;

const toastOf: Record<SafetyAction, (username: string) => string> = {
  block: SafetyToasts.blocked,
  unblock: SafetyToasts.unblocked,
  mute: SafetyToasts.muted,
  unmute: SafetyToasts.unmuted,
};

/** The members the viewer blocked (or muted), most recent first, page by page. */
export function useSafetyList(kind: SafetyListKind) {
  const { token } = useRequiredSession();
  return useInfiniteQuery({
    queryKey: safetyKeys.list(kind),
    queryFn: ({ pageParam, signal }) =>
      fetchSafetyList(kind, { cursor: pageParam, limit: SAFETY_PAGE_SIZE, token, signal }),
    initialPageParam: null as string | null,
    getNextPageParam: (lastPage) => lastPage.nextCursor,
    staleTime: 0,
  });
}

export interface SafetyVariables {
  action: SafetyAction;
  user: Pick<User, '_id' | 'username'>;
}

/**
 * Blocks, unblocks, mutes or unmutes a member. Once the server has it, the member's profile
 * shows it, everything the change hides or brings back is read again, and `onDone` runs (also
 * when the component that asked is gone by then, e.g. a row of a list the member left).
 */
export function useSafetyAction({ onDone }: { onDone?: () => void } = {}) {
  const { token } = useRequiredSession();
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: safetyMutationKey,
    mutationFn: ({ action, user }: SafetyVariables) => applySafetyAction(action, user._id, token),
    onSuccess: (_answer, { action, user }) => {
      showSafetyAction(queryClient, user._id, action);
      invalidateHiddenContent(
        queryClient,
        action === 'block' ? { blockedUsername: user.username } : {},
      );
      toast.success(toastOf[action](user.username));
      onDone?.();
    },
    onError: (error) => {
      // The lists may be out of date (e.g. the member deleted their account): read them again.
      void queryClient.invalidateQueries({ queryKey: safetyKeys.all });
      toast.error(error.message);
    },
  });
}
