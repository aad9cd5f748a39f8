import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { newAccount, logIn, signUpThroughApi, submitLogin } from './support/accounts';
import { atPath, pathname, screenshot, storedSession, toast, visible, visit } from './support/app';
import { DESKTOP, launchChromium, MOBILE, openPage } from './support/chromium';

const executable = inject('browserExecutable');
const baseURL = inject('baseURL');

function region(page: Page, name: string): Locator {
  return page.getByRole('region', { name, exact: true });
}

/** Opens Settings from the sidebar's account menu (desktop). */
async function openSettingsFromSidebar(page: Page): Promise<void> {
  const sidebar = page.getByRole('complementary', { name: 'Sidebar' });
  await sidebar.getByRole('button', { name: 'Account menu', exact: true }).click();
  await sidebar.getByRole('link', { name: 'Settings', exact: true }).click();
  await atPath(page, '/settings');
  await visible(page.getByRole('heading', { level: 1, name: 'Settings', exact: true }));
}

/** Opens Settings from the bottom bar's account menu (phone). */
async function openSettingsFromBottomBar(page: Page): Promise<void> {
  const bar = page.getByRole('navigation', { name: 'Quick navigation' });
  await bar.getByRole('button', { name: 'Account menu', exact: true }).click();
  await bar.getByRole('link', { name: 'Settings', exact: true }).click();
  await atPath(page, '/settings');
  await visible(page.getByRole('heading', { level: 1, name: 'Settings', exact: true }));
}

describe.skipIf(executable === null)('settings: account and safety', () => {
  let browser: Browser;

  beforeAll(async () => {
    browser = await launchChromium(executable ?? '');
  });

  afterAll(async () => {
    await browser.close();
  });

  it('changes the password; only the new one logs in afterwards', async () => {
    const { context, page } = await openPage(browser, baseURL, DESKTOP);
    try {
      const account = newAccount('pw');
      const newPassword = `${account.password}-changed`;
      await signUpThroughApi(baseURL, account);
      await logIn(page, account.username, account.password);
      await openSettingsFromSidebar(page);
      await screenshot(page, 'settings');

      const form = region(page, 'Password');
      await form.getByLabel('Current password', { exact: true }).fill(account.password);
      await form.getByLabel('New password', { exact: true }).fill(newPassword);
      await form.getByLabel('Confirm new password', { exact: true }).fill(newPassword);
      await form.getByRole('button', { name: 'Change password', exact: true }).click();

      await visible(toast(page, 'Password changed. Other devices were signed out.'));
      expect(await form.getByLabel('Current password', { exact: true }).inputValue()).toBe('');
      expect(pathname(page)).toBe('/settings');

      const sidebar = page.getByRole('complementary', { name: 'Sidebar' });
      await sidebar.getByRole('button', { name: 'Account menu', exact: true }).click();
      await sidebar.getByRole('button', { name: 'Log out', exact: true }).click();
      await atPath(page, '/login');

      await submitLogin(page, account.username, account.password);
      await visible(toast(page, 'Invalid username and password'));
      expect(pathname(page)).toBe('/login');

      await logIn(page, account.username, newPassword);
      expect(await storedSession(page)).toMatchObject({ user: { username: account.username } });
    } finally {
      await context.close();
    }
  });

  it('logs another device out: its next call is refused and it returns to /login', async () => {
    const phone = await openPage(browser, baseURL, MOBILE);
    const laptop = await openPage(browser, baseURL, DESKTOP);
    try {
      const account = newAccount('dev');
      await signUpThroughApi(baseURL, account);
      // The laptop only learns of the logout through its next call: its event stream (which
      // would also notice) is kept closed.
      await laptop.context.route('**/api/events**', (route) => route.abort());
      await logIn(laptop.page, account.username, account.password);
      await logIn(phone.page, account.username, account.password);

      await openSettingsFromBottomBar(phone.page);
      const devices = region(phone.page, 'Devices');
      const rows = devices.getByTestId('device');
      await expect.poll(() => rows.count()).toBe(2);
      await visible(rows.filter({ hasText: 'This device' }));
      const other = rows.filter({ hasNotText: 'This device' });
      await visible(other.getByText('Chrome on Linux', { exact: true }));
      await devices.scrollIntoViewIfNeeded();
      await screenshot(phone.page, 'settings-devices');

      await other.getByRole('button', { name: 'Log out of Chrome on Linux', exact: true }).click();
      await visible(toast(phone.page, 'Device logged out.'));
      await expect.poll(() => rows.count()).toBe(1);

      const refused = laptop.page.waitForResponse(
        (response) => response.url().includes('/api/') && response.status() === 401,
      );
      await laptop.page
        .getByRole('complementary', { name: 'Sidebar' })
        .getByRole('link', { name: 'Explore', exact: true })
        .click();
      await refused;
      await atPath(laptop.page, '/login');
      expect(await storedSession(laptop.page)).toBeNull();

      // The phone is still signed in.
      await visit(phone.page, '/settings');
      await visible(region(phone.page, 'Devices').getByText('This device', { exact: true }));
    } finally {
      await phone.context.close();
      await laptop.context.close();
    }
  });

  it('downloads the data, then deletes the account for good', async () => {
    const { context, page } = await openPage(browser, baseURL, DESKTOP);
    try {
      const account = newAccount('del');
      await signUpThroughApi(baseURL, account);
      await logIn(page, account.username, account.password);
      await visit(page, '/settings');

      const data = region(page, 'Your data');
      const download = page.waitForEvent('download');
      await data.getByRole('button', { name: 'Download your data', exact: true }).click();
      expect((await download).suggestedFilename()).toMatch(/\.zip$/);

      await data.getByRole('button', { name: 'Delete account', exact: true }).click();
      const dialog = page.getByRole('dialog', { name: 'Delete account' });
      const confirm = dialog.getByRole('button', { name: 'Delete', exact: true });
      await dialog.getByLabel('Password', { exact: true }).fill(account.password);
      expect(await confirm.isDisabled()).toBe(true);
      await dialog
        .getByLabel(`Type your username ${account.username} to confirm`)
        .fill(account.username);
      expect(await confirm.isEnabled()).toBe(true);
      await confirm.click();

      await visible(toast(page, 'Your account has been deleted.'));
      await atPath(page, '/login');
      expect(await storedSession(page)).toBeNull();

      await submitLogin(page, account.username, account.password);
      await visible(toast(page, 'Invalid username and password'));
      expect(pathname(page)).toBe('/login');
    } finally {
      await context.close();
    }
  });
});
