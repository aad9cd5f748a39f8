import type { Post } from '@perch/contract';
import { memo, useId, useState } from 'react';
import { Link } from 'react-router-dom';
import { Avatar } from '../../shared/components/Avatar';
import { BookmarkIcon, HeartIcon, MoreIcon } from '../../shared/components/icons';
import { useRequiredSession } from '../../entities/session/SessionProvider';
import { CommentsSection } from '../comments';
import { copyLink } from '../../shared/lib/copyLink';
import { profilePath, publicPostPath } from '../../shared/lib/paths';
import { ActionMenu } from '../../shared/components/ActionMenu';
import { EditPostModal } from './EditPostModal';
import { formatPostDate } from '../../shared/lib/formatPostDate';
import {
  CommentIcon,
  EditIcon,
  LinkIcon,
  PinIcon,
  QuoteIcon,
  TrashIcon,
} from '../../shared/components/postIcons';
import { useToggleBookmark } from '../../entities/post/bookmark';
import { useToggleLike } from '../../entities/post/like';
import { useTogglePin } from '../../entities/post/pin';
import { useDeletePost } from '../../entities/post/posts.queries';
import { PostContent } from './PostContent';
import { RepostButton, RepostedByLine } from './RepostButton';
import { QuotePostModal } from './QuotePostModal';
import './posts.css';

export interface PostCardProps {
  post: Post;
  /** Whether the comments show; the card keeps its own state when not given. */
  commentsOpen?: boolean;
  onCommentsOpenChange?: (open: boolean) => void;
  /** 1-based place of the card in its feed and the feed's length (-1 when unknown). */
  position?: { index: number; total: number };
  /** Marks the card "Pinned" (among a profile's pinned posts), in its text and its name. */
  showPinned?: boolean;
}

/** Whether the viewer likes the post: their flag, or their name among the post's likers. */
export function isLikedBy(post: Post, username: string): boolean {
  return post.likedByViewer || post.likes.likedBy.some((ref) => ref.username === username);
}

interface CardHeaderProps {
  post: Post;
  nameId: string;
  fullName: string;
  isOwn: boolean;
  onEdit: () => void;
  onQuote: () => void;
}

/**
 * The author, the date, and the menu: Copy link, and on the member's own post Pin (or Unpin),
 * Edit and Delete; Quote opens the new-post box with the post quoted.
 */
function CardHeader({ post, nameId, fullName, isOwn, onEdit, onQuote }: CardHeaderProps) {
  const remove = useDeletePost();
  const pin = useTogglePin(post._id);
  const { author } = post;
  const date = formatPostDate(post.createdAt);
  return (
    <header className="post-card__header">
      <Link
        to={profilePath(author.username)}
        className="post-card__avatar"
        tabIndex={-1}
        aria-hidden="true"
      >
        <Avatar src={author.avatarURL} size="md" />
      </Link>
      <div className="post-card__names">
        <Link to={profilePath(author.username)} id={nameId} className="post-card__name">
          {fullName}
        </Link>
        <p className="post-card__byline">
          <span className="post-card__username">@{author.username}</span>
          <span aria-hidden="true">·</span>
          <time className="post-card__date" dateTime={post.createdAt}>
            {date}
          </time>
        </p>
      </div>
      <ActionMenu
        label="Post menu"
        className="post-card__menu"
        trigger={<MoreIcon size={20} />}
        items={[
          {
            label: 'Copy link',
            icon: <LinkIcon size={18} />,
            onSelect: () => {
              void copyLink(publicPostPath(author.username, post._id));
            },
          },
          { label: 'Quote', icon: <QuoteIcon size={18} />, onSelect: onQuote },
          ...(isOwn
            ? [
                {
                  label: post.pinned ? 'Unpin from profile' : 'Pin to profile',
                  icon: <PinIcon size={18} />,
                  onSelect: () => {
                    pin.mutate(post.pinned ? 'unpin' : 'pin');
                  },
                },
                { label: 'Edit', icon: <EditIcon size={18} />, onSelect: onEdit },
                {
                  label: 'Delete',
                  icon: <TrashIcon size={18} />,
                  danger: true,
                  onSelect: () => {
                    remove(post._id);
                  },
                },
              ]
            : []),
        ]}
      />
    </header>
  );
}

interface CardActionsProps {
  post: Post;
  liked: boolean;
  commentsOpen: boolean;
  onCommentsOpenChange: (open: boolean) => void;
  commentsId: string;
}

