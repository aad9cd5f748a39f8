import type { Post, PostSort } from '@perch/contract';
import { useWindowVirtualizer } from '@tanstack/react-virtual';
import {
  useCallback,
  useLayoutEffect,
  useMemo,
  useRef,
  useState,
  type ReactNode,
  type RefObject,
} from 'react';
import { useArrivalScrollTop } from '../../shared/components/ScrollRestoration';
import { Button } from '../../shared/components/Button';
import { ListEnd } from '../../shared/components/ListEnd';
import { AlertIcon } from '../../shared/components/icons';
import { rememberCardHeights, rememberedCardHeights } from './cardHeights';
import { flattenPages } from '../../entities/post/postCache';
import { PostCard } from './PostCard';
import { DEFAULT_SORT, type FeedSource } from '../../entities/post/postKeys';
import { usePostFeed } from '../../entities/post/posts.queries';
import { PostSkeletons } from './PostSkeleton';
import { RefreshIcon } from '../../shared/components/postIcons';
import { SortMenu } from './SortMenu';
import '../../shared/styles/feed.css';
import './posts.css';

export type { FeedSource } from '../../entities/post/postKeys';

export interface PostFeedProps {
  source: FeedSource;
  /** Shown when the list has no post. */
  emptyText: string;
  /** Shows the sort heading (Trending, Latest, Oldest) above the list. */
  showSort?: boolean;
  /** Shown between the sort heading and the list (e.g. Home's 'new posts' button). */
  banner?: ReactNode;
}

/** Cards' estimated height before they are measured, and the space between them. */
const ESTIMATED_CARD_HEIGHT = 240;
const CARD_GAP = 16;
/** Start loading the next page this far (px) before the end of the list comes into view. */

/** Distance from the top of the document to the element, kept up to date as the page changes. */
function useDocumentOffset(ref: RefObject<HTMLElement | null>): number {
  const [offset, setOffset] = useState(0);
  useLayoutEffect(() => {
    const element = ref.current;
    if (!element) return;
    const update = () => {
      const top = Math.round(element.getBoundingClientRect().top + window.scrollY);
      setOffset((previous) => (previous === top ? previous : top));
    };
    update();
    window.addEventListener('resize', update);
    const observer =
      typeof ResizeObserver === 'undefined'
        ? null
        : new ResizeObserver(() => {
            update();
          });
    observer?.observe(document.body);
    return () => {
      window.removeEventListener('resize', update);
      observer?.disconnect();
    };
  }, [ref]);
  return offset;
}

interface VirtualListProps {
  posts: Post[];
  hasNextPage: boolean;
  isFetchingNextPage: boolean;
  nextPageFailed: boolean;
  fetchNextPage: () => void;
  label: string;
}

/**
 * Only the cards near the viewport are in the page (measured as they render, so cards of any
 * height fit); the next page loads as the end of the list approaches.
 */
function VirtualPostList({
  posts,
  hasNextPage,
  isFetchingNextPage,
  nextPageFailed,
  fetchNextPage,
  label,
}: VirtualListProps) {
  const listRef = useRef<HTMLDivElement>(null);
  const scrollMargin = useDocumentOffset(listRef);
  const [openComments, setOpenComments] = useState<ReadonlySet<string>>(() => new Set());

  const arrivalScrollTop = useArrivalScrollTop();
  const virtualizer = useWindowVirtualizer({
    count: posts.length,
    estimateSize: () => ESTIMATED_CARD_HEIGHT,
    overscan: 4,
    gap: CARD_GAP,
    scrollMargin,
    // Where the screen is about to be scrolled (app/ScrollRestoration), not where the previous
    // screen was: the virtualizer scrolls the window to it once mounted.
    initialOffset: () => arrivalScrollTop ?? window.scrollY,
    initialMeasurementsCache: rememberedCardHeights(),
    getItemKey: (index) => posts[index]?._id ?? index,
  });

  useLayoutEffect(
    () => () => {
      rememberCardHeights(virtualizer);
    },
    [virtualizer],
  );

  const setCommentsOpen = useCallback((postId: string, open: boolean) => {
    setOpenComments((current) => {
      const next = new Set(current);
      if (open) next.add(postId);
      else next.delete(postId);
      return next;
    });
  }, []);

  const total = hasNextPage ? -1 : posts.length;

  return (
    <>
      <div
        ref={listRef}
        role="feed"
        aria-label={label}
        aria-busy={isFetchingNextPage}
        className="feed__list"
        style={{ height: virtualizer.getTotalSize() }}
      >
        {virtualizer.getVirtualItems().map((item) => {
          const post = posts[item.index];
          if (!post) return null;
          return (
            <div
              key={item.key}
              ref={virtualizer.measureElement}
              data-index={item.index}
              className="feed__row"
              style={{ transform: `translateY(${item.start - scrollMargin}px)` }}
            >
              <FeedCard
                post={post}
                index={item.index + 1}
                total={total}
                commentsOpen={openComments.has(post._id)}
                onCommentsOpenChange={setCommentsOpen}
              />
            </div>
          );
        })}
      </div>
      <ListEnd
        hasNextPage={hasNextPage}
        isFetchingNextPage={isFetchingNextPage}
        failed={nextPageFailed}
        fetchNextPage={fetchNextPage}
        itemCount={posts.length}
        noun="posts"
      />
    </>
  );
}

