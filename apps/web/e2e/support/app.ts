import { mkdir } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Locator, Page, Response } from 'playwright-core';

const SCREENSHOT_DIR = resolve(
  dirname(fileURLToPath(import.meta.url)),
  '../../test-results/screenshots',
);

async function expectAppDocument(response: Response | null, what: string): Promise<void> {
  if (response === null) return; // same-document navigation
  const type = response.headers()['content-type'] ?? '';
  if (response.status() !== 200 || !type.includes('text/html')) {
    const body = (await response.text().catch(() => '')).slice(0, 300);
    throw new Error(
      `${what} answered ${response.status()} (${type || 'no content type'}) instead of the web app: ${body}`,
    );
  }
}

/** Loads `path` and checks the server answered with the web app's page. */
export async function visit(page: Page, path: string): Promise<void> {
  await expectAppDocument(await page.goto(path), `GET ${path}`);
}

/** Reloads and checks the server answered with the web app's page again. */
export async function reload(page: Page): Promise<void> {
  await expectAppDocument(await page.reload(), `Reloading ${pathname(page)}`);
}

/** Waits until the locator is visible (fails after the context's default timeout). */
export async function visible(locator: Locator): Promise<Locator> {
  await locator.first().waitFor({ state: 'visible' });
  return locator;
}

/** Resolves once the page shows `path` (pathname only). */
export async function atPath(page: Page, path: string): Promise<void> {
  await page.waitForURL((url) => url.pathname === path);
}

export function pathname(page: Page): string {
  return new URL(page.url()).pathname;
}

export function toast(page: Page, text: string | RegExp): Locator {
  return page.getByRole('status').filter({ hasText: text });
}

export async function storedSession(page: Page): Promise<unknown> {
  const raw = await page.evaluate(() => window.localStorage.getItem('loginDetails'));
  return raw === null ? null : (JSON.parse(raw) as unknown);
}

export async function loginAsGuest(page: Page): Promise<void> {
  await visit(page, '/login');
  await page.getByRole('button', { name: 'Login as guest', exact: true }).click();
  await atPath(page, '/');
  await visible(page.getByRole('heading', { level: 1, name: 'Home', exact: true }));
}

export async function screenshot(page: Page, name: string): Promise<string> {
  await mkdir(SCREENSHOT_DIR, { recursive: true });
  const viewport = page.viewportSize();
  const file = join(
    SCREENSHOT_DIR,
    viewport ? `${name}-${viewport.width}x${viewport.height}.png` : `${name}.png`,
  );
  await page.screenshot({ path: file, fullPage: false });
  return file;
}
