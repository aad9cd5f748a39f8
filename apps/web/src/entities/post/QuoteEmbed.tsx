import type { Post, PostQuote, QuotedPost } from '@perch/contract';
import { useId, useState } from 'react';
import { Link } from 'react-router-dom';
import { usePreferences } from '../session/preferences';
import { Avatar } from '../../shared/components/Avatar';
import { RichText } from '../../shared/components/RichText';
import { formatPostDate } from '../../shared/lib/formatPostDate';
import { postPath } from '../../shared/lib/paths';
import './quotes.css';

const nameOf = (author: QuotedPost['author']) =>
  `${author.firstName} ${author.lastName}`.trim() || author.username;

/** A post as it shows quoted (in the composer, before it is posted). */
export function quoteOfPost(post: Post): PostQuote {
  return {
    state: 'available',
    post: {
      _id: post._id,
      id: post.id,
      author: post.author,
      content: post.content,
      entities: post.entities,
      mediaURL: post.mediaURL,
      mediaAlt: post.mediaAlt,
      contentWarning: post.contentWarning,
      sensitive: post.sensitive,
      createdAt: post.createdAt,
      quoteId: post.quote?.state === 'available' ? post.quote.post.id : null,
    },
  };
}

/** The quoted text and image; a sensitive image is named, not shown, in so small a card. */
function QuotedBody({ post, sensitive }: { post: QuotedPost; sensitive: boolean }) {
  return (
    <>
      {post.content !== '' && (
        <p className="quote-embed__text">
          <RichText text={post.content} entities={post.entities} />
        </p>
      )}
      {post.mediaURL &&
        (sensitive ? (
          <p className="quote-embed__sensitive">Sensitive image</p>
        ) : (
          <img
            className="quote-embed__image"
            src={post.mediaURL}
            alt={post.mediaAlt ?? `Image posted by ${nameOf(post.author)}`}
            loading="lazy"
            decoding="async"
          />
        ))}
    </>
  );
}

/** The quoted post's content warning, with Show more; its text and image show once opened. */
function WarnedBody({ post, warning }: { post: QuotedPost; warning: string }) {
  const [opened, setOpened] = useState(false);
  const contentId = useId();
  return (
    <>
      <p className="quote-embed__warning">
        <span className="visually-hidden">Content warning: </span>
        {warning}{' '}
        <button
          type="button"
          className="quote-embed__toggle"
          aria-expanded={opened}
          aria-controls={contentId}
          onClick={() => {
            setOpened((open) => !open);
          }}
        >
          {opened ? 'Show less' : 'Show more'}
        </button>
      </p>
      <div id={contentId} hidden={!opened}>
        {opened && <QuotedBody post={post} sensitive={false} />}
      </div>
    </>
  );
}

/**
 * The post a post quotes, as a compact bordered card: its author and date link to it; its text
 * and first image follow, behind its content warning when it has one. Its own quote shows as a
 * link only. "This post is unavailable." when it was deleted or its author is hidden from the
 * reader.
 */
export function QuoteEmbed({ quote }: { quote: PostQuote }) {
  const { alwaysShowSensitiveMedia } = usePreferences();
  if (quote.state === 'unavailable') {
    return (
      <div className="quote-embed quote-embed--unavailable" role="note">
        This post is unavailable.
      </div>
    );
  }
  const { post } = quote;
  const label = `Quoted post by @${post.author.username}`;
  return (
    <div className="quote-embed" role="group" aria-label={label}>
      <Link to={postPath(post.id)} className="quote-embed__header" aria-label={label}>
        <Avatar src={post.author.avatarURL} size="sm" />
        <span className="quote-embed__name">{nameOf(post.author)}</span>
        <span className="quote-embed__username">@{post.author.username}</span>
        <span aria-hidden="true">·</span>
        <time dateTime={post.createdAt}>{formatPostDate(post.createdAt)}</time>
      </Link>
      {post.contentWarning === null ? (
        <QuotedBody post={post} sensitive={post.sensitive && !alwaysShowSensitiveMedia} />
      ) : (
        <WarnedBody post={post} warning={post.contentWarning} />
      )}
      {post.quoteId !== null && (
        <Link to={postPath(post.quoteId)} className="quote-embed__inner">
          Quoting another post
        </Link>
      )}
    </div>
  );
}
