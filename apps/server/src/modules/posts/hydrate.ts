import type { PostCards } from './post-cards';
import type { PostFace } from './posts.mapper';
import type { Flags, ReaderFlags } from './reader-flags';

/** A page's post: its card and the reader's flags. */
export interface PagePost {
  face: PostFace;
  liked: unknown;
  bookmarked: unknown;
}

/**
 * Turns a page of post ids into posts: cards from the card cache, the reader's flags from their kept
 * marks. Posts deleted meanwhile are left out. `rows` are the ids' rowids when the list read them
 * (see PostCards.of).
 */
export function createHydrator(cards: Pick<PostCards, 'of'>, flags: Pick<ReaderFlags, 'of'>) {
  return async function hydrate(
    ids: readonly string[],
    viewerId: string | null,
    rows: readonly number[] | null = null,
  ): Promise<PagePost[]> {
    const [faces, marks] = await Promise.all([
      cards.of(ids, rows),
      viewerId === null ? new Map<string, Flags>() : flags.of(viewerId, ids),
    ]);
    const posts: PagePost[] = [];
    for (const id of ids) {
      const face = faces.get(id);
      if (!face) continue;
      const mark = marks.get(id);
      posts.push({ face, liked: mark?.liked ?? false, bookmarked: mark?.bookmarked ?? false });
    }
    return posts;
  };
}

export type Hydrate = ReturnType<typeof createHydrator>;
