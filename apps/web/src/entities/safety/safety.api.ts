import type { UserPage } from '@perch/contract';
import { apiRequest } from '../../shared/lib/api';

/** What the member can do to keep another member away (see the contract's safety.ts). */
export type SafetyAction = 'block' | 'unblock' | 'mute' | 'unmute';

/** The member's own lists: whom they blocked, whom they muted. */
export type SafetyListKind = 'blocked' | 'muted';

/** Blocks, unblocks, mutes or unmutes a member. Answers 204; doing it twice is doing it once. */
export async function applySafetyAction(
  action: SafetyAction,
  userId: string,
  token: string,
): Promise<void> {
  await apiRequest(`/api/users/${action}/${encodeURIComponent(userId)}`, {
    method: 'POST',
    token,
  });
}

interface ListRequest {
  cursor: string | null;
  limit: number;
  token: string;
  signal?: AbortSignal;
}

/** One page of the members the viewer blocked or muted, most recent first. */
export function fetchSafetyList(
  kind: SafetyListKind,
  { cursor, limit, token, signal }: ListRequest,
): Promise<UserPage> {
  const params = new URLSearchParams({ limit: String(limit) });
  if (cursor !== null) params.set('cursor', cursor);
  return apiRequest(`/api/users/me/${kind}?${params.toString()}`, {
    token,
    signal,
    schema: (s) => s.userPageSchema,
  });
}
