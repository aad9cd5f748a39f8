import type { LiveEventHandlersFor } from '../../shared/live/liveEventHandlers';
import { ignoreLiveEvent } from '../../shared/live/liveEventHandlers';

/** What the events about the member's sessions change. */
export const sessionLiveHandlers = {
  // Nothing to update: the server then closes the stream of a revoked session, and its token's
  // next call answers 401, which signs the app out.
  'sessions.revoked': ignoreLiveEvent,
} satisfies LiveEventHandlersFor<'sessions.revoked'>;
