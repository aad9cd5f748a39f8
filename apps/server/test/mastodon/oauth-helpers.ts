import { createHash, randomBytes } from 'node:crypto';
import { createOAuthAPIClient, type mastodon } from 'masto';
import type { AuthorizationAnswer } from '@perch/contract';
import type { Member } from '../factories';
import type { ListeningApp } from './mastodon-helpers';

export const REDIRECT = 'https://client.example/callback';

export const pkce = () => {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
};

export const oauthClient = (t: ListeningApp) => createOAuthAPIClient({ url: t.url });

export function registerApp(
  t: ListeningApp,
  scopes = 'read write',
  redirectUris = [REDIRECT],
  clientName = 'Toot Client',
) {
  return t.client().v1.apps.create({
    clientName,
    redirectUris,
    scopes,
    website: 'https://client.example',
  });
}

/** The member's answer as the authorization page sends it. */
export async function authorize(
  t: ListeningApp,
  member: Member,
  request: Record<string, string>,
  decision: 'approve' | 'deny' = 'approve',
): Promise<{ status: number; body: AuthorizationAnswer & { errors?: string[] } }> {
  const response = await fetch(`${t.url}/api/oauth/authorization`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: member.token },
    body: JSON.stringify({ response_type: 'code', ...request, decision }),
  });
  return { status: response.status, body: (await response.json()) as never };
}

/** A code for the app, approved by the member (with PKCE unless `challenge` is null). */
export async function codeFor(
  t: ListeningApp,
  member: Member,
  app: mastodon.v1.Client,
  options: { scope?: string; challenge?: string | null; redirectUri?: string } = {},
): Promise<string> {
  const { scope = 'read write', challenge, redirectUri = REDIRECT } = options;
  const answer = await authorize(t, member, {
    client_id: app.clientId ?? '',
    redirect_uri: redirectUri,
    scope,
    state: 'xyz',
    ...(challenge && { code_challenge: challenge, code_challenge_method: 'S256' }),
  });
  if (answer.status !== 200) throw new Error(`authorize: ${JSON.stringify(answer.body)}`);
  if (answer.body.redirectUrl === null) return answer.body.code ?? '';
  const url = new URL(answer.body.redirectUrl);
  return url.searchParams.get('code') ?? '';
}

export async function postForm(t: ListeningApp, path: string, form: Record<string, string>) {
  const response = await fetch(`${t.url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(form).toString(),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}
