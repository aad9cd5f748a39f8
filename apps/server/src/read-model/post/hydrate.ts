import type { PostQuote } from '@perch/contract';
import { quoteOf, type QuotesOf } from './quotes';
import type { PostViewCache } from './view-cache';
import type { PostView } from './view';
import type { ViewerState, ViewerStates } from '../viewer-state/viewer-states';

/** A page's post: its card and the reader's viewer states. */
export interface ListedPost {
  view: PostView;
  liked: unknown;
  bookmarked: unknown;
  reposted: unknown;
  /** The options the reader chose in the post's poll; null when they did not vote. */
  ownVotes: readonly number[] | null;
  /** The post it quotes as the reader may see it (see quotes.ts); null for none. */
  quote: PostQuote | null;
}

/** A page of posts read by a query, and whether more follow it. */
export interface ListedPage {
  posts: ListedPost[];
  more: boolean;
}

function flagged(
  views: readonly PostView[],
  marks: ReadonlyMap<string, ViewerState>,
  quotes: ReadonlyMap<string, PostQuote>,
): ListedPost[] {
  return views.map((view) => {
    const mark = marks.get(view.row.id);
    const quote = quoteOf(view, quotes);
    return {
      view,
      liked: mark?.liked ?? false,
      bookmarked: mark?.bookmarked ?? false,
      reposted: mark?.reposted ?? false,
      ownVotes: mark?.ownVotes ?? null,
      quote,
    };
  });
}

/**
 * Turns a page of post ids into posts: cards from the card cache, the reader's viewer states from their cached
 * viewer states. Posts deleted meanwhile are left out. `rows` are the ids' rowids when the list read them
 * (see PostViewCache.of).
 */
export function createHydrator(
  cards: Pick<PostViewCache, 'of'>,
  flags: Pick<ViewerStates, 'of'>,
  quotesOf: QuotesOf,
) {
  return async function hydrate(
    ids: readonly string[],
    viewerId: string | null,
    rows: readonly number[] | null = null,
  ): Promise<ListedPost[]> {
    const [views, marks] = await Promise.all([
      cards.of(ids, rows),
      viewerId === null ? new Map<string, ViewerState>() : flags.of(viewerId, ids),
    ]);
    const found: PostView[] = [];
    for (const id of ids) {
      const view = views.get(id);
      if (view) found.push(view);
    }
    return flagged(found, marks, await quotesOf(found, viewerId));
  };
}

export type Hydrate = ReturnType<typeof createHydrator>;

/** Posts whose views are at hand (read with their rows), with the reader's viewer states. */
export function createStateHydrator(flags: Pick<ViewerStates, 'of'>, quotesOf: QuotesOf) {
  return async function withViewerStates(
    views: readonly PostView[],
    viewerId: string | null,
  ): Promise<ListedPost[]> {
    const ids = views.map((view) => view.row.id);
    const [marks, quotes] = await Promise.all([
      viewerId === null ? new Map<string, ViewerState>() : flags.of(viewerId, ids),
      quotesOf(views, viewerId),
    ]);
    return flagged(views, marks, quotes);
  };
}
