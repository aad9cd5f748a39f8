import type { PostSearchPage, SearchSort } from '@perch/contract';
import { apiRequest } from '../../shared/lib/api';

export interface PostSearchRequest {
  q: string;
  sort: SearchSort;
  cursor: string | null;
  token: string;
  signal?: AbortSignal;
}

/**
 * One page of the posts matching `q` (words, "phrases", prefix*). A query the server cannot
 * use answers 400 with a message saying why (SearchErrors).
 */
export function searchPosts({
  q,
  sort,
  cursor,
  token,
  signal,
}: PostSearchRequest): Promise<PostSearchPage> {
  const params = new URLSearchParams({ q, sort });
  if (cursor !== null) params.set('cursor', cursor);
  return apiRequest(`/api/search/posts?${params.toString()}`, {
    token,
    signal,
    schema: (s) => s.postSearchPageSchema,
  });
}
