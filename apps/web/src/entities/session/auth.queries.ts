import type { LoginBody, SignupBody } from '@perch/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import toast from 'react-hot-toast';
import { useNavigate } from 'react-router-dom';
import { endServerSession, login, signup } from './auth.api';
import { useSessionStore } from './SessionProvider';

export const authKeys = {
  login: ['auth', 'login'] as const,
  signup: ['auth', 'signup'] as const,
};

export const authMessages = {
  emptyLoginFields: 'Please fill all inputfields',
  loginSuccess: (firstName: string) => `Welcome back, ${firstName}!`,
  loginFailure: 'Invalid username and password',
  signupSuccess: (firstName: string) => `Hey! ${firstName}`,
  signupFailure: 'There was an error signing you up',
  logout: 'Logged out successfully!',
} as const;

/**
 * Logs in: on success stores the session, greets the member and goes to `next` (home); on failure says
 * the credentials were not accepted. `isPending` is the loading flag.
 */
export function useLoginMutation(next = '/') {
  const store = useSessionStore();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  return useMutation({
    mutationKey: authKeys.login,
    mutationFn: (body: LoginBody) => login(body),
    onSuccess: ({ encodedToken, foundUser }) => {
      queryClient.getQueryCache().clear();
      store.signIn({ token: encodedToken, user: foundUser });
      toast.success(authMessages.loginSuccess(foundUser.firstName));
      void navigate(next, { replace: true });
    },
    onError: () => {
      toast.error(authMessages.loginFailure);
    },
  });
}

/**
 * Creates an account: on success stores the session, greets the member and goes home; on
 * failure says so (the server's reasons stay available in `error`).
 */
export function useSignupMutation() {
  const store = useSessionStore();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  return useMutation({
    mutationKey: authKeys.signup,
    mutationFn: (body: SignupBody) => signup(body),
    onSuccess: ({ encodedToken, createdUser }) => {
      queryClient.getQueryCache().clear();
      store.signIn({ token: encodedToken, user: createdUser });
      toast.success(authMessages.signupSuccess(createdUser.firstName));
      void navigate('/', { replace: true });
    },
    onError: () => {
      toast.error(authMessages.signupFailure);
    },
  });
}

/**
 * Forgets the session and every cached server answer on this device, says `message` in a toast
 * and returns to the login screen. The server is not told: for a session it already ended
 * (account deleted); {@link useLogout} ends it on the server too.
 */
export function useEndLocalSession(): (message: string) => void {
  const store = useSessionStore();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  return useCallback(
    (message: string) => {
      store.clear();
      queryClient.clear();
      toast.success(message);
      void navigate('/login', { replace: true });
    },
    [store, queryClient, navigate],
  );
}

/**
 * Forgets the session and every cached server answer, then returns to the login screen. The
 * server is told too (it clears the session cookie), without waiting for its answer.
 */
export function useLogout(): () => void {
  const store = useSessionStore();
  const endLocalSession = useEndLocalSession();
  return useCallback(() => {
    const token = store.getSnapshot().session?.token;
    if (token !== undefined) void endServerSession(token).catch(() => undefined);
    endLocalSession(authMessages.logout);
  }, [store, endLocalSession]);
}
