import type { UserStub } from '@perch/contract';
import type { Kysely } from 'kysely';
import { LRUCache } from 'lru-cache';
import { idListValue } from '../../platform/db/dialect';
import { keptUntilChanged } from '../../lib/kept-until-changed';
import type { Database } from '../../platform/db/schema';
import { compactView, expandView, type CompactView } from './compact-view';
import { viewOf, cachedView, type PostView } from './view';
import { postsAmong, postsAtRows, type PostRecord } from '../../modules/posts/posts.repository';

type Db = Kysely<Database>;

/**
 * Ids met lately, `max` to `2 × max` of them: two generations of sets, the older dropped when the
 * newer fills. Cheaper per id than an LRU's bookkeeping, which a list of cold cards paid on
 * every card.
 */
function recentIds(max: number) {
  let current = new Set<string>();
  let previous = new Set<string>();
  return {
    /** Whether `id` was met lately; either way it counts as met now. */
    met(id: string): boolean {
      if (current.has(id)) return true;
      const before = previous.has(id);
      if (current.size >= max) {
        previous = current;
        current = new Set();
      }
      current.add(id);
      return before;
    },
  };
}

/** A card cached full, and how often it was read since. */
interface FullView {
  view: PostView;
  reads: number;
}

export interface PostViewCacheDeps {
  /** Where cards are read from (a read-only connection on SQLite). */
  reads: Db;
  /** Cards cached full. */
  max: number;
  /** Cards cached compact (see CompactView) once they no longer fit among those cached full. */
  compactMax: number;
  /** The members' summaries, cached apart: a card shows its author's. */
  authors: { of(ids: readonly string[]): Promise<UserStub[]> };
}

/** Cards cached full and, once pushed out of those, compact. */
interface ViewStores {
  full: LRUCache<string, FullView>;
  cards: ReturnType<typeof keptUntilChanged<FullView>>;
  compact: ReturnType<typeof keptUntilChanged<CompactView>> | null;
  max: number;
}

function createViewStores(max: number, compactMax: number): ViewStores {
  // The cards read least lately, compact: they take less than half the memory of a view, and
  // expanding one costs a third of reading its row again.
  const compact =
    compactMax > 0
      ? keptUntilChanged(new LRUCache<string, CompactView>({ max: compactMax }))
      : null;
  const full = new LRUCache<string, FullView>({
    max,
    dispose: (kept, id, reason) => {
      // A card pushed out is current (a change drops it instead), so it is cached whatever the mark.
      if (reason === 'evict') compact?.keep(compact.mark(), id, compactView(kept.view));
    },
  });
  return { full, cards: keptUntilChanged(full), compact, max };
}

/** The reads a compact card must pass to be cached full again: those of the card it would push out. */
function readsToBeKeptWhole({ full, max }: ViewStores): number {
  return full.size < max ? 0 : (full.rvalues().next().value?.reads ?? 0);
}

/**
 * The cached card of `id`, full or expanded. A compact card is cached full again once it was read
 * more often since it was compact than the card it would push out since that one was cached: the
 * cards a list reads over and over (a tag's first page) come back after lists read a few times
 * each pushed them out, while cards read about as often as the others stay where they are
 * instead of trading places on every read (a card moved costs more than one expanded).
 */
function cachedViewOf(stores: ViewStores, id: string): PostView | undefined {
  const { cards, compact } = stores;
  const kept = cards.get(id);
  if (kept) {
    kept.reads += 1;
    return kept.view;
  }
  if (!compact) return undefined;
  const folded = compact.get(id);
  if (!folded) return undefined;
  folded.reads += 1;
  const view = expandView(id, folded);
  if (folded.reads > readsToBeKeptWhole(stores)) {
    compact.forget(id);
    cards.keep(cards.mark(), id, { view: cachedView(view), reads: folded.reads });
  }
  return view;
}

async function readPosts(reads: Db, ids: string[], rows: number[] | null): Promise<PostRecord[]> {
  if (!rows) return postsAmong(reads, idListValue(reads, ids));
  const wanted = new Set(ids);
  const read = await postsAtRows(reads, idListValue(reads, rows));
  // A row now holding another post means the one asked for was deleted: it is left out.
  return read.filter((row) => wanted.has(row.id));
}

/** The views of the posts read, those whose author is gone meanwhile left out. */
async function viewsOf(
  authors: PostViewCacheDeps['authors'],
  posts: PostRecord[],
): Promise<PostView[]> {
  const stubs = await authors.of([...new Set(posts.map((post) => post.user_id))]);
  const byId = new Map(stubs.map((stub) => [stub.id, stub]));
  const views: PostView[] = [];
  for (const post of posts) {
    const author = byId.get(post.user_id);
    if (author) views.push(viewOf(post, author));
  }
  return views;
}

