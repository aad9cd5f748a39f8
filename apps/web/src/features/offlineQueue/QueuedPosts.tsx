import { useSyncExternalStore } from 'react';
import { FilePreview } from '../../shared/components/FilePreview';
import { useRequiredSession } from '../../entities/session/SessionProvider';
import { queuedPostsOf, subscribeToQueuedPosts } from '../../shared/offlineQueue/postQueue';
import type { QueuedPost } from '../../shared/offlineQueue/queueStore';
import './offlineQueue.css';

function QueuedPostCard({ post }: { post: QueuedPost }) {
  return (
    <li className="queued-post" data-testid="queued-post">
      <p className="queued-post__status">Waiting to send</p>
      {post.content !== '' && <p className="queued-post__text">{post.content}</p>}
      {post.image && (
        <FilePreview
          file={post.image}
          alt={post.altText.trim() || 'Image waiting to be sent'}
          className="queued-post__image"
        />
      )}
    </li>
  );
}

/**
 * Posts written without a connection, at the top of Home until they are sent (then they take
 * their place in the feed like any new post).
 */
export function QueuedPosts() {
  const { user } = useRequiredSession();
  const posts = useSyncExternalStore(subscribeToQueuedPosts, () => queuedPostsOf(user._id));
  if (posts.length === 0) return null;
  return (
    <section className="queued-posts" aria-label="Waiting to send">
      <ul className="queued-posts__list">
        {posts.map((post) => (
          <QueuedPostCard key={post.id} post={post} />
        ))}
      </ul>
    </section>
  );
}
