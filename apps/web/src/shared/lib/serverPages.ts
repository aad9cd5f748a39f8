/**
 * Addresses the server answers itself, so the service worker never answers them with the cached
 * app shell: the API, media, the public pages at /@username (server-rendered for readers
 * without an account), feeds, the sitemap and robots.txt. Offline, the browser's own error page
 * stands for them.
 */
export const SERVER_PAGES: readonly RegExp[] = [
  /^\/api(\/|$)/,
  /^\/media\//,
  /^\/@/,
  /\.(rss|atom)$/,
  /^\/sitemap\.xml$/,
  /^\/robots\.txt$/,
];

/** Whether a navigation to `pathname` goes to the server rather than to the app shell. */
export function isServerPage(pathname: string): boolean {
  return SERVER_PAGES.some((pattern) => pattern.test(pathname));
}
