import { useEffect, useRef } from 'react';
import { Button } from './Button';

// Start loading the next page this far before the end of the list comes into view.
const PREFETCH_MARGIN = 1200;

export interface ListEndProps {
  hasNextPage: boolean;
  isFetchingNextPage: boolean;
  /** The last attempt to load the next page failed: offer Retry. */
  failed: boolean;
  fetchNextPage: () => void;
  /** How many items are shown; a new page re-checks whether the end is still near. */
  itemCount: number;
  /** What the list holds, for the texts: "posts", "notifications". */
  noun: string;
}

/**
 * The end of a paged list: loads the next page as it nears the viewport (or with a button where
 * the browser cannot tell), shows progress, and Retry when a page failed.
 */
export function ListEnd({
  hasNextPage,
  isFetchingNextPage,
  failed,
  fetchNextPage,
  itemCount,
  noun,
}: ListEndProps) {
  const sentinelRef = useRef<HTMLDivElement>(null);
  const canLoadMore = hasNextPage && !isFetchingNextPage && !failed;
  const supportsObserver = typeof IntersectionObserver !== 'undefined';

  // A fresh observer after every page reports at once whether the end is still near.
  useEffect(() => {
    const sentinel = sentinelRef.current;
    if (!sentinel || !canLoadMore || !supportsObserver) return;
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((entry) => entry.isIntersecting)) fetchNextPage();
      },
      { rootMargin: `0px 0px ${String(PREFETCH_MARGIN)}px 0px` },
    );
    observer.observe(sentinel);
    return () => {
      observer.disconnect();
    };
  }, [canLoadMore, supportsObserver, fetchNextPage, itemCount]);

  return (
    <div ref={sentinelRef} className="feed__end">
      {isFetchingNextPage && (
        <span className="feed__loading" role="status">
          <span className="btn__spinner" aria-hidden="true" />
          <span className="visually-hidden">Loading more {noun}</span>
        </span>
      )}
      {failed && !isFetchingNextPage && (
        <div className="feed__more-error" role="alert">
          <span>More {noun} could not be loaded.</span>
          <Button variant="secondary" size="sm" onClick={fetchNextPage}>
            Retry
          </Button>
        </div>
      )}
      {canLoadMore && !supportsObserver && (
        <Button variant="secondary" size="sm" onClick={fetchNextPage}>
          Load more
        </Button>
      )}
    </div>
  );
}
