import { AppError } from '../../lib/errors';

/**
 * A refusal of OAuth's endpoints: `code` is OAuth's error code (RFC 6749 §5.2), the message its
 * description. On /oauth it answers {error, error_description}; elsewhere (Perch's own API, for
 * the authorization page) it is an AppError like any other.
 */
export class OAuthError extends AppError {
  constructor(
    statusCode: number,
    readonly code: string,
    description: string,
  ) {
    super(statusCode, description);
    this.name = 'OAuthError';
  }
}

// Descriptions as Mastodon (Doorkeeper) words them, so that clients show what they know.
export const oauthErrors = {
  invalidClient: () =>
    new OAuthError(
      401,
      'invalid_client',
      'Client authentication failed due to unknown client, no client authentication included, or unsupported authentication method.',
    ),
  invalidGrant: () =>
    new OAuthError(
      400,
      'invalid_grant',
      'The provided authorization grant is invalid, expired, revoked, does not match the redirection URI used in the authorization request, or was issued to another client.',
    ),
  invalidScope: () =>
    new OAuthError(400, 'invalid_scope', 'The requested scope is invalid, unknown, or malformed.'),
  invalidRedirectUri: () =>
    new OAuthError(
      400,
      'invalid_redirect_uri',
      "The requested redirect uri is malformed or doesn't match client redirect URI.",
    ),
  invalidRequest: (description: string) => new OAuthError(400, 'invalid_request', description),
  unsupportedGrantType: () =>
    new OAuthError(
      400,
      'unsupported_grant_type',
      'The authorization grant type is not supported by the authorization server.',
    ),
  unsupportedResponseType: () =>
    new OAuthError(
      400,
      'unsupported_response_type',
      'The authorization server does not support this response type.',
    ),
  unauthorizedClient: () =>
    new OAuthError(403, 'unauthorized_client', 'You are not authorized to revoke this token'),
} as const;
