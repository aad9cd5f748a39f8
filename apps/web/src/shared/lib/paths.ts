/** The app's URLs, for links from anywhere. */
export const NOTIFICATIONS_PATH = '/notifications';

export function postPath(postId: string): string {
  return `/post/${encodeURIComponent(postId)}`;
}

export function profilePath(username: string): string {
  return `/profile/${encodeURIComponent(username)}`;
}

export function tagPath(tag: string): string {
  return `/tags/${encodeURIComponent(tag)}`;
}

export const SEARCH_PATH = '/search';

export const SETTINGS_PATH = '/settings';

/** The search page for `q` (the Posts tab unless another is named). */
export function searchPath(q: string, tab?: 'posts' | 'members' | 'tags'): string {
  const params = new URLSearchParams();
  if (q !== '') params.set('q', q);
  if (tab !== undefined) params.set('tab', tab);
  const query = params.toString();
  return query === '' ? SEARCH_PATH : `${SEARCH_PATH}?${query}`;
}
