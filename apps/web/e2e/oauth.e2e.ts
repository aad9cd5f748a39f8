import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { newAccount, signUpThroughApi } from './support/accounts';
import { visible, visit } from './support/app';
import { DESKTOP, launchChromium, openPage } from './support/chromium';

const executable = inject('browserExecutable');
const baseURL = inject('baseURL');
const REDIRECT = 'https://client.example/callback';

/** An app registered through Mastodon's API, as a client app would. */
async function registerApp(): Promise<string> {
  const response = await fetch(new URL('/api/v1/apps', baseURL), {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      client_name: 'Toot Client',
      redirect_uris: [REDIRECT],
      scopes: 'read write',
      website: 'https://client.example',
    }),
  });
  expect(response.status).toBe(200);
  const app = (await response.json()) as { client_id: string };
  return app.client_id;
}

/** The app's callback, answered here: the browser must not leave the machine. */
async function catchCallback(page: Page): Promise<void> {
  await page.route('https://client.example/**', (route) =>
    route.fulfill({ status: 200, contentType: 'text/plain', body: 'callback' }),
  );
}

const authorizePath = (clientId: string, state: string) =>
  `/oauth/authorize?${new URLSearchParams({
    response_type: 'code',
    client_id: clientId,
    redirect_uri: REDIRECT,
    scope: 'read write',
    state,
  }).toString()}`;

describe.skipIf(executable === null)("authorizing an app (Mastodon's OAuth)", () => {
  let browser: Browser;

  beforeAll(async () => {
    browser = await launchChromium(executable ?? '');
  });

  afterAll(async () => {
    await browser.close();
  });

  it('logs in, names the app and its scopes, and Authorize sends the code back; Deny refuses', async () => {
    const account = newAccount('oauth');
    await signUpThroughApi(baseURL, account);
    const clientId = await registerApp();
    const { context, page } = await openPage(browser, baseURL, DESKTOP);
    try {
      await catchCallback(page);
      await visit(page, authorizePath(clientId, 'first'));
      await page.getByLabel('Username', { exact: true }).fill(account.username);
      await page.getByLabel('Password', { exact: true }).fill(account.password);
      await page.getByRole('button', { name: 'Login', exact: true }).click();

      await visible(page.getByRole('heading', { name: 'Toot Client', exact: true }));
      const scopes = page.getByRole('list', { name: 'Permissions' }).getByRole('listitem');
      expect(await scopes.allTextContents()).toEqual([
        expect.stringMatching(/^read — /),
        expect.stringMatching(/^write — /),
      ]);
      await page.getByRole('button', { name: 'Authorize', exact: true }).click();
      await page.waitForURL((url) => url.origin === 'https://client.example');
      const approved = new URL(page.url());
      expect(approved.pathname).toBe('/callback');
      expect(approved.searchParams.get('code')).toMatch(/^[\w-]{40,}$/);
      expect(approved.searchParams.get('state')).toBe('first');

      await visit(page, authorizePath(clientId, 'second'));
      await page.getByRole('button', { name: 'Deny', exact: true }).click();
      await page.waitForURL((url) => url.origin === 'https://client.example');
      const denied = new URL(page.url());
      expect(denied.searchParams.get('error')).toBe('access_denied');
      expect(denied.searchParams.get('state')).toBe('second');
      expect(denied.searchParams.get('code')).toBeNull();
    } finally {
      await context.close();
    }
  });
});
