import type { Post, UserStub } from '@perch/contract';
import { useId } from 'react';
import { Link } from 'react-router-dom';
import { useToggleRepost } from '../../entities/post/repost';
import { RepostIcon } from '../../shared/components/postIcons';
import { profilePath } from '../../shared/lib/paths';
import './repost.css';

/** Repost (or Undo repost) with the post's repost count; the viewer's own posts included. */
export function RepostButton({ post }: { post: Post }) {
  const countId = useId();
  const repost = useToggleRepost(post._id);
  const reposted = post.repostedByViewer;
  return (
    <button
      type="button"
      className={['post-action', 'post-action--repost', reposted && 'post-action--active']
        .filter(Boolean)
        .join(' ')}
      aria-label={reposted ? 'Undo repost' : 'Repost'}
      aria-pressed={reposted}
      aria-describedby={countId}
      onClick={() => {
        repost.mutate(reposted ? 'unrepost' : 'repost');
      }}
    >
      <RepostIcon size={20} />
      <span id={countId} className="post-action__count">
        {post.repostCount}
        <span className="visually-hidden">{post.repostCount === 1 ? ' repost' : ' reposts'}</span>
      </span>
    </button>
  );
}

/**
 * "<Name> reposted" above a card Home shows because a member the viewer follows reposted it,
 * linking to that member; its id starts the card's accessible name.
 */
export function RepostedByLine({ reposter, id }: { reposter: UserStub; id: string }) {
  const name = `${reposter.firstName} ${reposter.lastName}`.trim() || reposter.username;
  return (
    <p className="post-card__reposted" id={id}>
      <RepostIcon size={14} />
      <Link to={profilePath(reposter.username)}>{name} reposted</Link>
    </p>
  );
}
