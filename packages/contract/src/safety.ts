/**
 * Block and mute, the member's own tools to keep someone away.
 *
 * Block works both ways: neither member sees the other's profile, posts or comments, in any feed,
 * search, tag page, who-to-follow or notification; neither can follow, like, comment on, bookmark
 * or mention (so as to notify) the other. Blocking ends the follows between them both ways. A call
 * that crosses a block answers 404 as if its target did not exist.
 *
 * Mute works one way and silently: the muter no longer sees the muted member's posts, comments or
 * notifications; nothing else changes, and the muted member is not told.
 *
 * POST /api/users/block/:userId, POST /api/users/unblock/:userId,
 * POST /api/users/mute/:userId, POST /api/users/unmute/:userId: 204, idempotent (blocking twice
 * is one block); 404 "User not found." for no such member; 400 for oneself.
 * GET /api/users/me/blocked, GET /api/users/me/muted: the members, most recent first, paginated
 * ({users, nextCursor}, `limit` and `cursor` as every list).
 */
export const SafetyErrors = {
  blockSelf: 'You cannot block yourself.',
  muteSelf: 'You cannot mute yourself.',
} as const;

/** What the web app shows when a block or mute takes effect. */
export const SafetyToasts = {
  blocked: (username: string) => `Blocked @${username}`,
  unblocked: (username: string) => `Unblocked @${username}`,
  muted: (username: string) => `Muted @${username}`,
  unmuted: (username: string) => `Unmuted @${username}`,
} as const;
