import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import fastifyCookie from '@fastify/cookie';
import fastifyJwt from '@fastify/jwt';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { LRUCache } from 'lru-cache';
import { ErrorMessages } from '@perch/contract';
import type { AppConfig } from '../config';
import { unauthorized } from '../../lib/errors';
import type { SessionViewer, Viewer } from '../../lib/viewer';
import { extractToken, SESSION_COOKIE, sessionTokenOf } from '../../lib/session-cookie';

export {
  clearSessionCookie,
  extractToken,
  SESSION_COOKIE,
  sessionTokenOf,
  setSessionCookie,
} from '../../lib/session-cookie';

interface TokenPayload {
  username?: string;
  /** The session the token belongs to (see modules/sessions), or an app-level token's id. */
  sid: string;
  /** 'app' for an app-level token (OAuth client credentials), whose subject is the app. */
  kind?: 'app';
}

declare module '@fastify/jwt' {
  interface FastifyJWT {
    payload: TokenPayload;
    user: { sub: string; username: string };
  }
}

declare module 'fastify' {
  interface FastifyInstance {
    /** preHandler for calls that need a member: verifies the token and that its member exists. */
    authenticate: (request: FastifyRequest) => Promise<void>;
    /**
     * preHandler for open calls: sets the viewer from the token in the header (a bad one is
     * refused), or else from the session cookie (a bad one is ignored).
     */
    identify: (request: FastifyRequest) => Promise<void>;
    /**
     * preHandler for reads a browser opens without headers (the event stream): the token from the
     * header, or else from the session cookie.
     */
    authenticateSession: (request: FastifyRequest) => Promise<void>;
    /**
     * A token for a session just opened; it expires when the session does (an app's session
     * names its own lifetime).
     */
    signToken: (viewer: SessionViewer, ttlSeconds?: number) => string;
    /** A token that speaks for an app and no member (see mastodon/oauth). */
    signAppToken: (token: AppTokenId, ttlSeconds: number) => string;
    /**
     * Who a token speaks for, for Perch's own API: a session of Perch's own, never an app's;
     * throws the 401 the API answers for a bad or ended one.
     */
    verifyToken: (token: string) => Promise<Viewer>;
    /** Who a token speaks for, for Mastodon's API: a member (by any session) or an app alone. */
    verifyClient: (token: string) => Promise<Client>;
    /** What a token says, its signature checked but not its session (for revoking it). */
    tokenClaims: (token: string) => TokenClaims;
  }
  interface FastifyRequest {
    viewer: Viewer | null;
  }
}

