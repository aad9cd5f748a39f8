import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import {
  OAUTH_OUT_OF_BAND,
  type AuthorizationAnswer,
  type AuthorizationDecision,
  type AuthorizationDescription,
  type AuthorizationRequest,
  type mastodon,
} from '@perch/contract';
import type { Kysely } from 'kysely';
import { unprocessable } from '../../lib/errors';
import { newId } from '../../lib/ids';
import type { SessionViewer, Viewer } from '../../lib/viewer';
import type { SessionsService } from '../../modules/sessions/sessions.service';
import type { Database } from '../../platform/db/schema';
import { parseScopes } from '../scopes';
import { oauthErrors } from './oauth.errors';
import * as repo from './oauth.repository';

/** A code is exchanged at once by the app it was sent to; ten minutes is Mastodon's bound too. */
export const CODE_TTL_MS = 10 * 60 * 1000;
/** Apps' tokens last until revoked, as Mastodon's do; the expiry is only the signature's bound. */
export const APP_TOKEN_TTL_SECONDS = 10 * 365 * 24 * 60 * 60;
const NAME_MAX = 200;
const URIS_MAX = 10;
// A page of Perch's sends the browser to the redirect URI: never to one that runs in Perch's page.
const UNSAFE_SCHEMES = new Set(['javascript:', 'data:', 'vbscript:', 'file:']);

export interface OAuthServiceDeps {
  db: Kysely<Database>;
  sessions: SessionsService;
  signToken: (viewer: SessionViewer, ttlSeconds?: number) => string;
  signAppToken: (token: { appId: string; tokenId: string }, ttlSeconds: number) => string;
}

export interface AppRegistration {
  client_name: string;
  redirect_uris: string | string[];
  scopes?: string;
  website?: string | null;
}

export interface CodeExchange {
  code?: string;
  redirect_uri?: string;
  code_verifier?: string;
}

const digest = (value: string) => createHash('sha256').update(value).digest('hex');
const secret = () => randomBytes(32).toString('base64url');
const sameText = (a: string, b: string) =>
  a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b));
const split = (value: string, by: string) => value.split(by).filter((part) => part.length > 0);

function isRedirectUri(value: string): boolean {
  if (value === OAUTH_OUT_OF_BAND) return true;
  if (!URL.canParse(value)) return false;
  const url = new URL(value);
  return !UNSAFE_SCHEMES.has(url.protocol) && url.hash === '';
}

export function toApplication(row: repo.AppRow): mastodon.Application {
  const uris = split(row.redirect_uris, '\n');
  return {
    id: row.id,
    name: row.name,
    website: row.website,
    scopes: split(row.scopes, ' '),
    redirect_uris: uris,
    redirect_uri: uris.join('\n'),
    vapid_key: '',
  };
}

/** The redirect URI with the answer in its query; null when the member is shown the code. */
function redirectWith(uri: string, answer: Record<string, string | undefined>): string | null {
  if (uri === OAUTH_OUT_OF_BAND) return null;
  const url = new URL(uri);
  for (const [key, value] of Object.entries(answer)) {
    if (value !== undefined) url.searchParams.set(key, value);
  }
  return url.toString();
}

/** The app a request names, with its own scopes checked against the app's; 400s otherwise. */
async function validate(db: Kysely<Database>, request: AuthorizationRequest) {
  const app = await repo.findAppByClientId(db, request.client_id);
  if (!app) throw oauthErrors.invalidClient();
  if (!split(app.redirect_uris, '\n').includes(request.redirect_uri)) {
    throw oauthErrors.invalidRedirectUri();
  }
  if (request.response_type !== 'code') throw oauthErrors.unsupportedResponseType();
  const scopes = parseScopes(request.scope);
  const registered = split(app.scopes, ' ');
  if (!scopes?.every((scope) => registered.includes(scope))) throw oauthErrors.invalidScope();
  if (request.code_challenge !== undefined && request.code_challenge_method !== 'S256') {
    throw oauthErrors.invalidRequest('The code challenge method must be S256.');
  }
  return { app, scopes };
}

