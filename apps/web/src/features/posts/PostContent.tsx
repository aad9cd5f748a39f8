import type { Post } from '@perch/contract';
import { useId, useState } from 'react';
import { usePreferences } from '../../entities/session/preferences';
import { RichText } from '../../shared/components/RichText';
import { ImageIcon } from '../../shared/components/postIcons';
import { LinkPreview } from './LinkPreview';
import { PollView } from './PollView';
import { PostAlbum } from './PostAlbum';
import { BlurhashPlaceholder, useImageLoaded } from './BlurhashPlaceholder';
import { QuoteEmbed } from '../../entities/post/QuoteEmbed';

interface PostImageProps {
  src: string;
  description: string | null;
  fallbackAlt: string;
  /** Blurred behind a Show button until pressed. */
  sensitive: boolean;
  /** Drawn while the image loads (null: none recorded). */
  blurhash?: string | null;
}

/**
 * The post's picture, named by its description when it has one (an ALT badge then shows the
 * description on demand); a quiet placeholder stands in when it cannot be loaded. A sensitive
 * image is blurred, and hidden from screen readers, until the reader presses Show; Hide blurs it
 * again.
 */
function PostImage({ src, description, fallbackAlt, sensitive, blurhash }: PostImageProps) {
  const image = useImageLoaded(src);
  const [failedSrc, setFailedSrc] = useState<string | null>(null);
  const [showDescription, setShowDescription] = useState(false);
  const [revealed, setRevealed] = useState(false);
  const descriptionId = useId();
  const alt = description ?? fallbackAlt;
  const hidden = sensitive && !revealed;
  if (failedSrc === src) {
    return (
      <div className="post-card__media post-card__media--missing" role="img" aria-label={alt}>
        <ImageIcon size={28} />
        <span aria-hidden="true">Image unavailable</span>
      </div>
    );
  }
  return (
    <div className="post-card__figure">
      <div className={hidden ? 'post-card__media post-card__media--hidden' : 'post-card__media'}>
        {!image.loaded && <BlurhashPlaceholder hash={blurhash} />}
        <img
          src={src}
          onLoad={image.onLoad}
          alt={hidden ? '' : alt}
          aria-hidden={hidden || undefined}
          className="post-card__image"
          loading="lazy"
          decoding="async"
          onError={() => {
            setFailedSrc(src);
          }}
        />
        {hidden ? (
          <button
            type="button"
            className="post-card__sensitive-cover"
            onClick={() => {
              setRevealed(true);
            }}
          >
            <span className="post-card__sensitive-title">Sensitive content</span>
            <span className="post-card__sensitive-action">Show image</span>
          </button>
        ) : (
          <>
            {description !== null && (
              <button
                type="button"
                className="post-card__alt-badge"
                aria-label={showDescription ? 'Hide image description' : 'Show image description'}
                aria-expanded={showDescription}
                aria-controls={descriptionId}
                onClick={() => {
                  setShowDescription((shown) => !shown);
                }}
              >
                ALT
              </button>
            )}
            {sensitive && (
              <button
                type="button"
                className="post-card__sensitive-hide"
                onClick={() => {
                  setRevealed(false);
                }}
              >
                Hide image
              </button>
            )}
          </>
        )}
      </div>
      {description !== null && !hidden && (
        <p id={descriptionId} className="post-card__alt-text" hidden={!showDescription}>
          {description}
        </p>
      )}
    </div>
  );
}

/** The text, the image, the link's preview and the poll as they show once nothing hides them. */
function Shown({
  post,
  fullName,
  sensitive,
}: {
  post: Post;
  fullName: string;
  sensitive: boolean;
}) {
  return (
    <>
      {post.content !== '' && (
        <p className="post-card__text">
          <RichText text={post.content} entities={post.entities} />
        </p>
      )}
      {post.media.length > 1 ? (
        <PostAlbum
          // An edited album starts again at its first image: the old positions mean nothing now.
          key={post.media.map((image) => image.url).join(' ')}
          images={post.media}
          fallbackAlt={`Image posted by ${fullName}`}
          sensitive={sensitive}
        />
      ) : (
        post.mediaURL && (
          <PostImage
            src={post.mediaURL}
            description={post.mediaAlt}
            blurhash={post.media[0]?.blurhash}
            fallbackAlt={`Image posted by ${fullName}`}
            sensitive={sensitive}
          />
        )
      )}
      {post.card && <LinkPreview card={post.card} />}
      {post.poll && <PollView poll={post.poll} postId={post._id} />}
      {post.quote && <QuoteEmbed quote={post.quote} />}
    </>
  );
}

/**
 * A post's text and image. Behind a content warning only the warning shows, with Show more; once
 * opened, text and image show as they are. A sensitive image is blurred until pressed, unless the
 * member chose to always show sensitive media.
 */
export function PostContent({ post, fullName }: { post: Post; fullName: string }) {
  const { alwaysShowSensitiveMedia } = usePreferences();
  const [opened, setOpened] = useState(false);
  const contentId = useId();
  const warning = post.contentWarning;
  if (warning === null) {
    return (
      <Shown
        post={post}
        fullName={fullName}
        sensitive={post.sensitive && !alwaysShowSensitiveMedia}
      />
    );
  }
  return (
    <>
      <div className="post-card__warning">
        <p className="post-card__warning-text">
          <span className="visually-hidden">Content warning: </span>
          {warning}
        </p>
        <button
          type="button"
          className="post-card__warning-toggle"
          aria-expanded={opened}
          aria-controls={contentId}
          onClick={() => {
            setOpened((open) => !open);
          }}
        >
          {opened ? 'Show less' : 'Show more'}
        </button>
      </div>
      <div id={contentId} className="post-card__warned" hidden={!opened}>
        {opened && <Shown post={post} fullName={fullName} sensitive={false} />}
      </div>
    </>
  );
}
