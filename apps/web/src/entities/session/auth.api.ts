import type {
  LoginBody,
  LoginResponse,
  SignupBody,
  SignupResponse,
  UserResponse,
} from '@perch/contract';
import { apiRequest } from '../../shared/lib/api';

export function login(body: LoginBody, signal?: AbortSignal): Promise<LoginResponse> {
  return apiRequest('/api/auth/login', {
    method: 'POST',
    body,
    signal,
    schema: (s) => s.loginResponseSchema,
  });
}

export function signup(body: SignupBody, signal?: AbortSignal): Promise<SignupResponse> {
  return apiRequest('/api/auth/signup', {
    method: 'POST',
    body,
    signal,
    schema: (s) => s.signupResponseSchema,
  });
}

/** The member the token belongs to; rejects with 401 for a bad token, 404 for a removed member. */
export function fetchCurrentUser(token: string, signal?: AbortSignal): Promise<UserResponse> {
  return apiRequest('/api/auth/me', { token, signal, schema: (s) => s.userResponseSchema });
}

/**
 * (Re)sets the HttpOnly session cookie that authenticates the live event stream, for a session
 * stored before the cookie existed. Answers 204.
 */
export async function refreshSessionCookie(token: string, signal?: AbortSignal): Promise<void> {
  await apiRequest('/api/auth/session', { method: 'POST', token, signal });
}

/** Ends the session on the server: its token stops working and the cookie is cleared. Answers 204. */
export async function endServerSession(token: string): Promise<void> {
  await apiRequest('/api/auth/logout', { method: 'POST', token });
}
