import type { FastifyInstance, FastifyRequest } from 'fastify';
import { forbidden, unauthorized } from '../lib/errors';
import { extractToken } from '../lib/session-cookie';
import type { Viewer } from '../lib/viewer';
import { allows, type Scope } from './scopes';

export const MastodonMessages = {
  invalidToken: 'The access token is invalid',
  outsideScopes: 'This action is outside the authorized scopes',
  notFound: 'Record not found',
} as const;

/** The bearer token of a request: the header's, or `access_token` in the query (streaming). */
export function bearerOf(request: FastifyRequest): string | undefined {
  const header = extractToken(request);
  if (header !== undefined) return header;
  const query = request.query as Record<string, unknown> | undefined;
  const param = query?.access_token;
  return typeof param === 'string' && param.length > 0 ? param : undefined;
}

function requireScope(viewer: Viewer, needed: Scope): void {
  if (viewer.scopes !== undefined && !allows(viewer.scopes, needed)) {
    throw forbidden(MastodonMessages.outsideScopes);
  }
}

/**
 * How Mastodon's methods admit a caller. `member(scope)`: a token whose grant covers `scope`
 * (401 without a valid one, 403 outside its scopes). `open(scope)`: anyone; a token, when sent,
 * must be valid and is checked against `scope` as well.
 */
export function mastodonAuth(app: FastifyInstance) {
  async function viewerFrom(request: FastifyRequest): Promise<Viewer | null> {
    const token = bearerOf(request);
    if (token === undefined) return null;
    try {
      return await app.verifyToken(token);
    } catch {
      throw unauthorized(MastodonMessages.invalidToken);
    }
  }
  return {
    member:
      (needed: Scope) =>
      async (request: FastifyRequest): Promise<void> => {
        const viewer = await viewerFrom(request);
        if (!viewer) throw unauthorized(MastodonMessages.invalidToken);
        requireScope(viewer, needed);
        request.viewer = viewer;
      },
    open:
      (needed: Scope) =>
      async (request: FastifyRequest): Promise<void> => {
        const viewer = await viewerFrom(request);
        if (viewer) requireScope(viewer, needed);
        request.viewer = viewer;
      },
  };
}

export type MastodonAuth = ReturnType<typeof mastodonAuth>;
