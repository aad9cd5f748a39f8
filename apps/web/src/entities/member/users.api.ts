import type { FollowResponse, UserEditBody, UserPage, UserResponse } from '@perch/contract';
import { apiRequest } from '../../shared/lib/api';

interface CallOptions {
  token?: string | null;
  signal?: AbortSignal;
}

/** Longest search text the server accepts. */
export const SEARCH_TEXT_MAX = 100;

/** Members whose username, first or last name contains `q` (any case), in username order. */
export function searchUsers(
  q: string,
  { limit, cursor, token, signal }: CallOptions & { limit?: number; cursor?: string | null } = {},
): Promise<UserPage> {
  const params = new URLSearchParams({ q: q.slice(0, SEARCH_TEXT_MAX) });
  if (limit !== undefined) params.set('limit', String(limit));
  if (cursor != null) params.set('cursor', cursor);
  return apiRequest(`/api/users?${params.toString()}`, {
    token,
    signal,
    schema: (s) => s.userPageSchema,
  });
}

/** Who to follow: members the viewer does not follow yet, most followed first. */
export function fetchSuggestions({
  limit,
  token,
  signal,
}: CallOptions & { limit?: number }): Promise<UserPage> {
  const query = limit === undefined ? '' : `?limit=${String(limit)}`;
  return apiRequest(`/api/users/suggestions${query}`, {
    token,
    signal,
    schema: (s) => s.userPageSchema,
  });
}

/** One member by username (any case); with a token the answer says whether the viewer follows them. */
export function fetchProfile(
  username: string,
  { token, signal }: CallOptions = {},
): Promise<UserResponse> {
  return apiRequest(`/api/users/${encodeURIComponent(username)}`, {
    token,
    signal,
    schema: (s) => s.userResponseSchema,
  });
}

/** Saves the signed-in member's names, bio and avatar; answers their updated record. */
export function editProfile(
  userData: UserEditBody['userData'],
  token: string,
): Promise<UserResponse> {
  return apiRequest('/api/users/edit', {
    method: 'POST',
    body: { userData } satisfies UserEditBody,
    token,
    schema: (s) => s.userResponseSchema,
  });
}

export function followUser(userId: string, token: string): Promise<FollowResponse> {
  return apiRequest(`/api/users/follow/${encodeURIComponent(userId)}`, {
    method: 'POST',
    token,
    schema: (s) => s.followResponseSchema,
  });
}

export function unfollowUser(userId: string, token: string): Promise<FollowResponse> {
  return apiRequest(`/api/users/unfollow/${encodeURIComponent(userId)}`, {
    method: 'POST',
    token,
    schema: (s) => s.followResponseSchema,
  });
}
