import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';

/**
 * Answers for the lists every signed-in screen loads (feeds, who to follow, the unread count,
 * the reading preferences),
 * so that a test about something else needs no handlers for them. Tests override them with
 * `server.use`.
 */
const emptyListHandlers = [
  http.get('*/api/posts/feed', () => HttpResponse.json({ posts: [], nextCursor: null })),
  http.get('*/api/posts/explore', () => HttpResponse.json({ posts: [], nextCursor: null })),
  http.get('*/api/posts/liked', () => HttpResponse.json({ posts: [], nextCursor: null })),
  http.get('*/api/posts/user/:username', () => HttpResponse.json({ posts: [], nextCursor: null })),
  http.get('*/api/users/bookmark', () => HttpResponse.json({ bookmarks: [], nextCursor: null })),
  http.get('*/api/users/suggestions', () => HttpResponse.json({ users: [], nextCursor: null })),
  http.get('*/api/users/me/blocked', () => HttpResponse.json({ users: [], nextCursor: null })),
  http.get('*/api/users/me/muted', () => HttpResponse.json({ users: [], nextCursor: null })),
  http.get('*/api/notifications/unread', () => HttpResponse.json({ unreadCount: 0 })),
  http.get('*/api/trends/tags', () => HttpResponse.json({ tags: [] })),
  http.get('*/api/account/preferences', () =>
    HttpResponse.json({ alwaysShowSensitiveMedia: false }),
  ),
];

/** Session cookie calls (made at start-up and on logout), answered as the server does. */
const sessionCookieHandlers = [
  http.post('*/api/auth/session', () => new HttpResponse(null, { status: 204 })),
  http.post('*/api/auth/logout', () => new HttpResponse(null, { status: 204 })),
];

/** Mock API for component tests; each test adds the handlers it needs with `server.use`. */
export const server = setupServer(...emptyListHandlers, ...sessionCookieHandlers);
