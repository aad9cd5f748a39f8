import type { FastifyRequest } from 'fastify';
import { ErrorMessages } from '@perch/contract';
import { unauthorized } from './errors';

/** The member a request acts for, as the token names them. */
export interface Viewer {
  id: string;
  username: string;
  /** The session the token belongs to (absent for viewers made without a sign-in, in tests). */
  sessionId?: string;
  /**
   * What an app's token may do (OAuth scopes, see mastodon/scopes.ts); absent for Perch's own
   * sessions, which may do everything.
   */
  scopes?: readonly string[];
  /** The app the session was granted to, for an app's token (see mastodon/oauth). */
  appId?: string;
}

/** A viewer right after signing in: the session is known. */
export type SessionViewer = Viewer & { sessionId: string };

/** The member a preHandler put on the request; calling it on an open route is a programming error. */
export function viewerOf(request: FastifyRequest): Viewer {
  if (!request.viewer) throw unauthorized(ErrorMessages.invalidToken);
  return request.viewer;
}
