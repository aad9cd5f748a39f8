import type {
  AuthorizationAnswer,
  AuthorizationDecision,
  AuthorizationDescription,
} from '@perch/contract';
import { apiRequest } from '../../shared/lib/api';

/** What the app in the page's query asks for; 400/401 when the request must not be shown. */
export function describeAuthorization(
  search: string,
  signal?: AbortSignal,
): Promise<AuthorizationDescription> {
  return apiRequest(`/api/oauth/authorization${search}`, {
    signal,
    schema: (s) => s.authorizationDescriptionSchema,
  });
}

/** The member's answer: where to send the browser, or the code to show. */
export function decideAuthorization(
  decision: AuthorizationDecision,
  token: string,
): Promise<AuthorizationAnswer> {
  return apiRequest('/api/oauth/authorization', {
    method: 'POST',
    body: decision,
    token,
    schema: (s) => s.authorizationAnswerSchema,
  });
}
