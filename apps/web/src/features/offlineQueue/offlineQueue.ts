import type { Post } from '@perch/contract';
import { isApiError } from '../../shared/lib/api';
import { uploadImage } from '../../shared/lib/upload';
import { createPost } from '../../entities/post/posts.api';
import { requestBackgroundSync, withOutboxLock } from '../../shared/offlineQueue/backgroundSync';
import { dropQueuedPost, queuePost, queuedPosts, type QueuedPost } from '../../shared/offlineQueue/queueStore';

/** Whether a failed create should wait in the outbox: no answer came (offline, unreachable). */
export const isUnreachable = (error: unknown): boolean => isApiError(error) && error.isNetworkError;

/**
 * Whether a queued post that failed may succeed later: the server was out of reach, busy or
 * failing, or the session must be renewed first. Any other refusal is final.
 */
export const mayRetry = (error: unknown): boolean =>
  !isApiError(error) ||
  error.isNetworkError ||
  error.status === 401 ||
  error.status === 429 ||
  error.status >= 500;

/** Sends one post: its image first, then the post, under its Idempotency-Key. */
export async function sendPost(
  post: Pick<QueuedPost, 'id' | 'content' | 'image' | 'altText'>,
  token: string,
  onProgress?: (fraction: number) => void,
): Promise<Post> {
  const mediaURL = post.image
    ? (await uploadImage(post.image, { token, purpose: 'post', onProgress })).url
    : null;
  const postData = {
    content: post.content,
    mediaURL,
    ...(mediaURL && post.altText.trim() !== '' ? { mediaAlt: post.altText } : {}),
  };
  return (await createPost(postData, token, { idempotencyKey: post.id })).post;
}

type Listener = () => void;
const listeners = new Set<Listener>();
let snapshot: { memberId: string | null; posts: readonly QueuedPost[] } = {
  memberId: null,
  posts: [],
};

function publish(memberId: string, posts: readonly QueuedPost[]): void {
  snapshot = { memberId, posts };
  for (const listener of listeners) listener();
}

export function subscribeToOutbox(listener: Listener): () => void {
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
  };
}

/** The queued posts of the member, as last read (for the "Waiting to send" cards). */
export function outboxOf(memberId: string): readonly QueuedPost[] {
  return snapshot.memberId === memberId ? snapshot.posts : NONE;
}
const NONE: readonly QueuedPost[] = [];

export async function refreshOutbox(memberId: string): Promise<void> {
  publish(memberId, await queuedPosts(memberId));
}

export async function enqueue(post: QueuedPost): Promise<void> {
  await queuePost(post);
  await refreshOutbox(post.memberId);
  void requestBackgroundSync();
}

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
  sending ??= withOutboxLock(async () => {
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
        await refreshOutbox(memberId);
        if (post === null) hooks.refused(queued);
        else hooks.sent(post);
      }
    } finally {
      sending = null;
      await refreshOutbox(memberId);
    }
  });
  return sending;
}
