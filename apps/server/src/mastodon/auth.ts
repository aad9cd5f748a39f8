import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Client } from '../app/plugins/auth.plugin';
import { forbidden, unauthorized, unprocessable } from '../lib/errors';
import { extractToken } from '../lib/session-cookie';
import type { Viewer } from '../lib/viewer';
import { allows, type Scope } from './scopes';

export const MastodonMessages = {
  invalidToken: 'The access token is invalid',
  outsideScopes: 'This action is outside the authorized scopes',
  notFound: 'Record not found',
  needsMember: 'This method requires an authenticated user',
} as const;

declare module 'fastify' {
  interface FastifyRequest {
    /** The app a Mastodon call's token was granted to (set by `auth.app`). */
    oauthAppId?: string;
  }
}

/** The bearer token of a request: the header's, or `access_token` in the query (streaming). */
export function bearerOf(request: FastifyRequest): string | undefined {
  const header = extractToken(request);
  if (header !== undefined) return header;
  const query = request.query as Record<string, unknown> | undefined;
  const param = query?.access_token;
  return typeof param === 'string' && param.length > 0 ? param : undefined;
}

function requireScope(granted: readonly string[] | undefined, needed: Scope): void {
  if (granted !== undefined && !allows(granted, needed)) {
    throw forbidden(MastodonMessages.outsideScopes);
  }
}

const grantOf = (client: Client) => ('app' in client ? client.app.scopes : client.viewer.scopes);

/**
 * How Mastodon's methods admit a caller. `member(scope)`: a member's token whose grant covers
 * `scope` (401 without a valid one, 403 outside its scopes, 422 for an app's own token).
 * `open(scope)`: anyone; a token, when sent, must be valid and is checked against `scope` as well.
 * `app()`: a token granted to an app, for a member or for the app alone.
 */
export function mastodonAuth(app: Pick<FastifyInstance, 'verifyClient'>) {
  async function clientFrom(request: FastifyRequest): Promise<Client | null> {
    const token = bearerOf(request);
    if (token === undefined) return null;
    try {
      return await app.verifyClient(token);
    } catch {
      throw unauthorized(MastodonMessages.invalidToken);
    }
  }
  const viewerIn = (client: Client | null): Viewer | null =>
    client && 'viewer' in client ? client.viewer : null;
  return {
    member:
      (needed: Scope) =>
      async (request: FastifyRequest): Promise<void> => {
        const client = await clientFrom(request);
        if (!client) throw unauthorized(MastodonMessages.invalidToken);
        if ('app' in client) throw unprocessable(MastodonMessages.needsMember);
        requireScope(client.viewer.scopes, needed);
        request.viewer = client.viewer;
      },
    open:
      (needed: Scope) =>
      async (request: FastifyRequest): Promise<void> => {
        const client = await clientFrom(request);
        if (client) requireScope(grantOf(client), needed);
        request.viewer = viewerIn(client);
      },
    app: () => async (request: FastifyRequest) => {
      const client = await clientFrom(request);
      const appId = client && ('app' in client ? client.app.appId : client.viewer.appId);
      if (appId === null || appId === undefined) throw unauthorized(MastodonMessages.invalidToken);
      request.viewer = viewerIn(client);
      request.oauthAppId = appId;
    },
  };
}

export type MastodonAuth = ReturnType<typeof mastodonAuth>;
