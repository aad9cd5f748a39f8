import type { LiveEventHandler, LiveEventHandlersFor } from '../../shared/live/liveEventHandlers';
import { findCachedUser } from '../member/userCache';
import { invalidateHiddenContent, safetyMutationKey } from './safetyCache';

type SafetyEventType = 'member.blocked' | 'member.unblocked' | 'member.muted' | 'member.unmuted';

/**
 * The member blocked, unblocked, muted or unmuted someone in another tab or device: what that
 * hides or brings back is read again. This tab's own changes refresh it themselves.
 */
const onSafetyChange: LiveEventHandler<SafetyEventType> = (event, { queryClient, viewer }) => {
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
};

/** What blocks and mutes change. */
export const safetyLiveHandlers = {
  'member.blocked': onSafetyChange,
  'member.unblocked': onSafetyChange,
  'member.muted': onSafetyChange,
  'member.unmuted': onSafetyChange,
} satisfies LiveEventHandlersFor<SafetyEventType>;
