import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SessionList } from '@perch/contract';
import { createMembers } from '../social/social-helpers';
import type { Member } from '../factories';
import { createListeningApp, type ListeningApp } from './mastodon-helpers';
import {
  authorize,
  codeFor,
  oauthClient,
  pkce,
  postForm,
  REDIRECT,
  registerApp,
} from './oauth-helpers';

describe('Mastodon OAuth', () => {
  let t: ListeningApp;
  let ana: Member;

  beforeAll(async () => {
    t = await createListeningApp();
    [ana] = await createMembers(t.app, 1);
  });
  afterAll(() => t.close());

  it('registers an app and answers its credentials', async () => {
    const app = await registerApp(t);
    expect(app).toMatchObject({
      name: 'Toot Client',
      website: 'https://client.example',
      scopes: ['read', 'write'],
      redirectUris: [REDIRECT],
      redirectUri: REDIRECT,
    });
    expect(app.clientId).toMatch(/^[\w-]{40,}$/);
    expect(app.clientSecret).toMatch(/^[\w-]{40,}$/);

    const form = await postForm(t, '/api/v1/apps', {
      client_name: 'Form Client',
      'redirect_uris[]': 'urn:ietf:wg:oauth:2.0:oob',
      scopes: 'read',
    });
    expect(form.status).toBe(200);
    expect(form.body).toMatchObject({ redirect_uris: ['urn:ietf:wg:oauth:2.0:oob'] });

    for (const uri of ['not a uri', 'javascript:alert(1)']) {
      const bad = await postForm(t, '/api/v1/apps', { client_name: 'Bad', redirect_uris: uri });
      expect(bad).toEqual({
        status: 422,
        body: { error: 'Validation failed: Redirect URI must be an absolute URI.' },
      });
    }
  });

  it('describes an authorization request to the page, and refuses one it must not show', async () => {
    const app = await registerApp(t);
    const query = (extra: Record<string, string>) =>
      fetch(
        `${t.url}/api/oauth/authorization?${new URLSearchParams({
          response_type: 'code',
          client_id: app.clientId ?? '',
          redirect_uri: REDIRECT,
          ...extra,
        }).toString()}`,
      );
    const good = await query({ scope: 'read' });
    expect(good.status).toBe(200);
    expect(await good.json()).toEqual({
      app: { name: 'Toot Client', website: 'https://client.example' },
      scopes: ['read'],
      outOfBand: false,
    });
    expect((await query({ redirect_uri: 'https://evil.example/' })).status).toBe(400);
    expect((await query({ scope: 'read follow' })).status).toBe(400);
    expect((await query({ client_id: 'nope' })).status).toBe(401);
    const plain = await query({ code_challenge: 'abc', code_challenge_method: 'plain' });
    expect(plain.status).toBe(400);
  });

  it('exchanges a code with PKCE for a token that speaks for the member', async () => {
    const app = await registerApp(t);
    const { verifier, challenge } = pkce();
    const code = await codeFor(t, ana, app, { challenge });
    const credentials = { clientId: app.clientId ?? '', clientSecret: app.clientSecret ?? '' };

    await expect(
      oauthClient(t).token.create({
        grantType: 'authorization_code',
        code,
        redirectUri: REDIRECT,
        ...credentials,
        codeVerifier: 'the-wrong-verifier-of-enough-length-0123456789',
      } as never),
    ).rejects.toMatchObject({ statusCode: 400, message: 'invalid_grant' });

    // A refused exchange spends the code.
    const second = await codeFor(t, ana, app, { challenge });
    const token = await oauthClient(t).token.create({
      grantType: 'authorization_code',
      code: second,
      redirectUri: REDIRECT,
      ...credentials,
      codeVerifier: verifier,
    } as never);
    expect(token).toMatchObject({ tokenType: 'Bearer', scope: 'read write' });
    expect(Math.abs(token.createdAt - Date.now() / 1000)).toBeLessThan(60);

    const account = await t.client(token.accessToken).v1.accounts.verifyCredentials();
    expect(account.username).toBe(ana.user.username);
    const verified = await t.client(token.accessToken).v1.apps.verifyCredentials();
    expect(verified).toMatchObject({ name: 'Toot Client', scopes: ['read', 'write'] });

    const reused = await postForm(t, '/oauth/token', {
      grant_type: 'authorization_code',
      code: second,
      redirect_uri: REDIRECT,
      client_id: credentials.clientId,
      client_secret: credentials.clientSecret,
      code_verifier: verifier,
    });
    expect(reused.status).toBe(400);
    expect(reused.body).toMatchObject({ error: 'invalid_grant' });
    expect(reused.body.error_description).toMatch(/grant is invalid/);
  });

  it('refuses a code without its verifier, at another redirect URI, for another app, or expired', async () => {
    const app = await registerApp(t, 'read', [REDIRECT, 'https://client.example/other']);
    const other = await registerApp(t, 'read');
    const exchange = (code: string, extra: Record<string, string> = {}) =>
      postForm(t, '/oauth/token', {
        grant_type: 'authorization_code',
        code,
        redirect_uri: REDIRECT,
        client_id: app.clientId ?? '',
        client_secret: app.clientSecret ?? '',
        ...extra,
      });
    const { verifier, challenge } = pkce();
    const noVerifier = await exchange(await codeFor(t, ana, app, { scope: 'read', challenge }));
    expect(noVerifier.body.error).toBe('invalid_grant');

    const elsewhere = await codeFor(t, ana, app, { scope: 'read', challenge });
    const moved = await exchange(elsewhere, {
      redirect_uri: 'https://client.example/other',
      code_verifier: verifier,
    });
    expect(moved.body.error).toBe('invalid_grant');

    const stolen = await exchange(await codeFor(t, ana, app, { scope: 'read' }), {
      client_id: other.clientId ?? '',
      client_secret: other.clientSecret ?? '',
    });
    expect(stolen.body.error).toBe('invalid_grant');

    const late = await codeFor(t, ana, app, { scope: 'read' });
    await t.app.db
      .updateTable('oauth_codes')
      .set({ expires_at: Date.now() - 1 })
      .execute();
    expect((await exchange(late)).body.error).toBe('invalid_grant');

    const fine = await exchange(await codeFor(t, ana, app, { scope: 'read' }));
    expect(fine).toMatchObject({ status: 200, body: { scope: 'read', token_type: 'Bearer' } });

    const wrongSecret = await exchange('whatever', { client_secret: 'nope' });
    expect(wrongSecret).toMatchObject({ status: 401, body: { error: 'invalid_client' } });
    const grant = await exchange('whatever', { grant_type: 'password' });
    expect(grant).toMatchObject({ status: 400, body: { error: 'unsupported_grant_type' } });
  });

  it('shows the code out of band, and sends a denial back with access_denied', async () => {
    const app = await registerApp(t, 'read', ['urn:ietf:wg:oauth:2.0:oob', REDIRECT]);
    const request = { client_id: app.clientId ?? '', scope: 'read', state: 's1' };
    const oob = await authorize(t, ana, { ...request, redirect_uri: 'urn:ietf:wg:oauth:2.0:oob' });
    expect(oob.body.redirectUrl).toBeNull();
    expect(oob.body.code).toMatch(/^[\w-]{40,}$/);

    const denied = await authorize(t, ana, { ...request, redirect_uri: REDIRECT }, 'deny');
    const url = new URL(denied.body.redirectUrl ?? '');
    expect(`${url.origin}${url.pathname}`).toBe(REDIRECT);
    expect(url.searchParams.get('error')).toBe('access_denied');
    expect(url.searchParams.get('state')).toBe('s1');
    expect(url.searchParams.get('code')).toBeNull();
    expect(denied.body.code).toBeNull();

    const anonymous = await fetch(`${t.url}/api/oauth/authorization`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ ...request, redirect_uri: REDIRECT, decision: 'approve' }),
    });
    expect(anonymous.status).toBe(401);
  });

  it('enforces the granted scopes and keeps Perch’s own API closed to app tokens', async () => {
    const app = await registerApp(t, 'read write');
    const exchange = async (scope: string) => {
      const code = await codeFor(t, ana, app, { scope });
      const answer = await postForm(t, '/oauth/token', {
        grant_type: 'authorization_code',
        code,
        redirect_uri: REDIRECT,
        client_id: app.clientId ?? '',
        client_secret: app.clientSecret ?? '',
      });
      return String(answer.body.access_token);
    };
    const writeOnly = await exchange('write');
    const refused = await fetch(`${t.url}/api/v1/accounts/verify_credentials`, {
      headers: { authorization: `Bearer ${writeOnly}` },
    });
    expect(refused.status).toBe(403);
    expect(await refused.json()).toEqual({
      error: 'This action is outside the authorized scopes',
    });

    const read = await exchange('read');
    for (const path of ['/api/auth/sessions', '/api/notifications']) {
      const own = await fetch(`${t.url}${path}`, { headers: { authorization: read } });
      expect(own.status).toBe(401);
    }
    const withMember = await fetch(`${t.url}/api/auth/sessions`, {
      headers: { authorization: ana.token },
    });
    expect(withMember.status).toBe(200);
  });

  it('gives an app its own token, good only where app tokens are', async () => {
    const app = await registerApp(t, 'read write');
    const token = await oauthClient(t).token.create({
      grantType: 'client_credentials',
      clientId: app.clientId ?? '',
      clientSecret: app.clientSecret ?? '',
      redirectUri: REDIRECT,
      scope: 'read',
    });
    expect(token.scope).toBe('read');
    const verified = await t.client(token.accessToken).v1.apps.verifyCredentials();
    expect(verified.name).toBe('Toot Client');
    const member = await fetch(`${t.url}/api/v1/accounts/verify_credentials`, {
      headers: { authorization: `Bearer ${token.accessToken}` },
    });
    expect(member.status).toBe(422);
    expect(await member.json()).toEqual({ error: 'This method requires an authenticated user' });
    const own = await fetch(`${t.url}/api/auth/sessions`, {
      headers: { authorization: token.accessToken },
    });
    expect(own.status).toBe(401);

    const tooMuch = await postForm(t, '/oauth/token', {
      grant_type: 'client_credentials',
      client_id: app.clientId ?? '',
      client_secret: app.clientSecret ?? '',
      scope: 'read follow',
    });
    expect(tooMuch).toMatchObject({ status: 400, body: { error: 'invalid_scope' } });

    await oauthClient(t).revoke({
      clientId: app.clientId ?? '',
      clientSecret: app.clientSecret ?? '',
      token: token.accessToken,
    });
    await expect(t.client(token.accessToken).v1.apps.verifyCredentials()).rejects.toMatchObject({
      statusCode: 401,
    });
  });

  it('revokes a member token for its app only, and lists it among the devices by the app name', async () => {
    const app = await registerApp(t, 'read write', [REDIRECT], 'Pocket Toots');
    const other = await registerApp(t);
    const tokenOf = async () => {
      const code = await codeFor(t, ana, app);
      return oauthClient(t).token.create({
        grantType: 'authorization_code',
        code,
        redirectUri: REDIRECT,
        clientId: app.clientId ?? '',
        clientSecret: app.clientSecret ?? '',
      });
    };
    const first = await tokenOf();
    const notYours = await postForm(t, '/oauth/revoke', {
      client_id: other.clientId ?? '',
      client_secret: other.clientSecret ?? '',
      token: first.accessToken,
    });
    expect(notYours).toMatchObject({ status: 403, body: { error: 'unauthorized_client' } });
    const revoke = () =>
      postForm(t, '/oauth/revoke', {
        client_id: app.clientId ?? '',
        client_secret: app.clientSecret ?? '',
        token: first.accessToken,
      });
    expect(await revoke()).toEqual({ status: 200, body: {} });
    expect(await revoke()).toEqual({ status: 200, body: {} });
    await expect(t.client(first.accessToken).v1.accounts.verifyCredentials()).rejects.toMatchObject(
      { statusCode: 401 },
    );

    const second = await tokenOf();
    const devices = async () => {
      const response = await fetch(`${t.url}/api/auth/sessions`, {
        headers: { authorization: ana.token },
      });
      return ((await response.json()) as SessionList).sessions;
    };
    const listed = (await devices()).filter((session) => session.appName === 'Pocket Toots');
    expect(listed).toHaveLength(1);
    const [session] = listed;
    const ended = await fetch(`${t.url}/api/auth/sessions/${session?.id ?? ''}`, {
      method: 'DELETE',
      headers: { authorization: ana.token },
    });
    expect(ended.status).toBe(204);
    await expect(
      t.client(second.accessToken).v1.accounts.verifyCredentials(),
    ).rejects.toMatchObject({ statusCode: 401 });
    expect((await devices()).some((device) => device.appName === 'Pocket Toots')).toBe(false);
    expect((await devices()).some((device) => device.current && !device.appName)).toBe(true);
  });

  it('publishes its authorization server metadata', async () => {
    const response = await fetch(`${t.url}/.well-known/oauth-authorization-server`);
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({
      issuer: `${t.url}/`,
      authorization_endpoint: `${t.url}/oauth/authorize`,
      token_endpoint: `${t.url}/oauth/token`,
      revocation_endpoint: `${t.url}/oauth/revoke`,
      app_registration_endpoint: `${t.url}/api/v1/apps`,
      code_challenge_methods_supported: ['S256'],
      grant_types_supported: ['authorization_code', 'client_credentials'],
    });
  });
});
