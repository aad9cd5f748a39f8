import type { PostMedia } from '@perch/contract';
import { useEffect, useRef, useState, type KeyboardEvent, type PointerEvent } from 'react';
import { BlurhashPlaceholder, useImageLoaded } from './BlurhashPlaceholder';

/** How far a finger must travel sideways for a swipe to turn the image. */
const SWIPE_MIN_PX = 40;

interface AlbumProps {
  images: readonly PostMedia[];
  fallbackAlt: string;
  /** Blurred behind one Show button, for the whole album, until pressed. */
  sensitive: boolean;
}

const altOf = (image: PostMedia | undefined, fallback: string) => image?.alt ?? fallback;

/** Moves through `count` images: the index wraps neither way, so the ends are clear. */
function useIndex(count: number) {
  const [index, setIndex] = useState(0);
  const go = (delta: number) => {
    setIndex((current) => Math.min(count - 1, Math.max(0, current + delta)));
  };
  return { index, setIndex, go };
}

/**
 * The images of a post with two or more, one at a time: previous and next buttons, the arrow
 * keys while it has focus, a swipe on touch, a "2 / 4" counter and dots. Pressing the image opens
 * it full screen. The box keeps the single image's shape, so a card's height does not change.
 */
export function PostAlbum({ images, fallbackAlt, sensitive }: AlbumProps) {
  const { index, setIndex, go } = useIndex(images.length);
  const [revealed, setRevealed] = useState(false);
  const [viewing, setViewing] = useState(false);
  const swipeFrom = useRef<number | null>(null);
  const opener = useRef<HTMLButtonElement>(null);
  const hidden = sensitive && !revealed;
  const image = images[index];
  const loaded = useImageLoaded(image?.url);
  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key === 'ArrowLeft') go(-1);
    else if (event.key === 'ArrowRight') go(1);
    else return;
    event.preventDefault();
  };
  const onPointerUp = (event: PointerEvent) => {
    const from = swipeFrom.current;
    swipeFrom.current = null;
    if (from === null) return;
    const moved = event.clientX - from;
    if (Math.abs(moved) >= SWIPE_MIN_PX) go(moved < 0 ? 1 : -1);
  };
  return (
    <div
      className="post-album"
      role="group"
      aria-roledescription="carousel"
      aria-label={`Images, ${String(index + 1)} of ${String(images.length)}`}
      tabIndex={0}
      onKeyDown={onKeyDown}
    >
      <div
        className={hidden ? 'post-card__media post-card__media--hidden' : 'post-card__media'}
        onPointerDown={(event) => {
          swipeFrom.current = event.clientX;
        }}
        onPointerUp={onPointerUp}
        onPointerCancel={() => {
          swipeFrom.current = null;
        }}
      >
        <button
          ref={opener}
          type="button"
          className="post-album__open"
          aria-label={hidden ? undefined : `Open image ${String(index + 1)} full screen`}
          aria-hidden={hidden || undefined}
          tabIndex={hidden ? -1 : 0}
          onClick={() => {
            if (!hidden) setViewing(true);
          }}
        >
          {!loaded.loaded && <BlurhashPlaceholder hash={image?.blurhash} />}
          <img
            key={image?.url}
            src={image?.url}
            onLoad={loaded.onLoad}
            alt={hidden ? '' : altOf(image, fallbackAlt)}
            className="post-card__image"
            draggable={false}
            decoding="async"
          />
        </button>
        {hidden && (
          <button
            type="button"
            className="post-card__sensitive-cover"
            onClick={() => {
              setRevealed(true);
            }}
          >
            <span className="post-card__sensitive-title">Sensitive content</span>
            <span className="post-card__sensitive-action">Show images</span>
          </button>
        )}
      </div>
      <AlbumControls count={images.length} index={index} go={go} setIndex={setIndex} />
      {viewing && (
        <AlbumViewer
          images={images}
          index={index}
          fallbackAlt={fallbackAlt}
          go={go}
          onClose={() => {
            setViewing(false);
            opener.current?.focus();
          }}
        />
      )}
    </div>
  );
}

interface ControlsProps {
  count: number;
  index: number;
  go: (delta: number) => void;
  setIndex: (index: number) => void;
}

function AlbumControls({ count, index, go, setIndex }: ControlsProps) {
  return (
    <div className="post-album__controls">
      <button
        type="button"
        className="post-album__step"
        aria-label="Previous image"
        disabled={index === 0}
        onClick={() => {
          go(-1);
        }}
      >
        <span aria-hidden="true">‹</span>
      </button>
      <span className="post-album__counter" aria-live="polite">
        {`${String(index + 1)} / ${String(count)}`}
      </span>
      <span className="post-album__dots">
        {Array.from({ length: count }, (_, dot) => (
          <button
            key={dot}
            type="button"
            className="post-album__dot"
            aria-label={`Image ${String(dot + 1)}`}
            aria-pressed={dot === index}
            onClick={() => {
              setIndex(dot);
            }}
          />
        ))}
      </span>
      <button
        type="button"
        className="post-album__step"
        aria-label="Next image"
        disabled={index === count - 1}
        onClick={() => {
          go(1);
        }}
      >
        <span aria-hidden="true">›</span>
      </button>
    </div>
  );
}

interface ViewerProps {
  images: readonly PostMedia[];
  index: number;
  fallbackAlt: string;
  go: (delta: number) => void;
  onClose: () => void;
}

/**
 * One image of the album full screen: Escape closes it, the arrow keys move, and Tab stays among
 * its buttons; the caller gives focus back to the image that opened it.
 */
function AlbumViewer({ images, index, fallbackAlt, go, onClose }: ViewerProps) {
  const dialog = useRef<HTMLDivElement>(null);
  const close = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    close.current?.focus();
  }, []);
  const image = images[index];
  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key === 'Escape') onClose();
    else if (event.key === 'ArrowLeft') go(-1);
    else if (event.key === 'ArrowRight') go(1);
    else if (event.key === 'Tab') trapFocus(event, dialog.current);
    else return;
    event.stopPropagation();
  };
  return (
    <div
      ref={dialog}
      className="album-viewer"
      role="dialog"
      aria-modal="true"
      aria-label={`Image ${String(index + 1)} of ${String(images.length)}`}
      onKeyDown={onKeyDown}
    >
      <img src={image?.url} alt={altOf(image, fallbackAlt)} className="album-viewer__image" />
      <div className="album-viewer__bar">
        <button
          type="button"
          aria-label="Previous image"
          disabled={index === 0}
          onClick={() => {
            go(-1);
          }}
        >
          <span aria-hidden="true">‹</span>
        </button>
        <span>{`${String(index + 1)} / ${String(images.length)}`}</span>
        <button
          type="button"
          aria-label="Next image"
          disabled={index === images.length - 1}
          onClick={() => {
            go(1);
          }}
        >
          <span aria-hidden="true">›</span>
        </button>
        <button ref={close} type="button" onClick={onClose}>
          Close
        </button>
      </div>
    </div>
  );
}

/** Keeps Tab and Shift+Tab among the dialog's enabled buttons. */
function trapFocus(event: KeyboardEvent, dialog: HTMLElement | null) {
  const focusable = [
    ...(dialog?.querySelectorAll<HTMLButtonElement>('button:not(:disabled)') ?? []),
  ];
  const first = focusable[0];
  const last = focusable[focusable.length - 1];
  if (!first || !last) return;
  if (event.shiftKey && document.activeElement === first) {
    event.preventDefault();
    last.focus();
  } else if (!event.shiftKey && document.activeElement === last) {
    event.preventDefault();
    first.focus();
  }
}
