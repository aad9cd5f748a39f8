import type {
  AccountDeleteBody,
  PasswordChangeBody,
  PrivacySettings,
  PrivacyUpdateBody,
  SessionList,
} from '@perch/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { isApiError } from '../../shared/lib/api';
import { saveFile } from '../../shared/lib/download';
import { useEndLocalSession } from '../../entities/session/auth.queries';
import { useRequiredSession } from '../../entities/session/SessionProvider';
import {
  changePassword,
  changePrivacy,
  deleteAccount,
  downloadExport,
  fetchPrivacy,
  fetchSessions,
  logoutOtherSessions,
  revokeSession,
} from './settings.api';

export const settingsKeys = {
  all: ['settings'] as const,
  sessions: ['settings', 'sessions'] as const,
  password: ['settings', 'password'] as const,
  revoke: ['settings', 'sessions', 'revoke'] as const,
  logoutOthers: ['settings', 'sessions', 'logout-others'] as const,
  deleteAccount: ['settings', 'delete-account'] as const,
  export: ['settings', 'export'] as const,
  privacy: ['settings', 'privacy'] as const,
};

export const settingsMessages = {
  passwordChanged: 'Password changed. Other devices were signed out.',
  deviceLoggedOut: 'Device logged out.',
  otherDevicesLoggedOut: 'Logged out of all other devices.',
  accountDeleted: 'Your account has been deleted.',
  privacySaved: 'Privacy settings saved.',
} as const;

/** The member's signed-in devices. */
export function useSessionsQuery() {
  const { token } = useRequiredSession();
  return useQuery({
    queryKey: settingsKeys.sessions,
    queryFn: ({ signal }) => fetchSessions(token, signal),
    staleTime: 0,
  });
}

function keepSessions(list: SessionList | undefined, keep: (id: string) => boolean) {
  return list && { sessions: list.sessions.filter((session) => keep(session._id)) };
}

/**
 * Ends another device's session and takes it off the list (also when it had already ended),
 * then calls `onRevoked` (the row that asked is gone by then).
 */
export function useRevokeSession(onRevoked?: () => void) {
  const { token } = useRequiredSession();
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: settingsKeys.revoke,
    mutationFn: async (sessionId: string) => {
      try {
        await revokeSession(sessionId, token);
      } catch (error) {
        // 404: that session is already gone, which is what the member asked for.
        if (!isApiError(error) || error.status !== 404) throw error;
      }
    },
    onSuccess: (_data, sessionId) => {
      queryClient.setQueryData<SessionList>(settingsKeys.sessions, (list) =>
        keepSessions(list, (id) => id !== sessionId),
      );
      onRevoked?.();
    },
  });
}

/** Ends every session but this one; the list keeps this device only. */
export function useLogoutOtherSessions() {
  const { token } = useRequiredSession();
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: settingsKeys.logoutOthers,
    mutationFn: () => logoutOtherSessions(token),
    onSuccess: () => {
      const list = queryClient.getQueryData<SessionList>(settingsKeys.sessions);
      const current = new Set(list?.sessions.filter((s) => s.current).map((s) => s._id));
      queryClient.setQueryData<SessionList>(settingsKeys.sessions, (old) =>
        keepSessions(old, (id) => current.has(id)),
      );
    },
  });
}

/** Changes the password; the devices list is read again (the others were signed out). */
export function useChangePassword() {
  const { token } = useRequiredSession();
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: settingsKeys.password,
    mutationFn: (body: PasswordChangeBody) => changePassword(body, token),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: settingsKeys.sessions });
    },
  });
}

/** Deletes the account; on success this device forgets the session and shows the login page. */
export function useDeleteAccount() {
  const { token } = useRequiredSession();
  const endLocalSession = useEndLocalSession();
  return useMutation({
    mutationKey: settingsKeys.deleteAccount,
    mutationFn: (body: AccountDeleteBody) => deleteAccount(body, token),
    onSuccess: () => {
      endLocalSession(settingsMessages.accountDeleted);
    },
  });
}

/**
 * Downloads the member's data and saves it. `progress` is the share received (null until the
 * size is known); `error` the last failure.
 */
export function useDataExport() {
  const { token, user } = useRequiredSession();
  const [progress, setProgress] = useState<number | null>(null);
  const mutation = useMutation({
    mutationKey: settingsKeys.export,
    mutationFn: () => downloadExport(token, setProgress),
    onMutate: () => {
      setProgress(null);
    },
    onSuccess: ({ blob, filename }) => {
      saveFile(blob, filename ?? `perch-${user.username}.zip`);
    },
  });
  return { ...mutation, progress };
}

/** The member's privacy settings. */
export function usePrivacyQuery() {
  const { token } = useRequiredSession();
  return useQuery({
    queryKey: settingsKeys.privacy,
    queryFn: ({ signal }) => fetchPrivacy(token, signal),
    staleTime: 0,
  });
}

/**
 * Changes a privacy setting: shown at once, then as the server answers; put back when the change
 * fails. Each change sends only its own setting, so quick changes of both never undo each other.
 */
export function useChangePrivacy() {
  const { token } = useRequiredSession();
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: settingsKeys.privacy,
    mutationFn: (body: PrivacyUpdateBody) => changePrivacy(body, token),
    onMutate: async (body) => {
      await queryClient.cancelQueries({ queryKey: settingsKeys.privacy });
      const before = queryClient.getQueryData<PrivacySettings>(settingsKeys.privacy);
      if (before)
        queryClient.setQueryData<PrivacySettings>(settingsKeys.privacy, { ...before, ...body });
      return { before };
    },
    onError: (_error, body, context) => {
      // Only the settings this change sent go back: another change may have landed meanwhile.
      const before = context?.before;
      if (before) {
        queryClient.setQueryData<PrivacySettings>(settingsKeys.privacy, (now) => {
          if (!now) return now;
          const undone = { ...now };
          if (body.publicProfile !== undefined) undone.publicProfile = before.publicProfile;
          if (body.noindex !== undefined) undone.noindex = before.noindex;
          return undone;
        });
      }
      void queryClient.invalidateQueries({ queryKey: settingsKeys.privacy });
    },
    onSuccess: (settings) => {
      queryClient.setQueryData(settingsKeys.privacy, settings);
    },
  });
}
