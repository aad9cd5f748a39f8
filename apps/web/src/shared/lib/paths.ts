/** The app's URLs, for links from anywhere. */
export const NOTIFICATIONS_PATH = '/notifications';

export function postPath(postId: string): string {
  return `/post/${encodeURIComponent(postId)}`;
}

export function profilePath(username: string): string {
  return `/profile/${encodeURIComponent(username)}`;
}

/** A member's public address, the one to share: `/@username`. */
export function publicProfilePath(username: string): string {
  return `/@${encodeURIComponent(username)}`;
}

/** A post's public address, the one to share: `/@username/postId`. */
export function publicPostPath(username: string, postId: string): string {
  return `${publicProfilePath(username)}/${encodeURIComponent(postId)}`;
}

/** The username in a `/@username` path segment, or null for any other segment. */
export function usernameOfHandle(segment: string | undefined): string | null {
  if (segment === undefined || !segment.startsWith('@') || segment.length === 1) return null;
  return segment.slice(1);
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
