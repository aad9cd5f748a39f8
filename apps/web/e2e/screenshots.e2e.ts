import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { loginAsGuest, screenshot, toast, visible, visit } from './support/app';
import { DESKTOP, launchChromium, MOBILE, openPage } from './support/chromium';

const executable = inject('browserExecutable');
const baseURL = inject('baseURL');

describe.skipIf(executable === null)('screenshots', () => {
  let browser: Browser;

  beforeAll(async () => {
    browser = await launchChromium(executable ?? '');
  });

  afterAll(async () => {
    await browser.close();
  });

  it.each([
    ['mobile', MOBILE],
    ['desktop', DESKTOP],
  ] as const)('captures login and home (%s)', async (_name, viewport) => {
    const { context, page } = await openPage(browser, baseURL, viewport);
    try {
      await visit(page, '/login');
      await visible(page.getByRole('button', { name: 'Login', exact: true }));
      const illustration = page.locator('.auth__illustration');
      // The illustration only shows beside the form on wide screens.
      expect(await illustration.isVisible()).toBe(viewport.width >= 960);
      await screenshot(page, 'login');

      await loginAsGuest(page);
      await toast(page, /^Welcome back/).waitFor({ state: 'hidden' });
      await screenshot(page, 'home');
    } finally {
      await context.close();
    }
  });
});
