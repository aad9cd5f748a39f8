import type { PostQuote, QuotedPost } from '@perch/contract';
import type { PostView } from './view';

/** What resolving quotes needs: the quoted posts' views, and whom the reader does not see. */
export interface QuoteSources {
  /** Post views by id, from the same cache as every card: a quoted post's changes drop it there. */
  views: { of(ids: readonly string[]): Promise<ReadonlyMap<string, PostView>> };
  /** The members whose posts the reader does not see (blocked either way, or muted). */
  hiddenFor: (viewerId: string | null) => Promise<readonly string[]>;
}

const UNAVAILABLE: PostQuote = { state: 'unavailable' };

/** A quoted post's compact card, from its view (its own quote only named). */
function embedded(view: PostView): QuotedPost {
  const { shared } = view;
  return {
    _id: shared.id,
    id: shared.id,
    author: shared.author,
    content: shared.content,
    entities: shared.entities,
    mediaURL: shared.mediaURL,
    mediaAlt: shared.mediaAlt,
    contentWarning: shared.contentWarning,
    sensitive: shared.sensitive,
    createdAt: shared.createdAt,
    quoteId: view.row.quote_id,
  };
}

/**
 * Quotes are resolved when a post is presented, per reader: the quoting post's view keeps only
 * the quoted id, so a quoted post's edit or deletion, or a block, changes what its quotes show
 * without any quoting post's view being dropped. A page's quotes cost one read of the views
 * missing from the cache, and the reader's cached relations.
 */
export function createQuoteResolver({ views, hiddenFor }: QuoteSources) {
  return async function quotesOf(
    quoting: readonly Pick<PostView, 'row'>[],
    viewerId: string | null,
  ): Promise<ReadonlyMap<string, PostQuote>> {
    const ids = new Set<string>();
    for (const view of quoting) if (view.row.quote_id !== null) ids.add(view.row.quote_id);
    if (ids.size === 0) return new Map();
    const [quoted, hidden] = await Promise.all([views.of([...ids]), hiddenFor(viewerId)]);
    const hiddenSet = new Set(hidden);
    const quotes = new Map<string, PostQuote>();
    for (const id of ids) {
      const view = quoted.get(id);
      quotes.set(
        id,
        view && !hiddenSet.has(view.row.user_id)
          ? { state: 'available', post: embedded(view) }
          : UNAVAILABLE,
      );
    }
    return quotes;
  };
}

export type QuotesOf = ReturnType<typeof createQuoteResolver>;

/** The quote of the post `view` among those resolved; null when it quotes none. */
export function quoteOf(
  view: Pick<PostView, 'row'>,
  quotes: ReadonlyMap<string, PostQuote>,
): PostQuote | null {
  const id = view.row.quote_id;
  return id === null ? null : (quotes.get(id) ?? UNAVAILABLE);
}
