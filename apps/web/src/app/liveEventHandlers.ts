import { commentLiveHandlers } from '../entities/comment/live';
import { memberLiveHandlers } from '../entities/member/live';
import { notificationLiveHandlers } from '../entities/notification/live';
import { postLiveHandlers } from '../entities/post/live';
import { safetyLiveHandlers } from '../entities/safety/live';
import { sessionLiveHandlers } from '../entities/session/live';
import {
  applyLiveEvent as applyWith,
  handleWithEach,
  type LiveContext,
  type LiveEventHandlers,
} from '../shared/live/liveEventHandlers';
import type { LiveEvent } from '../shared/live/liveEventTypes';

/**
 * Every live event type with the handlers of the entities it changes; the type makes each one
 * declared. Events several entities care about run each entity's handler in turn.
 */
export const liveEventHandlers: LiveEventHandlers = {
  ...postLiveHandlers,
  ...commentLiveHandlers,
  ...memberLiveHandlers,
  ...notificationLiveHandlers,
  ...safetyLiveHandlers,
  ...sessionLiveHandlers,
  'post.deleted': handleWithEach(
    postLiveHandlers['post.deleted'],
    commentLiveHandlers['post.deleted'],
  ),
  'profile.edited': handleWithEach(
    memberLiveHandlers['profile.edited'],
    postLiveHandlers['profile.edited'],
    commentLiveHandlers['profile.edited'],
  ),
};

/** Applies one event of the member's stream with the app's handlers. */
export function applyLiveEvent(context: LiveContext, event: LiveEvent): void {
  applyWith(liveEventHandlers, context, event);
}
