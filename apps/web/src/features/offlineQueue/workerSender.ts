import { sendPost } from '../../entities/post/sendPost';
import { withOfflineQueueLock } from '../../shared/offlineQueue/backgroundSync';
import { mayRetry } from '../../shared/offlineQueue/retry';
import {
  allQueuedPosts,
  allQueuedToggles,
  dropQueuedPost,
  dropQueuedToggle,
} from '../../shared/offlineQueue/queueStore';
import { sendToggle } from './sendToggle';

/** Whether a send failed for now (try later) rather than for good. */
async function attempt(send: () => Promise<unknown>): Promise<'sent' | 'later' | 'refused'> {
  try {
    await send();
    return 'sent';
  } catch (error) {
    return mayRetry(error) ? 'later' : 'refused';
  }
}

/**
 * The service worker's side of the offline queue (Background Sync): sends every member's queued posts
 * and toggles with the session each was made in. Only what the server takes is dropped; one it
 * refuses is left for the member's next visit, where the tab drops it and says why (a worker
 * shows no toasts). Rejects while the server is out of reach, so the browser tries again later.
 */
export function sendWaitingFromWorker(): Promise<void> {
  return withOfflineQueueLock(async () => {
    for (const post of await allQueuedPosts()) {
      const { token } = post;
      if (token === undefined) continue;
      const outcome = await attempt(() => sendPost(post, token));
      if (outcome === 'later') throw new Error('The server is out of reach for now.');
      if (outcome === 'sent') await dropQueuedPost(post.id);
    }
    for (const toggle of await allQueuedToggles()) {
      const { token } = toggle;
      if (token === undefined) continue;
      const outcome = await attempt(() => sendToggle(toggle, token));
      if (outcome === 'later') throw new Error('The server is out of reach for now.');
      if (outcome === 'sent') await dropQueuedToggle(toggle.key, toggle.queuedAt);
    }
  });
}
