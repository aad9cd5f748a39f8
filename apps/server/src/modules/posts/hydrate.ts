import type { Kysely } from 'kysely';
import { idListValue } from '../../db/dialect';
import type { Database } from '../../db/schema';
import type { PostCards } from './post-cards';
import type { PostFace } from './posts.mapper';
import { flagsAmong } from './posts.repository';

/** A page's post: its card and the reader's flags. */
export interface PagePost {
  face: PostFace;
  liked: unknown;
  bookmarked: unknown;
}

/** A post of a page as a list gives it: its id, with the reader's flags when the list read them. */
export interface PageKey {
  id: string;
  liked?: unknown;
  bookmarked?: unknown;
}

/**
 * Turns a page of ids into posts: cards from the card cache, the reader's flags from one query
 * for the whole page (unless the list read them already). Posts deleted meanwhile are left out.
 */
export function createHydrator(reads: Kysely<Database>, cards: Pick<PostCards, 'of'>) {
  return async function hydrate(
    keys: readonly PageKey[],
    viewerId: string | null,
  ): Promise<PagePost[]> {
    const ids = keys.map((key) => key.id);
    const unflagged = viewerId === null ? [] : keys.filter((key) => key.liked === undefined);
    const [faces, flags] = await Promise.all([
      cards.of(ids),
      unflagged.length === 0 || viewerId === null
        ? []
        : flagsAmong(
            reads,
            viewerId,
            idListValue(
              reads,
              unflagged.map((key) => key.id),
            ),
          ),
    ]);
    const flagged = new Map(flags.map((row) => [row.id, row]));
    const posts: PagePost[] = [];
    for (const key of keys) {
      const face = faces.get(key.id);
      if (!face) continue;
      const read = flagged.get(key.id);
      posts.push({
        face,
        liked: key.liked ?? read?.liked ?? false,
        bookmarked: key.bookmarked ?? read?.bookmarked ?? false,
      });
    }
    return posts;
  };
}

export type Hydrate = ReturnType<typeof createHydrator>;
