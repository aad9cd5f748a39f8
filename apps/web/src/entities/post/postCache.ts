import type { Post, PostPage, PostSort } from '@perch/contract';
import type { InfiniteData, QueryClient, QueryKey } from '@tanstack/react-query';
import { parseListKey, postKeys, type FeedSource } from './postKeys';

/** What a `['posts', 'list', …]` query holds: the pages loaded so far, each with its cursor. */
export type PostPages = InfiniteData<PostPage>;

export function isPostPages(data: unknown): data is PostPages {
  return (
    typeof data === 'object' &&
    data !== null &&
    Array.isArray((data as Partial<PostPages>).pages) &&
    Array.isArray((data as Partial<PostPages>).pageParams)
  );
}

export function isPost(data: unknown): data is Post {
  return (
    typeof data === 'object' &&
    data !== null &&
    typeof (data as Partial<Post>)._id === 'string' &&
    typeof (data as Partial<Post>).likes === 'object'
  );
}

/** Applies `update` to the post with `postId` in every loaded page; keeps untouched pages as they were. */
export function mapPostInPages(
  data: PostPages,
  postId: string,
  update: (post: Post) => Post,
): PostPages {
  const pages = data.pages.map((page) => {
    if (!page.posts.some((post) => post._id === postId)) return page;
    return {
      ...page,
      posts: page.posts.map((post) => (post._id === postId ? update(post) : post)),
    };
  });
  return pages.some((page, index) => page !== data.pages[index]) ? { ...data, pages } : data;
}

/**
 * Applies `update` to the post with `postId` wherever it is cached: every page of every post
 * list (home, explore, liked, bookmarks, profiles, in every sort) and its single-post entry.
 */
export function updatePostInCaches(
  queryClient: QueryClient,
  postId: string,
  update: (post: Post) => Post,
): void {
  for (const [queryKey, data] of queryClient.getQueriesData({ queryKey: postKeys.all })) {
    if (isPostPages(data)) {
      const next = mapPostInPages(data, postId, update);
      if (next !== data) queryClient.setQueryData(queryKey, next);
    } else if (isPost(data) && data._id === postId) {
      queryClient.setQueryData(queryKey, update(data));
    }
  }
}

/**
 * A cached post with what an edit may have changed taken from `edited` (a fresh copy), its counts
 * and the viewer's marks left as the cache has them (events keep those).
 */
export function withEdits(cached: Post, edited: Post): Post {
  return {
    ...cached,
    content: edited.content,
    entities: edited.entities,
    mediaURL: edited.mediaURL,
    mediaAlt: edited.mediaAlt,
    media: edited.media,
    contentWarning: edited.contentWarning,
    sensitive: edited.sensitive,
    card: edited.card,
    updatedAt: edited.updatedAt,
  };
}

/** The cached version of a post, from any list or its single-post entry. */
export function findCachedPost(queryClient: QueryClient, postId: string): Post | undefined {
  for (const [, data] of queryClient.getQueriesData({ queryKey: postKeys.all })) {
    if (isPostPages(data)) {
      for (const page of data.pages) {
        const found = page.posts.find((post) => post._id === postId);
        if (found) return found;
      }
    } else if (isPost(data) && data._id === postId) {
      return data;
    }
  }
  return undefined;
}

/** Where a post was taken out of a list, so that it can be put back. */
export interface RemovedFrom {
  queryKey: QueryKey;
  pageIndex: number;
  index: number;
  post: Post;
}

type SourceFilter = (source: FeedSource) => boolean;

function listsMatching(queryClient: QueryClient, filter: SourceFilter) {
  return queryClient.getQueriesData({ queryKey: postKeys.lists() }).flatMap(([queryKey, data]) => {
    const parsed = parseListKey(queryKey);
    if (!parsed || !isPostPages(data) || !filter(parsed.source)) return [];
    return [{ queryKey, data, sort: parsed.sort, source: parsed.source }];
  });
}

/** Takes the post out of every list the filter accepts; returns where it was. */
export function removePostFromLists(
  queryClient: QueryClient,
  postId: string,
  filter: SourceFilter = () => true,
): RemovedFrom[] {
  const removed: RemovedFrom[] = [];
  for (const { queryKey, data } of listsMatching(queryClient, filter)) {
    const before = removed.length;
    const pages = data.pages.map((page, pageIndex) => {
      const index = page.posts.findIndex((post) => post._id === postId);
      const post = page.posts[index];
      if (!post) return page;
      removed.push({ queryKey, pageIndex, index, post });
      return { ...page, posts: page.posts.filter((item) => item._id !== postId) };
    });
    if (removed.length > before) queryClient.setQueryData<PostPages>(queryKey, { ...data, pages });
  }
  return removed;
}

