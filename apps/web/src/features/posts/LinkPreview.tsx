import type { PreviewCard } from '@perch/contract';
import { useId, useState } from 'react';
import './linkPreview.css';

/** The host a link points at, for a page that names no site (`www.` dropped). */
function hostOf(url: string): string {
  try {
    return new URL(url).hostname.replace(/^www\./, '');
  } catch {
    return url;
  }
}

/**
 * The preview card of the post's first link: one link to the page (a new tab, no referrer, no
 * endorsement), named by the page's title and described by its site and description. The image
 * is decoration (the title says what the page is) and is a copy stored by Perch.
 */
export function LinkPreview({ card }: { card: PreviewCard }) {
  const titleId = useId();
  const detailsId = useId();
  const [imageFailed, setImageFailed] = useState(false);
  const showImage = card.imageURL !== null && !imageFailed;
  return (
    <a
      className="link-preview"
      data-testid="link-preview"
      href={card.url}
      target="_blank"
      rel="noopener noreferrer nofollow"
      aria-labelledby={titleId}
      aria-describedby={detailsId}
    >
      {showImage && (
        <img
          className="link-preview__image"
          src={card.imageURL ?? undefined}
          alt=""
          loading="lazy"
          decoding="async"
          width={card.imageWidth}
          height={card.imageHeight}
          onError={() => {
            setImageFailed(true);
          }}
        />
      )}
      <span className="link-preview__text">
        <span id={titleId} className="link-preview__title">
          {card.title}
        </span>
        <span id={detailsId} className="link-preview__details">
          <span className="link-preview__site">{card.siteName ?? hostOf(card.url)}</span>
          {card.description !== null && (
            <span className="link-preview__description">{card.description}</span>
          )}
          <span className="visually-hidden">(opens in a new tab)</span>
        </span>
      </span>
    </a>
  );
}
