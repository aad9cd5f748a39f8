import { requestBackgroundSync } from './backgroundSync';
import { queuePost, queuedPosts, type QueuedPost } from './queueStore';

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

export function subscribeToQueuedPosts(listener: Listener): () => void {
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
  };
}

/** The queued posts of the member, as last read (for the "Waiting to send" cards). */
export function queuedPostsOf(memberId: string): readonly QueuedPost[] {
  return snapshot.memberId === memberId ? snapshot.posts : NONE;
}
const NONE: readonly QueuedPost[] = [];

export async function refreshQueuedPosts(memberId: string): Promise<void> {
  publish(memberId, await queuedPosts(memberId));
}

export async function enqueue(post: QueuedPost): Promise<void> {
  await queuePost(post);
  await refreshQueuedPosts(post.memberId);
  void requestBackgroundSync();
}
