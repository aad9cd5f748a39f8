import type { PostSort, SearchSort } from '@perch/contract';

/**
 * Where a list of posts comes from. A tag page and a post search are lists too, so that likes,
 * bookmarks, edits and deletions reach them like any feed (their order is their own: a tag is
 * newest first, a search has its own `sort`, and the list key's sort stays the default).
 */
export type FeedSource =
  | { kind: 'home' }
  | { kind: 'explore' }
  | { kind: 'liked' }
  | { kind: 'bookmarks' }
  | { kind: 'user'; username: string }
  /** A member's pinned posts, newest pin first, one page: their profile shows them first. */
  | { kind: 'pinned'; username: string }
  | { kind: 'tag'; tag: string }
  | { kind: 'search'; q: string; sort: SearchSort };

export const DEFAULT_SORT: PostSort = 'latest';

/**
 * Query keys of everything post-shaped. Every list starts with `['posts', 'list']`, so one
 * prefix reaches all of them; a single post is `['posts', 'detail', id]`.
 */
export const postKeys = {
  all: ['posts'] as const,
  lists: () => ['posts', 'list'] as const,
  list: (source: FeedSource, sort: PostSort) => ['posts', 'list', source, sort] as const,
  detail: (postId: string) => ['posts', 'detail', postId] as const,
};

export type PostListKey = ReturnType<typeof postKeys.list>;

/** The source and sort of a `['posts', 'list', source, sort]` key, or null for any other key. */
export function parseListKey(
  queryKey: readonly unknown[],
): { source: FeedSource; sort: PostSort } | null {
  const [root, kind, source, sort] = queryKey;
  if (root !== 'posts' || kind !== 'list') return null;
  if (typeof source !== 'object' || source === null || !('kind' in source)) return null;
  return {
    source: source as FeedSource,
    sort: typeof sort === 'string' ? (sort as PostSort) : DEFAULT_SORT,
  };
}
