import type { PostCards } from './post-cards';
import type { PostFace } from './posts.mapper';
import type { Flags, ReaderFlags } from './reader-flags';

/** A page's post: its card and the reader's flags. */
export interface PagePost {
  face: PostFace;
  liked: unknown;
  bookmarked: unknown;
}

/** A page of posts read by a query, and whether more follow it. */
export interface PulledPage {
  posts: PagePost[];
  more: boolean;
}

function flagged(faces: readonly PostFace[], marks: ReadonlyMap<string, Flags>): PagePost[] {
  return faces.map((face) => {
    const mark = marks.get(face.card.id);
    return { face, liked: mark?.liked ?? false, bookmarked: mark?.bookmarked ?? false };
  });
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
    const found: PostFace[] = [];
    for (const id of ids) {
      const face = faces.get(id);
      if (face) found.push(face);
    }
    return flagged(found, marks);
  };
}

export type Hydrate = ReturnType<typeof createHydrator>;

/** Posts whose faces are at hand (read with their rows), with the reader's flags. */
export function createFlagger(flags: Pick<ReaderFlags, 'of'>) {
  return async function withFlags(
    faces: readonly PostFace[],
    viewerId: string | null,
  ): Promise<PagePost[]> {
    const ids = faces.map((face) => face.card.id);
    const marks = viewerId === null ? new Map<string, Flags>() : await flags.of(viewerId, ids);
    return flagged(faces, marks);
  };
}
