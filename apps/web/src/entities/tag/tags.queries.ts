import { TRENDING_TAGS_MAX } from '@perch/contract';
import { useQuery } from '@tanstack/react-query';
import { useRequiredSession } from '../session/SessionProvider';
import { fetchTrendingTags, searchTags } from './tags.api';

/**
 * Query keys of tag lists (search and trending). A tag's own page is a post list
 * (`postKeys.list({ kind: 'tag', tag })`), so that likes, bookmarks and deletions reach it.
 */
export const tagKeys = {
  all: ['tags'] as const,
  search: (q: string) => ['tags', 'search', q] as const,
  trending: ['tags', 'trending'] as const,
};

/** How many tags the Tags tab of the search page lists. */
export const TAG_SEARCH_LIMIT = 50;

/** Tags starting with `q`, most used first; idle while `enabled` is false. */
export function useTagSearch(q: string, enabled = true) {
  const { token } = useRequiredSession();
  return useQuery({
    queryKey: tagKeys.search(q),
    queryFn: ({ signal }) => searchTags(q, TAG_SEARCH_LIMIT, { token, signal }),
    enabled,
  });
}

/** Trending tags (at most TRENDING_TAGS_MAX). */
export function useTrendingTags() {
  const { token } = useRequiredSession();
  return useQuery({
    queryKey: tagKeys.trending,
    queryFn: ({ signal }) => fetchTrendingTags(TRENDING_TAGS_MAX, { token, signal }),
  });
}
