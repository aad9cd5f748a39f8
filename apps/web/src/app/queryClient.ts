import { QueryClient } from '@tanstack/react-query';
import { isApiError } from '../shared/lib/api';

const MAX_RETRIES = 2;

/** Client errors (4xx) are answers, not glitches: retrying them cannot help. */
function shouldRetry(failureCount: number, error: unknown): boolean {
  if (isApiError(error) && error.status >= 400 && error.status < 500) return false;
  return failureCount < MAX_RETRIES;
}

export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        staleTime: 30_000,
        retry: shouldRetry,
        refetchOnWindowFocus: false,
      },
      mutations: {
        retry: false,
      },
    },
  });
}
