import type { Preferences, PreferencesUpdateBody } from '@perch/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../shared/lib/api';
import { useRequiredSession } from './SessionProvider';

export const PREFERENCES_PATH = '/api/account/preferences';

export const preferencesKey = ['preferences'] as const;

/** What applies until the member's own preferences have loaded: the defaults. */
export const DEFAULT_PREFERENCES: Preferences = { alwaysShowSensitiveMedia: false };

export function fetchPreferences(token: string, signal?: AbortSignal): Promise<Preferences> {
  return apiRequest(PREFERENCES_PATH, { token, signal, schema: (s) => s.preferencesSchema });
}

export function changePreferences(body: PreferencesUpdateBody, token: string) {
  return apiRequest(PREFERENCES_PATH, {
    method: 'PATCH',
    body,
    token,
    schema: (s) => s.preferencesSchema,
  });
}

/**
 * The member's reading preferences, read once a session (every card asks; one request answers
 * them all), the defaults meanwhile or when they cannot be read.
 */
export function usePreferences(): Preferences {
  const { token } = useRequiredSession();
  const query = useQuery({
    queryKey: preferencesKey,
    queryFn: ({ signal }) => fetchPreferences(token, signal),
    staleTime: Infinity,
  });
  return query.data ?? DEFAULT_PREFERENCES;
}

/** Changes a preference: applied at once, then as the server answers; put back when it fails. */
export function useChangePreferences() {
  const { token } = useRequiredSession();
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: preferencesKey,
    mutationFn: (body: PreferencesUpdateBody) => changePreferences(body, token),
    onMutate: async (body) => {
      await queryClient.cancelQueries({ queryKey: preferencesKey });
      const before = queryClient.getQueryData<Preferences>(preferencesKey);
      queryClient.setQueryData<Preferences>(preferencesKey, {
        ...(before ?? DEFAULT_PREFERENCES),
        ...body,
      });
      return { before };
    },
    onError: (_error, _body, context) => {
      queryClient.setQueryData(preferencesKey, context?.before);
      void queryClient.invalidateQueries({ queryKey: preferencesKey });
    },
    onSuccess: (preferences) => {
      queryClient.setQueryData(preferencesKey, preferences);
    },
  });
}
