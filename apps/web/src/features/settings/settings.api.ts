import type {
  AccountDeleteBody,
  PasswordChangeBody,
  PrivacySettings,
  PrivacyUpdateBody,
  SessionList,
} from '@perch/contract';
import { apiRequest } from '../../shared/lib/api';
import { downloadFile, type DownloadedFile } from '../../shared/lib/download';

export const EXPORT_PATH = '/api/users/me/export';
export const PRIVACY_PATH = '/api/account/privacy';

/** The member's signed-in devices, most recently used first. */
export function fetchSessions(token: string, signal?: AbortSignal): Promise<SessionList> {
  return apiRequest('/api/auth/sessions', { token, signal, schema: (s) => s.sessionListSchema });
}

/** Ends one of the member's sessions (another device). Answers 204. */
export async function revokeSession(sessionId: string, token: string): Promise<void> {
  await apiRequest(`/api/auth/sessions/${encodeURIComponent(sessionId)}`, {
    method: 'DELETE',
    token,
  });
}

/** Ends every session of the member but this one. Answers 204. */
export async function logoutOtherSessions(token: string): Promise<void> {
  await apiRequest('/api/auth/logout-others', { method: 'POST', token });
}

/** Changes the password; the server ends every other session. Answers 204. */
export async function changePassword(body: PasswordChangeBody, token: string): Promise<void> {
  await apiRequest('/api/auth/password', { method: 'POST', body, token });
}

/** Deletes the member's account for good; the server clears the session cookie. Answers 204. */
export async function deleteAccount(body: AccountDeleteBody, token: string): Promise<void> {
  await apiRequest('/api/users/me', { method: 'DELETE', body, token });
}

/** The member's data as a zip file. */
export function downloadExport(
  token: string,
  onProgress?: (fraction: number) => void,
): Promise<DownloadedFile> {
  return downloadFile(EXPORT_PATH, { token, onProgress });
}

/** Whether readers without an account see the member, and whether search engines are asked not to index them. */
export function fetchPrivacy(token: string, signal?: AbortSignal): Promise<PrivacySettings> {
  return apiRequest(PRIVACY_PATH, { token, signal, schema: (s) => s.privacySettingsSchema });
}

/** Changes either privacy setting or both; answers both as they are now. */
export function changePrivacy(body: PrivacyUpdateBody, token: string): Promise<PrivacySettings> {
  return apiRequest(PRIVACY_PATH, {
    method: 'PATCH',
    body,
    token,
    schema: (s) => s.privacySettingsSchema,
  });
}