interface FeedCardProps {
  post: Post;
  index: number;
  total: number;
  commentsOpen: boolean;
  onCommentsOpenChange: (postId: string, open: boolean) => void;
}

function FeedCard({ post, index, total, commentsOpen, onCommentsOpenChange }: FeedCardProps) {
  const onChange = useCallback(
    (open: boolean) => {
      onCommentsOpenChange(post._id, open);
    },
    [onCommentsOpenChange, post._id],
  );
  const position = useMemo(() => ({ index, total }), [index, total]);
  return (
    <PostCard
      post={post}
      position={position}
      commentsOpen={commentsOpen}
      onCommentsOpenChange={onChange}
    />
  );
}

function feedLabel(source: FeedSource): string {
  switch (source.kind) {
    case 'home':
      return 'Home feed';
    case 'explore':
      return 'Explore posts';
    case 'liked':
      return 'Liked posts';
    case 'bookmarks':
      return 'Bookmarked posts';
    case 'user':
      return `Posts by @${source.username}`;
    case 'pinned':
      return `Pinned posts by @${source.username}`;
    case 'tag':
      return `Posts tagged #${source.tag}`;
    case 'search':
      return `Posts matching ${source.q}`;
  }
}

/**
 * A list of posts: optional sort heading, 3 skeleton cards while the first page loads, the
 * empty text, or the cards, loaded page by page as the member scrolls and virtualized so that
 * thousands of them stay smooth. A failed load shows a message and Retry.
 */
export function PostFeed({ source, emptyText, showSort = false, banner }: PostFeedProps) {
  const [sort, setSort] = useState<PostSort>(DEFAULT_SORT);
  const effectiveSort = source.kind === 'bookmarks' ? DEFAULT_SORT : sort;
  const feed = usePostFeed(source, effectiveSort);
  const posts = useMemo(() => flattenPages(feed.data), [feed.data]);
  const { fetchNextPage, hasNextPage, isFetchingNextPage, isFetchNextPageError } = feed;
  const loadMore = useCallback(() => {
    void fetchNextPage({ cancelRefetch: false });
  }, [fetchNextPage]);

  let content;
  if (feed.isPending) {
    content = <PostSkeletons count={3} />;
  } else if (feed.isError && posts.length === 0) {
    content = (
      <div className="feed__state feed__state--error" role="alert">
        <AlertIcon size={28} />
        <p>Posts could not be loaded.</p>
        <Button
          variant="secondary"
          size="sm"
          loading={feed.isFetching}
          onClick={() => {
            void feed.refetch();
          }}
        >
          <RefreshIcon size={16} />
          Retry
        </Button>
      </div>
    );
  } else if (posts.length === 0) {
    content = <p className="feed__state feed__state--empty">{emptyText}</p>;
  } else {
    content = (
      <VirtualPostList
        posts={posts}
        hasNextPage={hasNextPage}
        isFetchingNextPage={isFetchingNextPage}
        nextPageFailed={isFetchNextPageError}
        fetchNextPage={loadMore}
        label={feedLabel(source)}
      />
    );
  }

  return (
    <div className="feed">
      {showSort && <SortMenu value={sort} onChange={setSort} />}
      {banner}
      {content}
    </div>
  );
}
