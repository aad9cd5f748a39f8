import type { RankedEntry } from './timelines.repository';

/** A timeline post in trending order, with the values its cursor carries. */
export interface Ranked {
  id: string;
  authorId: string;
  likeCount: number;
  createdAt: number;
}

/** Most liked first; among equals the newest (created_at, then id, as the cursor compares). */
function compare(a: Ranked, b: Ranked): number {
  if (a.likeCount !== b.likeCount) return b.likeCount - a.likeCount;
  if (a.createdAt !== b.createdAt) return b.createdAt - a.createdAt;
  return a.id < b.id ? 1 : a.id > b.id ? -1 : 0;
}

export function rankTrending(entries: readonly RankedEntry[]): Ranked[] {
  return entries
    .map((entry) => ({
      id: entry.id,
      authorId: entry.author_id,
      likeCount: entry.like_count,
      createdAt: entry.created_at,
    }))
    .sort(compare);
}

/** The ranked posts after the cursor's position (all of them without one). */
export function trendingAfter(
  ranked: readonly Ranked[],
  after: readonly [number, number, string] | null,
): readonly Ranked[] {
  if (!after) return ranked;
  const [likeCount, createdAt, id] = after;
  const position = { id, authorId: '', likeCount, createdAt };
  // The first entry that comes after the position: binary search over the sorted order.
  let low = 0;
  let high = ranked.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    const entry = ranked[middle];
    if (entry !== undefined && compare(entry, position) <= 0) low = middle + 1;
    else high = middle;
  }
  return ranked.slice(low);
}