/** The configured secret, or one generated on first start and kept in the data directory. */
export function resolveJwtSecret(config: Pick<AppConfig, 'jwtSecret' | 'dataDir'>): string {
  if (config.jwtSecret) return config.jwtSecret;
  const file = path.join(config.dataDir, 'secrets', 'jwt-secret');
  try {
    return readFileSync(file, 'utf8').trim();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  const secret = randomBytes(48).toString('base64url');
  // 'wx' fails if another process wrote it first; then that one's secret wins.
  try {
    writeFileSync(file, secret, { mode: 0o600, flag: 'wx' });
    return secret;
  } catch {
    return readFileSync(file, 'utf8').trim();
  }
}

const TOKEN_CACHE_SIZE = 10_000;

export interface AppTokenId {
  appId: string;
  tokenId: string;
}

/** Who a token of Mastodon's API speaks for: a member, or an app acting for no member. */
export type Client = { viewer: Viewer } | { app: { appId: string; scopes: readonly string[] } };

export interface TokenClaims {
  /** The member, or the app of an app-level token. */
  sub: string;
  sid: string;
  kind: 'session' | 'app';
}

interface CheckedToken extends TokenClaims {
  exp: number;
}

export const authPlugin = fp(async (app: FastifyInstance, options: { config: AppConfig }) => {
  const { config } = options;
  await app.register(fastifyCookie);
  await app.register(fastifyJwt, {
    secret: resolveJwtSecret(config),
    sign: { algorithm: 'HS256', expiresIn: config.tokenTtlSeconds },
    // A token without an expiry would be good for ever: none is accepted.
    verify: { algorithms: ['HS256'], requiredClaims: ['exp', 'sub', 'sid'] },
  });

  app.decorateRequest('viewer', null);

  // Tokens whose signature was checked, until they expire: clients send the same token with
  // every call, and checking it was 5% of a home feed request. (fast-jwt's own cache keys tokens
  // by a SHA-256 of them, which costs as much as the check.) The session behind a token is still
  // checked on every call.
  const checkedTokens = new LRUCache<string, CheckedToken>({ max: TOKEN_CACHE_SIZE });

  function checkedToken(token: string): CheckedToken {
    const known = checkedTokens.get(token);
    if (known && known.exp * 1000 > Date.now()) return known;
    let payload: { sub?: unknown; sid?: unknown; exp?: unknown; kind?: unknown };
    try {
      payload = app.jwt.verify(token);
    } catch {
      throw unauthorized(ErrorMessages.invalidToken);
    }
    const { sub, sid, exp } = payload;
    if (typeof sub !== 'string' || typeof sid !== 'string' || typeof exp !== 'number') {
      throw unauthorized(ErrorMessages.invalidToken);
    }
    const checked: CheckedToken = {
      sub,
      sid,
      exp,
      kind: payload.kind === 'app' ? 'app' : 'session',
    };
    checkedTokens.set(token, checked);
    return checked;
  }

  async function client(token: string): Promise<Client> {
    const { sub, sid, kind } = checkedToken(token);
    // (app.services is there by the first request.)
    if (kind === 'app') {
      const found = await app.services.oauth.checkAppToken(sid, sub);
      if (found) return { app: found };
    } else {
      const check = await app.services.sessions.check(sid, sub);
      if ('viewer' in check) return check;
    }
    // Revoked, expired, never issued, or its member deleted their account (sessions go with
    // them): the token speaks for no one, and 401 signs a client out.
    throw unauthorized(ErrorMessages.invalidToken);
  }

  async function verify(token: string): Promise<Viewer> {
    const found = await client(token);
    // An app's token may do only what Mastodon's API lets apps do, within its scopes.
    if (!('viewer' in found) || found.viewer.appId !== undefined) {
      throw unauthorized(ErrorMessages.invalidToken);
    }
    return found.viewer;
  }

  app.decorate('authenticate', async (request: FastifyRequest) => {
    request.viewer = await verify(extractToken(request) ?? '');
  });
  app.decorate('identify', async (request: FastifyRequest) => {
    const token = extractToken(request);
    if (token !== undefined) {
      request.viewer = await verify(token);
      return;
    }
    // A read needs no one, so a stale or foreign session cookie just leaves it anonymous.
    const session = request.cookies[SESSION_COOKIE];
    if (session) request.viewer = await verify(session).catch(() => null);
  });
  app.decorate('authenticateSession', async (request: FastifyRequest) => {
    request.viewer = await verify(sessionTokenOf(request) ?? '');
  });
  app.decorate('signToken', (viewer: SessionViewer, ttlSeconds?: number) =>
    app.jwt.sign(
      { username: viewer.username, sid: viewer.sessionId },
      { sub: viewer.id, ...(ttlSeconds !== undefined && { expiresIn: ttlSeconds }) },
    ),
  );
  app.decorate('signAppToken', ({ appId, tokenId }: AppTokenId, ttlSeconds: number) =>
    app.jwt.sign({ sid: tokenId, kind: 'app' }, { sub: appId, expiresIn: ttlSeconds }),
  );
  app.decorate('verifyToken', verify);
  app.decorate('verifyClient', client);
  app.decorate('tokenClaims', (token: string): TokenClaims => {
    const { sub, sid, kind } = checkedToken(token);
    return { sub, sid, kind };
  });
});
