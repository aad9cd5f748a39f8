import { z } from 'zod';

// Perch's side of Mastodon's OAuth authorization (GET /oauth/authorize): the page that asks the
// member whether an app may act for them reads and answers through these.

/** Where an app's member is sent to show the code instead of being redirected. */
export const OAUTH_OUT_OF_BAND = 'urn:ietf:wg:oauth:2.0:oob';

/** The authorization request, as the app put it in /oauth/authorize's query. */
export const authorizationRequestSchema = z.object({
  response_type: z.string().max(20).optional(),
  client_id: z.string().min(1).max(100),
  redirect_uri: z.string().min(1).max(2000),
  scope: z.string().max(2000).optional(),
  state: z.string().max(2000).optional(),
  code_challenge: z.string().max(200).optional(),
  code_challenge_method: z.string().max(20).optional(),
});
export type AuthorizationRequest = z.infer<typeof authorizationRequestSchema>;

/** What the member is asked to allow: the app, as it named itself, and the scopes it asks for. */
export const authorizationDescriptionSchema = z.object({
  app: z.object({ name: z.string(), website: z.string().nullable() }),
  scopes: z.array(z.string()),
  /** True when the code is shown to the member rather than sent back to the app. */
  outOfBand: z.boolean(),
});
export type AuthorizationDescription = z.infer<typeof authorizationDescriptionSchema>;

/** The member's answer to the request. */
export const authorizationDecisionSchema = authorizationRequestSchema.extend({
  decision: z.enum(['approve', 'deny']),
});
export type AuthorizationDecision = z.infer<typeof authorizationDecisionSchema>;

/**
 * Where to send the member's browser next (with `code` and `state`, or `error=access_denied`),
 * or, out of band, the code to show them.
 */
export const authorizationAnswerSchema = z.object({
  redirectUrl: z.string().nullable(),
  code: z.string().nullable(),
});
export type AuthorizationAnswer = z.infer<typeof authorizationAnswerSchema>;
