import { mastodon } from '@perch/contract';
import type { FastifyError, FastifyInstance, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { answerFor } from '../../app/plugins/error-handler';
import { linksOf } from '../context';
import { GRANULAR_SCOPES, TOP_SCOPES } from '../scopes';
import { OAuthError, oauthErrors } from './oauth.errors';

const optional = z.string().max(2000).optional();

const tokenRequestSchema = z.object({
  grant_type: z.string().max(100),
  client_id: optional,
  client_secret: optional,
  code: optional,
  redirect_uri: optional,
  code_verifier: optional,
  scope: optional,
});

const revokeRequestSchema = z.object({
  client_id: optional,
  client_secret: optional,
  token: z.string().max(4000),
});

/** The client's credentials: HTTP Basic (client_secret_basic) or in the body (client_secret_post). */
function credentialsOf(
  request: FastifyRequest,
  body: { client_id?: string; client_secret?: string },
) {
  const basic = /^basic\s+(.+)$/i.exec(request.headers.authorization ?? '');
  if (!basic?.[1]) return { id: body.client_id, secret: body.client_secret };
  const decoded = Buffer.from(basic[1], 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 0) return { id: undefined, secret: undefined };
  return {
    id: decodeURIComponent(decoded.slice(0, colon)),
    secret: decodeURIComponent(decoded.slice(colon + 1)),
  };
}

/** OAuth's endpoints answer failures as {error, error_description} (RFC 6749 §5.2). */
function useOAuthErrors(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError | OAuthError, request, reply) => {
    if (error instanceof OAuthError) {
      return reply
        .status(error.statusCode)
        .send({ error: error.code, error_description: error.message });
    }
    if (hasZodFastifySchemaValidationErrors(error)) {
      const invalid = oauthErrors.invalidRequest(answerFor(error, request).messages.join('; '));
      return reply.status(400).send({ error: invalid.code, error_description: invalid.message });
    }
    const answer = answerFor(error, request);
    return reply.status(answer.status).send({ error: answer.messages.join('; ') });
  });
}

/**
 * Mastodon's OAuth endpoints (docs.joinmastodon.org/methods/oauth). GET /oauth/authorize is
 * Perch's web app (the page asks the member, through /api/oauth/authorization).
 */
export const oauthRoutes: FastifyPluginAsyncZod = async (app) => {
  const { oauth } = app.services;
  useOAuthErrors(app);
  app.post(
    '/oauth/token',
    {
      schema: {
        summary: 'Exchange an authorization code, or client credentials, for a token',
        body: tokenRequestSchema,
        response: { 200: mastodon.tokenSchema },
      },
    },
    async (request) => {
      const { body } = request;
      const credentials = credentialsOf(request, body);
      if (body.grant_type !== 'authorization_code' && body.grant_type !== 'client_credentials') {
        throw oauthErrors.unsupportedGrantType();
      }
      const client = await oauth.authenticate(credentials.id, credentials.secret);
      if (body.grant_type === 'client_credentials') return oauth.appToken(client, body.scope);
      return oauth.exchange(client, body, request.headers['user-agent'] ?? '');
    },
  );
  app.post(
    '/oauth/revoke',
    {
      schema: {
        summary: 'Revoke a token the app holds',
        body: revokeRequestSchema,
        response: { 200: z.object({}) },
      },
    },
    async (request) => {
      const credentials = credentialsOf(request, request.body);
      const client = await oauth.authenticate(credentials.id, credentials.secret);
      let claims;
      try {
        claims = app.tokenClaims(request.body.token);
      } catch {
        // Revoking is idempotent: a token that no longer stands (or never did) is ended.
        return {};
      }
      await oauth.revoke(client, claims);
      return {};
    },
  );
  app.get(
    '/.well-known/oauth-authorization-server',
    {
      schema: {
        summary: 'OAuth 2 authorization server metadata (RFC 8414)',
        response: { 200: mastodon.authorizationServerSchema },
      },
    },
    (request) => {
      const { origin } = linksOf(app, request);
      return {
        issuer: `${origin}/`,
        service_documentation: 'https://docs.joinmastodon.org/',
        authorization_endpoint: `${origin}/oauth/authorize`,
        token_endpoint: `${origin}/oauth/token`,
        app_registration_endpoint: `${origin}/api/v1/apps`,
        revocation_endpoint: `${origin}/oauth/revoke`,
        scopes_supported: [...TOP_SCOPES, ...GRANULAR_SCOPES],
        response_types_supported: ['code'],
        response_modes_supported: ['query'],
        code_challenge_methods_supported: ['S256'],
        grant_types_supported: ['authorization_code', 'client_credentials'],
        token_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post'],
      };
    },
  );
};
