import { z } from 'zod';

/** Mastodon's Application entity (docs.joinmastodon.org/entities/Application). */
export const applicationSchema = z.object({
  id: z.string(),
  name: z.string(),
  website: z.string().nullable(),
  scopes: z.array(z.string()),
  redirect_uris: z.array(z.string()),
  /** Deprecated by Mastodon: the redirect URIs one a line. */
  redirect_uri: z.string(),
  /** Deprecated by Mastodon; Perch sends no Web Push, so it is empty. */
  vapid_key: z.string(),
});
export type Application = z.infer<typeof applicationSchema>;

/** What registering an app answers: the app with the credentials it signs in with. */
export const credentialApplicationSchema = applicationSchema.extend({
  client_id: z.string(),
  client_secret: z.string(),
  /** Always 0: client secrets do not expire. */
  client_secret_expires_at: z.number(),
});
export type CredentialApplication = z.infer<typeof credentialApplicationSchema>;

/** Mastodon's Token entity (docs.joinmastodon.org/entities/Token). */
export const tokenSchema = z.object({
  access_token: z.string(),
  token_type: z.literal('Bearer'),
  /** The scopes granted, space-separated. */
  scope: z.string(),
  /** UNIX timestamp, in seconds. */
  created_at: z.number(),
});
export type Token = z.infer<typeof tokenSchema>;

/** RFC 8414 authorization server metadata, as Mastodon answers it. */
export const authorizationServerSchema = z.object({
  issuer: z.string(),
  service_documentation: z.string(),
  authorization_endpoint: z.string(),
  token_endpoint: z.string(),
  app_registration_endpoint: z.string(),
  revocation_endpoint: z.string(),
  scopes_supported: z.array(z.string()),
  response_types_supported: z.array(z.string()),
  response_modes_supported: z.array(z.string()),
  code_challenge_methods_supported: z.array(z.string()),
  grant_types_supported: z.array(z.string()),
  token_endpoint_auth_methods_supported: z.array(z.string()),
});
export type AuthorizationServer = z.infer<typeof authorizationServerSchema>;
