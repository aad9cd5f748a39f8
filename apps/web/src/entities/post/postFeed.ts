import type { PostSort } from '@perch/contract';
import { infiniteQueryOptions } from '@tanstack/react-query';
import { fetchPostPage } from './posts.api';
import { postKeys, type FeedSource } from './postKeys';

/**
 * A list of posts as a query, page by page with the cursor of the previous page. Kept apart
 * from the hooks so that the app's start can ask for Home's first page before its screen loads.
 */
export function postFeedOptions(source: FeedSource, sort: PostSort, token: string) {
  return infiniteQueryOptions({
    queryKey: postKeys.list(source, sort),
    queryFn: ({ pageParam, signal }) =>
      fetchPostPage({ source, sort, cursor: pageParam, token, signal }),
    initialPageParam: null as string | null,
    getNextPageParam: (lastPage) => lastPage.nextCursor,
  });
}