/** Like, Repost, Comments and Bookmark, with their counts. */
function CardActions({
  post,
  liked,
  commentsOpen,
  onCommentsOpenChange,
  commentsId,
}: CardActionsProps) {
  const likeCountId = useId();
  const commentCountId = useId();
  const like = useToggleLike(post._id);
  const bookmark = useToggleBookmark(post._id);
  const bookmarked = post.bookmarkedByViewer;
  return (
    <footer className="post-card__actions">
      <button
        type="button"
        className={['post-action', 'post-action--like', liked && 'post-action--active']
          .filter(Boolean)
          .join(' ')}
        aria-label={liked ? 'Unlike' : 'Like'}
        aria-pressed={liked}
        aria-describedby={likeCountId}
        onClick={() => {
          like.mutate(liked ? 'dislike' : 'like');
        }}
      >
        <HeartIcon size={20} fill={liked ? 'currentColor' : 'none'} />
        <span id={likeCountId} className="post-action__count">
          {post.likes.likeCount}
          <span className="visually-hidden">{post.likes.likeCount === 1 ? ' like' : ' likes'}</span>
        </span>
      </button>
      <RepostButton post={post} />
      <button
        type="button"
        className={['post-action', 'post-action--comments', commentsOpen && 'post-action--open']
          .filter(Boolean)
          .join(' ')}
        aria-label="Comments"
        aria-expanded={commentsOpen}
        aria-controls={commentsOpen ? commentsId : undefined}
        aria-describedby={commentCountId}
        onClick={() => {
          onCommentsOpenChange(!commentsOpen);
        }}
      >
        <CommentIcon size={20} />
        <span id={commentCountId} className="post-action__count">
          {post.commentCount}
          <span className="visually-hidden">
            {post.commentCount === 1 ? ' comment' : ' comments'}
          </span>
        </span>
      </button>
      <button
        type="button"
        className={['post-action', 'post-action--bookmark', bookmarked && 'post-action--active']
          .filter(Boolean)
          .join(' ')}
        aria-label={bookmarked ? 'Remove bookmark' : 'Bookmark'}
        aria-pressed={bookmarked}
        onClick={() => {
          bookmark.mutate(bookmarked ? 'remove' : 'add');
        }}
      >
        <BookmarkIcon size={20} fill={bookmarked ? 'currentColor' : 'none'} />
      </button>
    </footer>
  );
}

function CardBody({
  post,
  commentsOpen,
  onCommentsOpenChange,
  position,
  showPinned = false,
}: Required<Omit<PostCardProps, 'position' | 'showPinned'>> &
  Pick<PostCardProps, 'position' | 'showPinned'>) {
  const { user } = useRequiredSession();
  const [editing, setEditing] = useState(false);
  const [quoting, setQuoting] = useState(false);
  const nameId = useId();
  const pinnedId = useId();
  const repostedId = useId();
  const commentsId = useId();

  const { author } = post;
  const fullName = `${author.firstName} ${author.lastName}`.trim() || author.username;
  const liked = isLikedBy(post, user.username);
  const isOwn = post.userId === user._id || post.username === user.username;

  return (
    <article
      className="post-card"
      data-testid="post-card"
      data-post-id={post._id}
      aria-labelledby={[showPinned && pinnedId, post.repostedBy && repostedId, nameId]
        .filter(Boolean)
        .join(' ')}
      aria-posinset={position?.index}
      aria-setsize={position?.total}
    >
      {showPinned && (
        <p className="post-card__pinned" id={pinnedId}>
          <PinIcon size={14} />
          Pinned
        </p>
      )}
      {post.repostedBy && <RepostedByLine reposter={post.repostedBy} id={repostedId} />}
      <CardHeader
        post={post}
        nameId={nameId}
        fullName={fullName}
        isOwn={isOwn}
        onEdit={() => {
          setEditing(true);
        }}
        onQuote={() => {
          setQuoting(true);
        }}
      />

      <PostContent post={post} fullName={fullName} />

      <CardActions
        post={post}
        liked={liked}
        commentsOpen={commentsOpen}
        onCommentsOpenChange={onCommentsOpenChange}
        commentsId={commentsId}
      />

      {commentsOpen && <CommentsSection id={commentsId} post={post} />}
      {quoting && (
        <QuotePostModal
          post={post}
          onClose={() => {
            setQuoting(false);
          }}
        />
      )}
      {editing && (
        <EditPostModal
          post={post}
          onClose={() => {
            setEditing(false);
          }}
        />
      )}
    </article>
  );
}

function OwnStateCard(props: Omit<PostCardProps, 'commentsOpen' | 'onCommentsOpenChange'>) {
  const [open, setOpen] = useState(false);
  return <CardBody {...props} commentsOpen={open} onCommentsOpenChange={setOpen} />;
}

/**
 * One post: author (links to their profile), date, text (plain text with its tags and mentions
 * as links, line breaks kept) and image (behind a content warning or blurred when sensitive, see
 * PostContent), and like, comments and bookmark buttons; its author also gets Edit and Delete.
 */
export const PostCard = memo(function PostCard({
  commentsOpen,
  onCommentsOpenChange,
  ...props
}: PostCardProps) {
  if (commentsOpen === undefined || onCommentsOpenChange === undefined) {
    return <OwnStateCard {...props} />;
  }
  return (
    <CardBody {...props} commentsOpen={commentsOpen} onCommentsOpenChange={onCommentsOpenChange} />
  );
});
