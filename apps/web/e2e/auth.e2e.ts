import { PASSWORD_MISMATCH } from '@perch/contract';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import {
  atPath,
  loginAsGuest,
  pathname,
  reload,
  storedSession,
  toast,
  visible,
  visit,
} from './support/app';
import { launchChromium, MOBILE, openPage } from './support/chromium';

const executable = inject('browserExecutable');
const baseURL = inject('baseURL');

const account = {
  firstName: 'Ada',
  lastName: 'Lovelace',
  email: `ada.${Date.now()}@example.com`,
  username: `ada_${Date.now().toString(36)}`,
  password: 'analytical-engine-1843',
};

describe.skipIf(executable === null)('account lifecycle', () => {
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;

  beforeAll(async () => {
    browser = await launchChromium(executable ?? '');
    ({ context, page } = await openPage(browser, baseURL));
  });

  afterAll(async () => {
    await context.close();
    await browser.close();
  });

  it('signs up after correcting a password mismatch and lands home', async () => {
    await visit(page, '/signup');
    await page.getByLabel('First Name', { exact: true }).fill(account.firstName);
    await page.getByLabel('Last Name', { exact: true }).fill(account.lastName);
    await page.getByLabel('Email', { exact: true }).fill(account.email);
    await page.getByLabel('Username', { exact: true }).fill(account.username);
    await page.getByLabel('Password', { exact: true }).fill(account.password);
    await page.getByLabel('Confirm Password', { exact: true }).fill(`${account.password}-typo`);
    await page.getByRole('button', { name: 'Signup', exact: true }).click();

    await visible(toast(page, PASSWORD_MISMATCH));
    expect(pathname(page)).toBe('/signup');
    expect(await storedSession(page)).toBeNull();

    await page.getByLabel('Confirm Password', { exact: true }).fill(account.password);
    await page.getByRole('button', { name: 'Signup', exact: true }).click();

    await atPath(page, '/');
    await visible(toast(page, `Hey! ${account.firstName}`));
    await visible(page.getByRole('heading', { level: 1, name: 'Home', exact: true }));
    const stored = await storedSession(page);
    expect(stored).toMatchObject({
      user: { username: account.username, firstName: account.firstName },
    });
    expect(typeof (stored as { token?: unknown }).token).toBe('string');
    // The sidebar shows the new member.
    await visible(page.getByText(`${account.firstName} ${account.lastName}`, { exact: true }));
    await visible(page.getByText(`@${account.username}`, { exact: true }));
  });

  it('logs out from the account menu', async () => {
    await page.getByRole('button', { name: 'Account menu', exact: true }).click();
    await page.getByRole('button', { name: 'Log out', exact: true }).click();

    await visible(toast(page, 'Logged out successfully!'));
    await atPath(page, '/login');
    expect(await storedSession(page)).toBeNull();
  });

  it('rejects a wrong password, then logs in with the right one', async () => {
    await page.getByLabel('Username', { exact: true }).fill(account.username);
    await page.getByLabel('Password', { exact: true }).fill('not-the-password');
    await page.getByRole('button', { name: 'Login', exact: true }).click();

    await visible(toast(page, 'Invalid username and password'));
    expect(pathname(page)).toBe('/login');

    await page.getByLabel('Password', { exact: true }).fill(account.password);
    await page.getByRole('button', { name: 'Login', exact: true }).click();

    await atPath(page, '/');
    await visible(toast(page, `Welcome back, ${account.firstName}!`));
    expect(await storedSession(page)).toMatchObject({ user: { username: account.username } });
  });

  it('keeps the session across a reload', async () => {
    await reload(page);
    await visible(page.getByRole('heading', { level: 1, name: 'Home', exact: true }));
    expect(pathname(page)).toBe('/');
  });

  it('asks to fill all fields when logging in with empty fields', async () => {
    const { context: fresh, page: loginPage } = await openPage(browser, baseURL);
    try {
      await visit(loginPage, '/login');
      await loginPage.getByRole('button', { name: 'Login', exact: true }).click();
      await visible(toast(loginPage, 'Please fill all inputfields'));
      expect(pathname(loginPage)).toBe('/login');
    } finally {
      await fresh.close();
    }
  });

  it('says signup failed when the username is taken', async () => {
    const { context: fresh, page: signupPage } = await openPage(browser, baseURL);
    try {
      await visit(signupPage, '/signup');
      await signupPage.getByLabel('First Name', { exact: true }).fill('Another');
      await signupPage.getByLabel('Last Name', { exact: true }).fill('Person');
      await signupPage.getByLabel('Email', { exact: true }).fill(`other.${account.email}`);
      await signupPage.getByLabel('Username', { exact: true }).fill(account.username);
      await signupPage.getByLabel('Password', { exact: true }).fill(account.password);
      await signupPage.getByLabel('Confirm Password', { exact: true }).fill(account.password);
      await signupPage.getByRole('button', { name: 'Signup', exact: true }).click();

      await visible(toast(signupPage, 'There was an error signing you up'));
      expect(pathname(signupPage)).toBe('/signup');
    } finally {
      await fresh.close();
    }
  });
});

describe.skipIf(executable === null)('guest login', () => {
  let browser: Browser;

  beforeAll(async () => {
    browser = await launchChromium(executable ?? '');
  });

  afterAll(async () => {
    await browser.close();
  });

  it('fills the guest credentials, lands home, and logs out from the bottom bar menu', async () => {
    const { context, page } = await openPage(browser, baseURL, MOBILE);
    try {
      await visit(page, '/login');
      await page.getByRole('button', { name: 'Login as guest', exact: true }).click();

      await atPath(page, '/');
      await visible(toast(page, /^Welcome back, .+!$/));
      await visible(page.getByRole('heading', { level: 1, name: 'Home', exact: true }));

      await page.getByRole('button', { name: 'Account menu', exact: true }).click();
      await page.getByRole('button', { name: 'Log out', exact: true }).click();
      await visible(toast(page, 'Logged out successfully!'));
      await atPath(page, '/login');
    } finally {
      await context.close();
    }
  });

  it('guest sessions are ordinary sessions', async () => {
    const { context, page } = await openPage(browser, baseURL);
    try {
      await loginAsGuest(page);
      expect(await storedSession(page)).toMatchObject({ user: { username: 'guest' } });
    } finally {
      await context.close();
    }
  });
});
