import { existsSync } from 'node:fs';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';

export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

const DEFAULT_EXECUTABLE = '/usr/bin/chromium';

/**
 * The Chromium to drive (CHROME_PATH, else Debian's). When none exists the browser tests are
 * skipped with a console notice, unless REQUIRE_BROWSER=1 makes that an error.
 */
export function resolveBrowserExecutable(): string | null {
  const executable = process.env.CHROME_PATH ?? DEFAULT_EXECUTABLE;
  if (existsSync(executable)) return executable;
  const message = `Chromium not found at ${executable} (set CHROME_PATH to point at one).`;
  if (process.env.REQUIRE_BROWSER === '1') {
    throw new Error(`${message} REQUIRE_BROWSER=1, so the browser tests cannot be skipped.`);
  }
  console.warn(`\n[e2e] ${message} Skipping the browser tests.\n`);
  return null;
}

export function launchChromium(executablePath: string): Promise<Browser> {
  return chromium.launch({ executablePath, headless: true, args: CHROMIUM_ARGS });
}

export interface Viewport {
  width: number;
  height: number;
}

export const MOBILE: Viewport = { width: 390, height: 844 };
export const DESKTOP: Viewport = { width: 1280, height: 800 };

export async function openPage(
  browser: Browser,
  baseURL: string,
  viewport: Viewport = DESKTOP,
): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({
    baseURL,
    viewport,
    reducedMotion: 'reduce',
    colorScheme: 'light',
  });
  context.setDefaultTimeout(15_000);
  const page = await context.newPage();
  return { context, page };
}