async function register(
  db: Kysely<Database>,
  input: AppRegistration,
): Promise<mastodon.CredentialApplication> {
  const name = input.client_name.trim();
  if (name.length === 0 || name.length > NAME_MAX) {
    throw unprocessable(`Validation failed: Name must be 1 to ${String(NAME_MAX)} characters`);
  }
  const uris = [input.redirect_uris].flat().flatMap((uri) => split(uri.trim(), '\n'));
  if (uris.length === 0 || uris.length > URIS_MAX || !uris.every(isRedirectUri)) {
    throw unprocessable('Validation failed: Redirect URI must be an absolute URI.');
  }
  const scopes = parseScopes(input.scopes);
  if (!scopes) throw unprocessable('Validation failed: Scopes must be known OAuth scopes.');
  const website = input.website?.trim() ?? '';
  const clientSecret = secret();
  const now = Date.now();
  const row: repo.AppRow = {
    id: newId(now),
    name,
    website: website.length > 0 ? website : null,
    redirect_uris: [...new Set(uris)].join('\n'),
    scopes: scopes.join(' '),
    client_id: secret(),
    secret_digest: digest(clientSecret),
    created_at: now,
  };
  await repo.insertApp(db, row);
  return {
    ...toApplication(row),
    client_id: row.client_id,
    client_secret: clientSecret,
    client_secret_expires_at: 0,
  };
}

/** A code is good for its app, at its redirect URI, in time, with PKCE's verifier if it had a challenge. */
function isGoodFor(code: repo.CodeRow, app: repo.AppRow, input: CodeExchange): boolean {
  if (code.app_id !== app.id || code.redirect_uri !== input.redirect_uri) return false;
  if (code.expires_at <= Date.now()) return false;
  if (code.code_challenge === null) return true;
  if (input.code_verifier === undefined) return false;
  const challenge = createHash('sha256').update(input.code_verifier).digest('base64url');
  return sameText(code.code_challenge, challenge);
}

/** A new code for the app to exchange; only its digest is kept. */
async function issueCode(
  db: Kysely<Database>,
  grant: {
    app: repo.AppRow;
    viewer: Viewer;
    scopes: readonly string[];
    decision: AuthorizationDecision;
  },
): Promise<string> {
  const { app, viewer, scopes, decision } = grant;
  const code = secret();
  const now = Date.now();
  await repo.insertCode(
    db,
    {
      code_digest: digest(code),
      app_id: app.id,
      user_id: viewer.id,
      redirect_uri: decision.redirect_uri,
      scopes: scopes.join(' '),
      code_challenge: decision.code_challenge ?? null,
      expires_at: now + CODE_TTL_MS,
    },
    now,
  );
  return code;
}

/**
 * Mastodon's OAuth 2 (docs.joinmastodon.org/spec/oauth): apps register, a member authorizes one
 * on Perch's page, the app exchanges the code (PKCE verified) for a token. A member's token for an
 * app is a Perch session limited to the scopes granted (modules/sessions), so the member sees it
 * among their devices and ends it there; an app's own token (client credentials) speaks for no one.
 */
