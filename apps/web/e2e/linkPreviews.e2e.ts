import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { loginAsGuest, toast, visible, visit } from './support/app';
import { launchChromium, MOBILE, openPage } from './support/chromium';
import { gradientPng, postCard } from './support/posts';

const executable = inject('browserExecutable');
const baseURL = inject('baseURL');

const PLACEHOLDER = "What's is in your mind?";
const stamp = Date.now().toString(36);
const TITLE = `Perches of the north ${stamp}`;

/** A page with OpenGraph tags and an image, served from this machine for the server to fetch. */
function startPageServer(): Promise<{ server: Server; origin: string }> {
  const image = gradientPng(240, 126);
  const page = `<!doctype html><html><head>
<meta property="og:title" content="${TITLE}">
<meta property="og:description" content="Where they sit, and why.">
<meta property="og:site_name" content="Field Notes">
<meta property="og:image" content="/cover.png">
</head><body></body></html>`;
  const server = createServer((request, response) => {
    if (request.url === '/cover.png') {
      response.writeHead(200, { 'content-type': 'image/png' }).end(image);
      return;
    }
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(page);
  });
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      resolve({ server, origin: `http://127.0.0.1:${String(port)}` });
    });
  });
}

describe.skipIf(executable === null)('link previews', () => {
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let site: { server: Server; origin: string };

  beforeAll(async () => {
    site = await startPageServer();
    browser = await launchChromium(executable ?? '');
    // A phone's width: the card must fit it.
    ({ context, page } = await openPage(browser, baseURL, { ...MOBILE, width: 360 }));
    await loginAsGuest(page);
    await toast(page, /^Welcome back/).waitFor({ state: 'hidden' });
  });

  afterAll(async () => {
    await context.close();
    await browser.close();
    site.server.close();
  });

  it("shows a post's link as a preview card once the server has fetched it", async () => {
    await visit(page, '/');
    const composer = page.getByRole('region', { name: 'New post' });
    await composer.getByPlaceholder(PLACEHOLDER).fill(`Reading ${site.origin}/article ${stamp}`);
    await composer.getByRole('button', { name: 'Post', exact: true }).click();
    await visible(toast(page, 'New post created'));

    // The card arrives with the live event, without a reload.
    const card = postCard(page, stamp).getByRole('link', { name: TITLE });
    await visible(card);
    expect(await card.getAttribute('href')).toBe(`${site.origin}/article`);
    expect(await card.getAttribute('target')).toBe('_blank');
    expect(await card.getAttribute('rel')).toBe('noopener noreferrer nofollow');
    const image = card.locator('img');
    expect(await image.getAttribute('alt')).toBe('');
    expect(await image.getAttribute('src')).toMatch(/^\/media\/[0-9a-f]{2}\/[0-9a-f]{64}\.webp$/);
    await expect
      .poll(() => image.evaluate((element: HTMLImageElement) => element.naturalWidth))
      .toBeGreaterThan(0);

    // Nothing sticks out of a 360 px screen.
    const box = await card.boundingBox();
    expect(box).not.toBeNull();
    expect((box?.x ?? 0) + (box?.width ?? 0)).toBeLessThanOrEqual(360);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
      360,
    );
  });
});
