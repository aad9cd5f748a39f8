import type { Post, UserStub } from '@perch/contract';
import type { Kysely } from 'kysely';
import type { Viewer } from '../../lib/viewer';
import type { Database } from '../../platform/db/schema';
import type { PostCardRow, PostRecord } from '../../modules/posts/posts.repository';
import { createViewerStates } from '../viewer-state/viewer-states';
import { createHydrator, createStateHydrator, type ListedPost } from './hydrate';
import { createQuoteResolver, quoteOf } from './quotes';
import { createPostViewCache } from './view-cache';
import { NO_MARKS, presentPost, toPost, type PostView } from './view';
import { ownVotesOf } from '../../modules/polls/polls.repository';

type Db = Kysely<Database>;

export interface PostPresenterDeps {
  /** Where posts are read (a read-only connection on SQLite). */
  reads: Db;
  /** Post views cached in full. */
  maxViews: number;
  /** Post views cached compact once they no longer fit among the full ones (0: none). */
  maxCompactViews: number;
  /** Post ids cached over all viewers' states (each viewer's likes and bookmarks count). */
  maxViewerStateIds: number;
  /** A viewer with more likes or bookmarks than this is asked the database for each page. */
  maxViewerStatesPerMember: number;
  /** Member summaries: a post shows its author's. */
  authors: { of(ids: readonly string[]): Promise<UserStub[]> };
  /** The members whose posts the viewer does not see: their quoted posts show as unavailable. */
  hiddenFor: (viewerId: string | null) => Promise<readonly string[]>;
}

/**
 * Posts as the API shows them: the view every reader sees (cached, see view-cache.ts) joined with
 * the viewer's state (what they liked and bookmarked, see viewer-states.ts). Modules ask it for
 * posts by id; how it caches them is its own, and the invalidation table says which events drop
 * them (`invalidate`, `invalidateViewerStates`).
 */
export function createPostPresenter(deps: PostPresenterDeps) {
  const views = createPostViewCache({
    reads: deps.reads,
    max: deps.maxViews,
    compactMax: deps.maxCompactViews,
    authors: deps.authors,
  });
  const viewerStates = createViewerStates({
    reads: deps.reads,
    maxIds: deps.maxViewerStateIds,
    maxPerMember: deps.maxViewerStatesPerMember,
  });
  const quotesOf = createQuoteResolver({ views, hiddenFor: deps.hiddenFor });
  const hydrate = createHydrator(views, viewerStates, quotesOf);
  const withViewerStates = createStateHydrator(viewerStates, quotesOf);

  /** The post a row quotes, as the viewer may see it; null when it quotes none. */
  async function quoteOfRow(row: PostCardRow, viewer: Viewer | null) {
    if (row.quote_id === null) return null;
    const quotes = await quotesOf([{ row }], viewer?.id ?? null);
    return quotes.get(row.quote_id) ?? null;
  }

  /**
   * A row read for a change as the viewer sees it, its quote resolved for them; a post with a
   * poll reads the viewer's vote `within` the change's transaction (or from `reads`).
   */
  async function fromRow(
    row: PostCardRow,
    viewer: Viewer | null,
    within: Db = deps.reads,
  ): Promise<Post> {
    let ownVotes: number[] | null = null;
    if (row.poll !== null && viewer !== null) {
      const voted = await ownVotesOf(within, viewer.id, { postIds: [row.id] });
      ownVotes = voted.length > 0 ? voted.map((vote) => vote.position) : null;
    }
    return toPost(row, viewer, { ownVotes, quote: await quoteOfRow(row, viewer) });
  }

  /**
   * The posts among `ids` that exist, in that order, as the viewer sees them; `rows`, when the
   * list read them, their SQLite rowids (see PostViewCache.of).
   */
  async function packMany(
    ids: readonly string[],
    viewer: Viewer | null,
    rows: readonly number[] | null = null,
  ): Promise<Post[]> {
    const listed = await hydrate(ids, viewer?.id ?? null, rows);
    return listed.map((post) => present(post, viewer));
  }

  return {
    packMany,
    /** The post `id` as the viewer sees it, or undefined when it is gone. */
    pack: async (id: string, viewer: Viewer | null): Promise<Post | undefined> => {
      const [post] = await packMany([id], viewer);
      return post;
    },
    /** As packMany, each post with its view for the list's cursor (see present). */
    hydrate,
    /** Views read with their list's rows, with the viewer's state (see PostViewCache.fromRows). */
    hydrateRows: async (
      rows: readonly PostRecord[],
      viewerId: string | null,
    ): Promise<ListedPost[]> => {
      return withViewerStates(await views.fromRows(rows), viewerId);
    },
    /** A hydrated post as the viewer sees it. */
    present,
    /** A post just written, from its record as written (undefined when its author is gone). */
    written: async (post: PostRecord, viewer: Viewer): Promise<Post | undefined> => {
      const view = await views.written(post);
      if (!view) return undefined;
      const quote = quoteOf(view, await quotesOf([view], viewer.id));
      return presentPost(view, { ...NO_MARKS, quote }, viewer);
    },
    /** A row read for a change (with the viewer's state it asked for), as the API shows it. */
    fromRow,
    /**
     * A row read for a change without the viewer's state, with the state cached for the viewer.
     * After the change committed: the state may be read through another connection.
     */
    fromRowWithViewerState: async (row: PostCardRow, viewer: Viewer): Promise<Post> => {
      const state = (await viewerStates.of(viewer.id, [row.id])).get(row.id);
      const marked = {
        ...row,
        liked: state?.liked ?? false,
        bookmarked: state?.bookmarked ?? false,
        reposted: state?.reposted ?? false,
      };
      const quote = await quoteOfRow(row, viewer);
      return toPost(marked, viewer, { ownVotes: state?.ownVotes ?? null, quote });
    },
    /** How many posts' texts changed or posts went so far (see PostViewCache.rewrites). */
    rewrites: views.rewrites,

    /** What the invalidation table drops of posts' views. */
    invalidate: {
      forget: views.forget,
      rewritten: views.rewritten,
      forgetAuthor: views.forgetAuthor,
      forgetAll: views.forgetAll,
    },
    /** What the invalidation table drops of viewers' states. */
    invalidateViewerStates: { forget: viewerStates.forget },
  };
}

function present(post: ListedPost, viewer: Viewer | null): Post {
  return presentPost(post.view, post, viewer);
}

export type PostPresenter = ReturnType<typeof createPostPresenter>;
export type { ListedPage, ListedPost } from './hydrate';
export type { PostView };
