import type { Post } from '@perch/contract';
import { sendPost } from '../../entities/post/sendPost';
import { withOfflineQueueLock } from '../../shared/offlineQueue/backgroundSync';
import { refreshQueuedPosts } from '../../shared/offlineQueue/postQueue';
import { dropQueuedPost, queuedPosts, type QueuedPost } from '../../shared/offlineQueue/queueStore';
import { mayRetry } from '../../shared/offlineQueue/retry';

let sending: Promise<void> | null = null;

/**
 * Sends the member's queued posts in order; stops at the first that finds the server out of
 * reach (tried again on the next `online`, or the next start). One the server refuses is
 * dropped and reported.
 */
export function sendQueued(
  memberId: string,
  token: string,
  hooks: { sent: (post: Post) => void; refused: (post: QueuedPost) => void },
): Promise<void> {
  sending ??= withOfflineQueueLock(async () => {
    try {
      for (const queued of await queuedPosts(memberId)) {
        let post: Post | null = null;
        try {
          post = await sendPost(queued, token);
        } catch (error) {
          if (mayRetry(error)) return;
        }
        // Out of the waiting list before it shows in the feed, so it is never shown twice.
        await dropQueuedPost(queued.id);
        await refreshQueuedPosts(memberId);
        if (post === null) hooks.refused(queued);
        else hooks.sent(post);
      }
    } finally {
      sending = null;
      await refreshQueuedPosts(memberId);
    }
  });
  return sending;
}
