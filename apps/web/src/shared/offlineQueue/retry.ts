import { isApiError } from '../lib/api';

/** Whether a failed send should wait in the offline queue: no answer came (offline, unreachable). */
export const isUnreachable = (error: unknown): boolean => isApiError(error) && error.isNetworkError;

/**
 * Whether a queued item that failed may succeed later: the server was out of reach, busy or
 * failing, or the session must be renewed first. Any other refusal is final.
 */
export const mayRetry = (error: unknown): boolean =>
  !isApiError(error) ||
  error.isNetworkError ||
  error.status === 401 ||
  error.status === 429 ||
  error.status >= 500;
