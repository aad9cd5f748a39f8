import { useId } from 'react';
import { flattenPages } from '../../entities/post/postCache';
import { DEFAULT_SORT } from '../../entities/post/postKeys';
import { usePostFeed } from '../../entities/post/posts.queries';
import { PostCard } from '../posts';

/**
 * The member's pinned posts, newest pin first, above their other posts, each marked "Pinned".
 * Nothing shows while they load, when there are none, or when they cannot be loaded: the list
 * of posts below holds them all anyway.
 */
export function PinnedPosts({ username }: { username: string }) {
  const headingId = useId();
  const pinned = usePostFeed({ kind: 'pinned', username }, DEFAULT_SORT);
  const posts = flattenPages(pinned.data);
  if (posts.length === 0) return null;
  return (
    <section className="profile__pinned" aria-labelledby={headingId}>
      <h2 id={headingId} className="visually-hidden">
        Pinned posts
      </h2>
      {posts.map((post) => (
        <PostCard key={post._id} post={post} showPinned />
      ))}
    </section>
  );
}
