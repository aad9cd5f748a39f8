import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import {
  atPath,
  loginAsGuest,
  pathname,
  reload,
  storedSession,
  visible,
  visit,
} from './support/app';
import { DESKTOP, launchChromium, MOBILE, openPage } from './support/chromium';

const executable = inject('browserExecutable');
const baseURL = inject('baseURL');

describe.skipIf(executable === null)('navigation', () => {
  let browser: Browser;

  beforeAll(async () => {
    browser = await launchChromium(executable ?? '');
  });

  afterAll(async () => {
    await browser.close();
  });

  it.each(['/', '/explore', '/bookmarks', '/likedPost', '/profile/guest'])(
    'sends a visitor without a session from %s to /login',
    async (path) => {
      const { context, page } = await openPage(browser, baseURL);
      try {
        await visit(page, path);
        await atPath(page, '/login');
        await visible(page.getByRole('button', { name: 'Login', exact: true }));
      } finally {
        await context.close();
      }
    },
  );

  it('forgets a stored session the server rejects', async () => {
    const { context, page } = await openPage(browser, baseURL);
    try {
      await context.addInitScript(() => {
        if (sessionStorage.getItem('seeded') !== null) return;
        sessionStorage.setItem('seeded', '1');
        const now = new Date().toISOString();
        localStorage.setItem(
          'loginDetails',
          JSON.stringify({
            token: 'not-a-real-token',
            user: {
              _id: 'nobody',
              username: 'nobody',
              firstName: 'No',
              lastName: 'Body',
              bio: '',
              avatarURL: null,
              createdAt: now,
              updatedAt: now,
              followersCount: 0,
              followingCount: 0,
              postsCount: 0,
            },
          }),
        );
      });
      await visit(page, '/bookmarks');
      await atPath(page, '/login');
      expect(await storedSession(page)).toBeNull();
    } finally {
      await context.close();
    }
  });

  it('shows the 404 page for unknown paths and "Go back home" returns home', async () => {
    const { context, page } = await openPage(browser, baseURL);
    try {
      await loginAsGuest(page);
      await visit(page, '/this/page/does/not/exist');

      await visible(page.getByRole('heading', { name: 'Page not found', exact: true }));
      await visible(page.getByText("Sorry, we couldn't find the page you're looking for."));
      expect(await page.getByRole('link', { name: 'Contact support' }).getAttribute('href')).toBe(
        '/',
      );

      await page.getByRole('link', { name: 'Go back home', exact: true }).click();
      await atPath(page, '/');
      await visible(page.getByRole('heading', { level: 1, name: 'Home', exact: true }));
    } finally {
      await context.close();
    }
  });

  it('shows the 404 page to visitors too', async () => {
    const { context, page } = await openPage(browser, baseURL, MOBILE);
    try {
      await visit(page, '/nowhere');
      await visible(page.getByRole('heading', { name: 'Page not found', exact: true }));
      await page.getByRole('link', { name: 'Go back home', exact: true }).click();
      await atPath(page, '/login');
    } finally {
      await context.close();
    }
  });

  it('uses the sidebar and right panel on wide screens', async () => {
    const { context, page } = await openPage(browser, baseURL, DESKTOP);
    try {
      await loginAsGuest(page);
      const sidebar = page.getByRole('complementary', { name: 'Sidebar' });
      await visible(sidebar);
      await visible(page.getByPlaceholder('Search...'));
      expect(await page.getByRole('navigation', { name: 'Quick navigation' }).isVisible()).toBe(
        false,
      );

      for (const [name, path] of [
        ['Explore', '/explore'],
        ['Bookmarks', '/bookmarks'],
        ['Liked Post', '/likedPost'],
        ['Profile', '/profile/guest'],
        ['Home', '/'],
      ] as const) {
        await sidebar.getByRole('link', { name, exact: true }).click();
        await atPath(page, path);
      }

      const opener = sidebar.getByRole('button', { name: 'Create a new Post', exact: true });
      await opener.click();
      const dialog = page.getByRole('dialog', { name: 'Create Post' });
      await visible(dialog);
      await page.keyboard.press('Escape');
      await dialog.waitFor({ state: 'hidden' });
      expect(await opener.evaluate((element) => element === document.activeElement)).toBe(true);

      await opener.click();
      await dialog.getByRole('button', { name: 'Close', exact: true }).click();
      await dialog.waitFor({ state: 'hidden' });
    } finally {
      await context.close();
    }
  });

  it('returns to where Home was scrolled on Back, and opens other screens at the top', async () => {
    const { context, page } = await openPage(browser, baseURL, DESKTOP);
    try {
      await loginAsGuest(page);
      await visible(page.getByTestId('post-card').first());
      await page.evaluate(() => {
        window.scrollTo(0, 600);
      });
      await expect.poll(() => page.evaluate(() => window.scrollY)).toBe(600);
      const sidebar = page.getByRole('complementary', { name: 'Sidebar' });
      await sidebar.getByRole('link', { name: 'Explore', exact: true }).click();
      await atPath(page, '/explore');
      await expect.poll(() => page.evaluate(() => window.scrollY)).toBe(0);
      await page.goBack();
      await atPath(page, '/');
      await expect.poll(() => page.evaluate(() => window.scrollY)).toBe(600);
      // It stays there once the feed has settled.
      await page.waitForTimeout(300);
      expect(await page.evaluate(() => window.scrollY)).toBe(600);
    } finally {
      await context.close();
    }
  });

  it('keeps the place through a reload, and opens an address typed anew at the top', async () => {
    const { context, page } = await openPage(browser, baseURL, DESKTOP);
    const scrollY = () => page.evaluate(() => window.scrollY);
    try {
      await loginAsGuest(page);
      await visit(page, '/settings');
      await visible(page.getByRole('heading', { level: 1, name: 'Settings', exact: true }));
      await page.evaluate(() => {
        window.scrollTo(0, 400);
      });
      await expect.poll(scrollY).toBe(400);
      await reload(page);
      await expect.poll(scrollY).toBe(400);
      // Another address, and the same one, loaded from the address bar: both start at the top.
      await visit(page, '/');
      await visible(page.getByTestId('post-card').first());
      await page.waitForTimeout(300);
      expect(await scrollY()).toBe(0);
      await visit(page, '/settings');
      await visible(page.getByRole('heading', { level: 1, name: 'Settings', exact: true }));
      await page.waitForTimeout(300);
      expect(await scrollY()).toBe(0);
    } finally {
      await context.close();
    }
  });

  it('uses the bottom bar on small screens', async () => {
    const { context, page } = await openPage(browser, baseURL, MOBILE);
    try {
      await loginAsGuest(page);
      const bar = page.getByRole('navigation', { name: 'Quick navigation' });
      await visible(bar);
      expect(await page.getByRole('complementary', { name: 'Sidebar' }).isVisible()).toBe(false);

      await bar.getByRole('link', { name: 'Explore', exact: true }).click();
      await atPath(page, '/explore');
      await bar.getByRole('link', { name: 'Liked posts', exact: true }).click();
      await atPath(page, '/likedPost');
      await bar.getByRole('link', { name: 'Profile', exact: true }).click();
      expect(pathname(page)).toMatch(/^\/profile\//);
      await bar.getByRole('button', { name: 'New post', exact: true }).click();
      await visible(page.getByRole('dialog', { name: 'Create Post' }));
    } finally {
      await context.close();
    }
  });
});