/**
 * Post cards by id, cached in a bounded cache: a page of posts is then a page of ids. Every change
 * to what a card shows is an event (edit, delete, like, comment, profile edit, a member's account
 * deleted): the read model's invalidation table drops the cards those events name, in the process
 * that made the change at commit and in the others when the relay hands them on.
 */
export function createPostViewCache({ reads, max, compactMax, authors }: PostViewCacheDeps) {
  const stores = createViewStores(max, compactMax);
  const { cards, compact } = stores;
  // A card is cached on its second read: most cards of a list read once (a search's, a tag page's)
  // are never read again, and caching them would only churn the cache and the heap.
  const seen = recentIds(max);

  /** Drops `id`'s card from both. */
  function forget(id: string): void {
    cards.forget(id);
    compact?.forget(id);
  }

  function forgetAll(): void {
    cards.forgetAll();
    compact?.forgetAll();
  }

  // Counts the changes that may change what a search finds (an edit, a deletion, an account's
  // posts gone): what other modules cache of posts' text checks it (see rewrites below).
  let rewrites = 0;

  /** The views of posts read since `mark`, each cached on its second read. */
  async function viewsRead(mark: number, posts: PostRecord[]): Promise<PostView[]> {
    const views = await viewsOf(authors, posts);
    for (const view of views) {
      if (seen.met(view.row.id))
        cards.keep(mark, view.row.id, { view: cachedView(view), reads: 0 });
    }
    return views;
  }

  return {
    /**
     * The cards of the posts among `ids` that exist. `rows`, when the list's query read them, are
     * the ids' SQLite rowids in the same order: the cards missing here are read by them, which
     * spares a lookup in the ids' index per card.
     */
    async of(
      ids: readonly string[],
      rows: readonly number[] | null = null,
    ): Promise<Map<string, PostView>> {
      const found = new Map<string, PostView>();
      const missing: string[] = [];
      const missingRows: number[] = [];
      ids.forEach((id, index) => {
        const card = cachedViewOf(stores, id);
        if (card) found.set(id, card);
        else {
          missing.push(id);
          if (rows) missingRows.push(rows[index] ?? 0);
        }
      });
      if (missing.length === 0) return found;
      const mark = cards.mark();
      const read = await readPosts(reads, missing, rows ? missingRows : null);
      for (const view of await viewsRead(mark, read)) found.set(view.row.id, view);
      return found;
    },
    /**
     * The views of `posts`, rows a list read with every column of their cards (see
     * authorPostRows), in their order: cached views where cached, the others built from the rows and
     * not cached. Such a list has the rows in hand, so caching their views would spare it little,
     * while a stranger's posts read a few times each would push out the cards other lists read:
     * on 1,000,000 posts a member's page then took about a quarter less CPU, and the server 30 MB
     * less memory. Posts whose author is gone are left out.
     */
    async fromRows(posts: readonly PostRecord[]): Promise<PostView[]> {
      const kept = new Map<string, PostView>();
      const missing: PostRecord[] = [];
      for (const post of posts) {
        const card = cachedViewOf(stores, post.id);
        if (card) kept.set(post.id, card);
        else missing.push(post);
      }
      if (missing.length > 0) {
        for (const view of await viewsOf(authors, missing)) kept.set(view.row.id, view);
      }
      const views: PostView[] = [];
      for (const post of posts) {
        const view = kept.get(post.id);
        if (view) views.push(view);
      }
      return views;
    },
    /**
     * The view of a post just written, from its row as written and its author's cached summary
     * (undefined if the author is gone). Not cached: a post is cached on its second read, as any.
     */
    async written(post: PostRecord): Promise<PostView | undefined> {
      const [view] = await viewsOf(authors, [post]);
      return view;
    },
    forget,
    /** After a post's text changed or the post went, in this process: drops its card. */
    rewritten: (postId: string): void => {
      rewrites += 1;
      forget(postId);
    },
    /** Drops every card (after a member's account was deleted). */
    forgetAll: (): void => {
      rewrites += 1;
      forgetAll();
    },
    /** Drops every card of the member's posts (their name or picture changed). */
    forgetAuthor: (userId: string): void => {
      cards.forgetWhere((kept) => kept.view.row.user_id === userId);
      compact?.forgetWhere((card) => card.userId === userId);
    },
    /**
     * How many posts' texts changed or posts went, as far as this process knows (its own writes at
     * once, other processes' when their events arrive): a cached list of posts found by their text
     * is stale once this moved.
     */
    rewrites: (): number => rewrites,
  };
}

export type PostViewCache = ReturnType<typeof createPostViewCache>;
