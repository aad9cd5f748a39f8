import type { TagList, TagPage, TrendingTags } from '@perch/contract';
import { apiRequest } from '../../shared/lib/api';

interface CallOptions {
  token: string;
  signal?: AbortSignal;
}

function withQuery(path: string, params: URLSearchParams): string {
  const query = params.toString();
  return query === '' ? path : `${path}?${query}`;
}

/** A tag (any case, `#` optional) with its post count and one page of its posts, newest first. */
export function fetchTagPage(
  tag: string,
  cursor: string | null,
  { token, signal }: CallOptions,
): Promise<TagPage> {
  const params = new URLSearchParams();
  if (cursor !== null) params.set('cursor', cursor);
  return apiRequest(withQuery(`/api/tags/${encodeURIComponent(tag)}`, params), {
    token,
    signal,
    schema: (s) => s.tagPageSchema,
  });
}

/** Tags starting with `q` (a leading # is ignored), most used first; `q` empty: most used. */
export function searchTags(
  q: string,
  limit: number,
  { token, signal }: CallOptions,
): Promise<TagList> {
  const params = new URLSearchParams({ q, limit: String(limit) });
  return apiRequest(withQuery('/api/tags', params), {
    token,
    signal,
    schema: (s) => s.tagListSchema,
  });
}

/** The tags most members used in the last day. */
export function fetchTrendingTags(
  limit: number,
  { token, signal }: CallOptions,
): Promise<TrendingTags> {
  const params = new URLSearchParams({ limit: String(limit) });
  return apiRequest(withQuery('/api/trends/tags', params), {
    token,
    signal,
    schema: (s) => s.trendingTagsSchema,
  });
}
