import type { Browser, Page, Request } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { newAccount, signUpThroughApi } from './support/accounts';
import { reload, visible, visit } from './support/app';
import { launchChromium, MOBILE, openPage } from './support/chromium';

const executable = inject('browserExecutable');
const baseURL = inject('baseURL');

/** What the login page may cost a new visitor on a phone (docs/web-app.md). */
const SCRIPT_BUDGET_BYTES = 60 * 1024;
const TOTAL_BUDGET_BYTES = 100 * 1024;
/** An issue code only zod's code holds: its presence marks the response schemas' chunk. */
const ZOD_MARKER = 'invalid_type';

interface Loaded {
  url: string;
  type: string;
  /** Bytes on the wire: headers and the (compressed) body. */
  bytes: number;
  body: string;
}

/**
 * Records every request the page makes, with its transferred size and text, once finished;
 * `stop` ends the recording and waits for what it started.
 */
function recordLoads(page: Page): { loads: Loaded[]; stop: () => Promise<void> } {
  const loads: Loaded[] = [];
  const pending: Promise<void>[] = [];
  const record = async (request: Request) => {
    const response = await request.response();
    const sizes = await request.sizes();
    const body = request.resourceType() === 'script' ? ((await response?.text()) ?? '') : '';
    loads.push({
      url: new URL(request.url()).pathname,
      type: request.resourceType(),
      bytes: sizes.responseHeadersSize + sizes.responseBodySize,
      body,
    });
  };
  const onFinished = (request: Request) => {
    pending.push(record(request));
  };
  page.on('requestfinished', onFinished);
  return {
    loads,
    stop: async () => {
      page.off('requestfinished', onFinished);
      await Promise.all(pending);
    },
  };
}

const sum = (loads: Loaded[]) => loads.reduce((total, load) => total + load.bytes, 0);

describe.skipIf(executable === null)("a new visitor's first load", () => {
  let browser: Browser;

  beforeAll(async () => {
    browser = await launchChromium(executable ?? '');
  });

  afterAll(async () => {
    await browser.close();
  });

  it('opens the login page within its budget, without the response schemas', async () => {
    const { context, page } = await openPage(browser, baseURL, MOBILE);
    try {
      const { loads, stop } = recordLoads(page);
      await visit(page, '/login');
      await visible(page.getByRole('button', { name: 'Login', exact: true }));
      // Everything the page fetches by itself, the idle prefetching included.
      await page.waitForLoadState('networkidle');
      await page.waitForTimeout(1_000);
      await page.waitForLoadState('networkidle');
      await stop();

      const scripts = loads.filter((load) => load.type === 'script');
      expect(scripts.length).toBeGreaterThan(0);
      expect(
        scripts.filter((load) => load.body.includes(ZOD_MARKER)).map((load) => load.url),
      ).toEqual([]);
      expect(sum(scripts)).toBeLessThanOrEqual(SCRIPT_BUDGET_BYTES);
      expect(sum(loads)).toBeLessThanOrEqual(TOTAL_BUDGET_BYTES);

      // Starting on the form fetches them, so the answer to Login is checked without a wait.
      const schemas = page.waitForResponse(async (response) =>
        (await response.text().catch(() => '')).includes(ZOD_MARKER),
      );
      await page.getByLabel('Username', { exact: true }).click();
      await schemas;
    } finally {
      await context.close();
    }
  });

  it('leaves a public page the server rendered to a reader without a session, and mounts the app over it with one', async () => {
    const account = newAccount('reader');
    await signUpThroughApi(baseURL, account);
    const shell = await (await fetch(`${baseURL}/`)).text();
    const publicPage = shell.replace(
      '<div id="root"></div>',
      `<div id="root" data-public-page="profile"><main><h1>Public page of @${account.username}</h1></main></div>`,
    );
    const { context, page } = await openPage(browser, baseURL, MOBILE);
    try {
      // The server's own pages are someone else's work: the test stands in for one.
      await page.route(`**/@${account.username}`, (route) =>
        route.fulfill({ status: 200, contentType: 'text/html', body: publicPage }),
      );
      await visit(page, `/@${account.username}`);
      await page.waitForLoadState('networkidle');
      await visible(page.getByRole('heading', { name: `Public page of @${account.username}` }));
      expect(new URL(page.url()).pathname).toBe(`/@${account.username}`);

      const login = await fetch(`${baseURL}/api/auth/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ username: account.username, password: account.password }),
      });
      const { encodedToken, foundUser } = (await login.json()) as {
        encodedToken: string;
        foundUser: unknown;
      };
      await page.evaluate(
        (session) => {
          window.localStorage.setItem('loginDetails', session);
        },
        JSON.stringify({ token: encodedToken, user: foundUser }),
      );
      await reload(page);
      await visible(page.getByRole('heading', { level: 1, name: 'Mira Test' }));
      await expect(
        page.getByRole('heading', { name: `Public page of @${account.username}` }).count(),
      ).resolves.toBe(0);
    } finally {
      await context.close();
    }
  });

  it('lets the server answer /@ addresses even once the service worker keeps the app', async () => {
    const { context, page } = await openPage(browser, baseURL);
    try {
      await visit(page, '/login');
      await page.evaluate(() => navigator.serviceWorker.ready.then(() => undefined));
      await reload(page);
      await page.waitForFunction(() => navigator.serviceWorker.controller !== null);

      const appPage = await page.goto('/explore');
      expect(appPage?.fromServiceWorker()).toBe(true);
      const publicPage = await page.goto('/@guest');
      expect(publicPage?.fromServiceWorker()).toBe(false);
      const robots = await page.goto('/robots.txt');
      expect(robots?.fromServiceWorker()).toBe(false);
    } finally {
      await context.close();
    }
  });
});