/** Puts posts back where {@link removePostFromLists} found them (unless they are back already). */
export function restoreRemovedPosts(queryClient: QueryClient, removed: RemovedFrom[]): void {
  for (const { queryKey, pageIndex, index, post } of removed) {
    queryClient.setQueryData<PostPages>(queryKey, (data) => {
      if (!isPostPages(data)) return data;
      if (data.pages.some((page) => page.posts.some((item) => item._id === post._id))) return data;
      const pages = data.pages.map((page, i) => {
        if (i !== pageIndex) return page;
        const posts = [...page.posts];
        posts.splice(Math.min(index, posts.length), 0, post);
        return { ...page, posts };
      });
      return { ...data, pages };
    });
  }
}

/** Negative when `a` comes before `b` in a list sorted by `sort`. */
export function comparePosts(a: Post, b: Post, sort: PostSort): number {
  const byDate = a.createdAt < b.createdAt ? -1 : a.createdAt > b.createdAt ? 1 : 0;
  const byId = a._id < b._id ? -1 : a._id > b._id ? 1 : 0;
  switch (sort) {
    case 'oldest':
      return byDate || byId;
    case 'latest':
      return -byDate || -byId;
    case 'trending':
      return b.likes.likeCount - a.likes.likeCount || -byDate || -byId;
  }
}

/**
 * Inserts a post into loaded pages at its place in the sort order (`'top'`: first). When its
 * place is after the last loaded post and more pages remain, it is left for those pages to bring.
 */
export function insertPostIntoPages(
  data: PostPages,
  post: Post,
  order: PostSort | 'top',
): PostPages {
  if (data.pages.some((page) => page.posts.some((item) => item._id === post._id))) return data;
  for (let pageIndex = 0; pageIndex < data.pages.length; pageIndex += 1) {
    const page = data.pages[pageIndex];
    if (!page) continue;
    const index =
      order === 'top' ? 0 : page.posts.findIndex((item) => comparePosts(post, item, order) < 0);
    const isLastPage = pageIndex === data.pages.length - 1;
    if (index === -1 && !(isLastPage && page.nextCursor === null)) continue;
    const posts = [...page.posts];
    posts.splice(index === -1 ? posts.length : index, 0, post);
    const pages = data.pages.map((item, i) => (i === pageIndex ? { ...item, posts } : item));
    return { ...data, pages };
  }
  return data;
}

/** Inserts the post into every loaded list the filter accepts, each at its place. */
export function insertPostIntoLists(
  queryClient: QueryClient,
  post: Post,
  filter: SourceFilter,
  order?: 'top',
): void {
  for (const { queryKey, data, sort } of listsMatching(queryClient, filter)) {
    const next = insertPostIntoPages(data, post, order ?? sort);
    if (next !== data) queryClient.setQueryData(queryKey, next);
  }
}

/** The posts of all loaded pages in order, each once. */
export function flattenPages(data: PostPages | undefined): Post[] {
  if (!data) return [];
  const seen = new Set<string>();
  const posts: Post[] = [];
  for (const page of data.pages) {
    for (const post of page.posts) {
      if (seen.has(post._id)) continue;
      seen.add(post._id);
      posts.push(post);
    }
  }
  return posts;
}

export const isSource =
  (...kinds: FeedSource['kind'][]): SourceFilter =>
  (source) =>
    kinds.includes(source.kind);

/**
 * Brings Home back to its first page, fetched again (with the posts published since): every
 * loaded Home list drops its further pages, and the one on screen refetches.
 */
export function reloadHomeFromTop(queryClient: QueryClient): Promise<void> {
  const filters = { queryKey: [...postKeys.lists(), { kind: 'home' }] };
  queryClient.setQueriesData<PostPages>(filters, (data) =>
    data && data.pages.length > 1
      ? { pages: data.pages.slice(0, 1), pageParams: data.pageParams.slice(0, 1) }
      : data,
  );
  return queryClient.invalidateQueries(filters);
}