export function createOAuthService({ db, sessions, signToken, signAppToken }: OAuthServiceDeps) {
  async function memberToken(app: repo.AppRow, code: repo.CodeRow, userAgent: string) {
    const scopes = split(code.scopes, ' ');
    const session = await sessions.open(code.user_id, userAgent, {
      appId: app.id,
      scopes,
      ttlSeconds: APP_TOKEN_TTL_SECONDS,
    });
    // The token's name claim is informational: every check reads the member's name from the session.
    const viewer = { id: code.user_id, username: '', sessionId: session.id };
    return { token: signToken(viewer, APP_TOKEN_TTL_SECONDS), scopes };
  }

  return {
    /** POST /api/v1/apps: a new app and the credentials it signs in with (shown only now). */
    register: (input: AppRegistration) => register(db, input),

    /** The app whose credentials these are; 401 invalid_client otherwise. */
    async authenticate(clientId?: string, clientSecret?: string): Promise<repo.AppRow> {
      const app = clientId ? await repo.findAppByClientId(db, clientId) : undefined;
      if (
        !app ||
        clientSecret === undefined ||
        !sameText(app.secret_digest, digest(clientSecret))
      ) {
        throw oauthErrors.invalidClient();
      }
      return app;
    },

    /** What the authorization page asks the member: 400s for a request it must not show. */
    async describe(request: AuthorizationRequest): Promise<AuthorizationDescription> {
      const { app, scopes } = await validate(db, request);
      return {
        app: { name: app.name, website: app.website },
        scopes,
        outOfBand: request.redirect_uri === OAUTH_OUT_OF_BAND,
      };
    },

    /** The member's answer: a code for the app (sent back, or shown), or access_denied. */
    async decide(viewer: Viewer, decision: AuthorizationDecision): Promise<AuthorizationAnswer> {
      const { app, scopes } = await validate(db, decision);
      if (decision.decision === 'deny') {
        const redirectUrl = redirectWith(decision.redirect_uri, {
          error: 'access_denied',
          error_description: 'The resource owner or authorization server denied the request.',
          state: decision.state,
        });
        return { redirectUrl, code: null };
      }
      const code = await issueCode(db, { app, viewer, scopes, decision });
      const redirectUrl = redirectWith(decision.redirect_uri, { code, state: decision.state });
      return { redirectUrl, code: redirectUrl === null ? code : null };
    },

    /** grant_type=authorization_code: the code once, by its app, to its redirect URI, PKCE checked. */
    async exchange(
      app: repo.AppRow,
      input: CodeExchange,
      userAgent: string,
    ): Promise<mastodon.Token> {
      if (input.code === undefined) throw oauthErrors.invalidRequest('Missing code.');
      const code = await repo.takeCode(db, digest(input.code));
      if (!code || !isGoodFor(code, app, input)) throw oauthErrors.invalidGrant();
      const { token, scopes } = await memberToken(app, code, userAgent);
      return tokenEntity(token, scopes);
    },

    /** grant_type=client_credentials: a token for the app itself, within its scopes. */
    async appToken(app: repo.AppRow, scope: string | undefined): Promise<mastodon.Token> {
      const scopes = parseScopes(scope);
      const registered = split(app.scopes, ' ');
      if (!scopes?.every((name) => registered.includes(name))) throw oauthErrors.invalidScope();
      const now = Date.now();
      const id = newId(now);
      await repo.insertAppToken(db, {
        id,
        app_id: app.id,
        scopes: scopes.join(' '),
        created_at: now,
        expires_at: now + APP_TOKEN_TTL_SECONDS * 1000,
      });
      return tokenEntity(
        signAppToken({ appId: app.id, tokenId: id }, APP_TOKEN_TTL_SECONDS),
        scopes,
      );
    },

    /** POST /oauth/revoke: ends a token the app holds; 403 for another's, nothing for an ended one. */
    async revoke(app: repo.AppRow, claims: { sub: string; sid: string; kind: 'session' | 'app' }) {
      if (claims.kind === 'app') {
        if (claims.sub !== app.id) throw oauthErrors.unauthorizedClient();
        await repo.revokeAppToken(db, claims.sid, Date.now());
        return;
      }
      const session = await sessions.owner(claims.sid);
      if (!session) return;
      if (session.app_id !== app.id) throw oauthErrors.unauthorizedClient();
      await sessions.revoke(session.user_id, [session.id]);
    },

    /** An app-level token's grant, while it lasts (see app/plugins/auth.plugin.ts). */
    async checkAppToken(tokenId: string, appId: string) {
      const row = await repo.findAppToken(db, tokenId);
      const live = row?.revoked_at === null && row.expires_at > Date.now();
      if (!live || row.app_id !== appId) {
        return null;
      }
      return { appId, scopes: split(row.scopes, ' ') };
    },

    /** The app a token was granted to, as Mastodon shows it; undefined once it is gone. */
    async application(appId: string): Promise<mastodon.Application | undefined> {
      const row = await repo.findApp(db, appId);
      return row && toApplication(row);
    },
  };
}

function tokenEntity(token: string, scopes: readonly string[]): mastodon.Token {
  return {
    access_token: token,
    token_type: 'Bearer',
    scope: scopes.join(' '),
    created_at: Math.floor(Date.now() / 1000),
  };
}

export type OAuthService = ReturnType<typeof createOAuthService>;
