import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import {
  atPath,
  loginAsGuest,
  pathname,
  reload,
  screenshot,
  storedSession,
  toast,
  visible,
  visit,
} from './support/app';
import { DESKTOP, launchChromium, MOBILE, openPage } from './support/chromium';

const executable = inject('browserExecutable');
const baseURL = inject('baseURL');

/** A post of liamchen's in the demo data; the guest does not follow him. */
const LIAM_POST = 'Caught the harbour right as the fog lifted this morning.';
/** A post of ada_okafor's, whom the guest follows. */
const ADA_POST = 'Clear skies tonight for the first time in weeks.';

function rightPanel(page: Page): Locator {
  return page.getByRole('complementary', { name: 'Search and suggestions' });
}

function whoToFollow(page: Page): Locator {
  return page.getByRole('region', { name: 'Who to follow?' });
}

function profileCard(page: Page): Locator {
  return page.getByRole('article', { name: 'Profile', exact: true });
}

/** The number shown beside a profile count. */
async function profileCount(page: Page, label: 'Posts' | 'Followers' | 'Following') {
  const value = profileCard(page)
    .locator('.profile-stat')
    .filter({ has: page.locator('dt', { hasText: new RegExp(`^${label}$`) }) })
    .locator('dd');
  return Number((await value.textContent()) ?? 'NaN');
}

async function openProfile(page: Page, username: string, fullName: string): Promise<void> {
  await visit(page, `/profile/${username}`);
  await visible(page.getByRole('heading', { level: 1, name: fullName, exact: true }));
}

describe.skipIf(executable === null)('people: profiles, follows and search', () => {
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;

  beforeAll(async () => {
    browser = await launchChromium(executable ?? '');
    ({ context, page } = await openPage(browser, baseURL, DESKTOP));
    await loginAsGuest(page);
  });

  afterAll(async () => {
    await context.close();
    await browser.close();
  });

  it('shows Edit on the own profile and Follow or Unfollow on others', async () => {
    await openProfile(page, 'guest', 'Guest User');
    const card = profileCard(page);
    await visible(card.getByText('@guest', { exact: true }));
    await visible(card.getByText('Just looking around. Say hi!'));
    await visible(card.getByRole('button', { name: 'Edit', exact: true }));
    expect(await card.getByRole('button', { name: /^(Follow|Unfollow)$/ }).count()).toBe(0);
    await visible(page.getByRole('heading', { level: 2, name: 'Posts', exact: true }));

    await openProfile(page, 'ada_okafor', 'Ada Okafor');
    await visible(card.getByRole('button', { name: 'Unfollow', exact: true }));
    expect(await card.getByRole('button', { name: 'Edit', exact: true }).count()).toBe(0);
    await visible(page.getByText(ADA_POST, { exact: false }));

    await openProfile(page, 'liamchen', 'Liam Chen');
    await visible(card.getByRole('button', { name: 'Follow', exact: true }));
  });

  it('shows a clear message for an unknown member', async () => {
    await visit(page, '/profile/no_such_member_here');
    await visible(page.getByRole('heading', { level: 1, name: 'User not found.', exact: true }));
    await visible(page.getByRole('link', { name: 'Go back home', exact: true }));
  });

  it('follows from who to follow, fills the home feed, and unfollows from the profile', async () => {
    await openProfile(page, 'guest', 'Guest User');
    const following = await profileCount(page, 'Following');

    const panel = whoToFollow(page);
    const liamRow = panel.getByRole('listitem').filter({ hasText: '@liamchen' });
    await visible(liamRow);
    for (const followed of ['@ada_okafor', '@sofia_m', '@guest']) {
      expect(await panel.getByText(followed, { exact: true }).count()).toBe(0);
    }

    await liamRow.getByRole('button', { name: 'Follow', exact: true }).click();

    await visible(toast(page, 'Followed @liamchen'));
    await liamRow.waitFor({ state: 'detached' });
    expect(pathname(page)).toBe('/profile/guest');
    await expect.poll(() => profileCount(page, 'Following')).toBe(following + 1);
    expect(await storedSession(page)).toMatchObject({ user: { followingCount: following + 1 } });

    // Home now holds the new member's posts.
    await page
      .getByRole('complementary', { name: 'Sidebar' })
      .getByRole('link', { name: 'Home', exact: true })
      .click();
    await atPath(page, '/');
    await visible(page.getByText(LIAM_POST));

    // The count survives a reload: the server has it.
    await openProfile(page, 'liamchen', 'Liam Chen');
    const followers = await profileCount(page, 'Followers');
    const card = profileCard(page);
    await card.getByRole('button', { name: 'Unfollow', exact: true }).click();

    await visible(toast(page, 'Unfollowed @liamchen'));
    await visible(card.getByRole('button', { name: 'Follow', exact: true }));
    await expect.poll(() => profileCount(page, 'Followers')).toBe(followers - 1);
    // Suggested again.
    await visible(whoToFollow(page).getByRole('listitem').filter({ hasText: '@liamchen' }));

    await openProfile(page, 'guest', 'Guest User');
    expect(await profileCount(page, 'Following')).toBe(following);
  });

  it('follows and unfollows from a profile, and the counts change', async () => {
    await openProfile(page, 'noahw', 'Noah Williams');
    const card = profileCard(page);
    const followers = await profileCount(page, 'Followers');

    await card.getByRole('button', { name: 'Follow', exact: true }).click();
    await visible(card.getByRole('button', { name: 'Unfollow', exact: true }));
    await expect.poll(() => profileCount(page, 'Followers')).toBe(followers + 1);
    await visible(toast(page, 'Followed @noahw'));
    // Not suggested any more.
    await whoToFollow(page)
      .getByRole('listitem')
      .filter({ hasText: '@noahw' })
      .waitFor({ state: 'detached' });

    await reload(page);
    await visible(card.getByRole('button', { name: 'Unfollow', exact: true }));
    expect(await profileCount(page, 'Followers')).toBe(followers + 1);

    await card.getByRole('button', { name: 'Unfollow', exact: true }).click();
    await visible(toast(page, 'Unfollowed @noahw'));
    await visible(card.getByRole('button', { name: 'Follow', exact: true }));
    await expect.poll(() => profileCount(page, 'Followers')).toBe(followers);
  });

  it('searches members by name or username, any case, from the keyboard', async () => {
    await visit(page, '/');
    const box = rightPanel(page).getByRole('combobox', { name: 'Search users' });
    expect(await box.getAttribute('placeholder')).toBe('Search...');
    await box.click();
    expect(await page.getByRole('listbox').count()).toBe(0);

    await box.fill('MARQ');
    const listbox = page.getByRole('listbox', { name: 'Matching users' });
    const option = listbox.getByRole('option').filter({ hasText: '@sofia_m' });
    await visible(option);
    await visible(option.getByText('Sofia Marquez', { exact: true }));

    await box.press('ArrowDown');
    expect(await option.getAttribute('aria-selected')).toBe('true');
    await box.press('Enter');
    await atPath(page, '/profile/sofia_m');
    await visible(page.getByRole('heading', { level: 1, name: 'Sofia Marquez', exact: true }));
    expect(await box.inputValue()).toBe('');

    await box.fill('zzz_nobody_zzz');
    await visible(rightPanel(page).getByText('User not found!', { exact: true }));
    expect(await page.getByRole('listbox').count()).toBe(0);

    await box.fill('liam');
    await visible(listbox.getByRole('option').filter({ hasText: '@liamchen' }));
    await box.press('Escape');
    await listbox.waitFor({ state: 'detached' });

    await box.fill('noah');
    await listbox.getByRole('option').filter({ hasText: '@noahw' }).click();
    await atPath(page, '/profile/noahw');

    await box.fill('');
    expect(await page.getByRole('listbox').count()).toBe(0);
    expect(await rightPanel(page).getByText('User not found!').count()).toBe(0);
  });

  it.each([
    ['mobile', MOBILE],
    ['desktop', DESKTOP],
  ] as const)('captures a profile (%s)', async (_name, viewport) => {
    const { context: shotContext, page: shotPage } = await openPage(browser, baseURL, viewport);
    try {
      await loginAsGuest(shotPage);
      await toast(shotPage, /^Welcome back/).waitFor({ state: 'hidden' });
      await openProfile(shotPage, 'ada_okafor', 'Ada Okafor');
      await visible(shotPage.getByText(ADA_POST, { exact: false }));
      // The right panel shows on wide screens only.
      expect(await shotPage.getByPlaceholder('Search...').isVisible()).toBe(viewport.width >= 1152);
      await shotPage.evaluate(() => document.fonts.ready);
      await screenshot(shotPage, 'profile');
    } finally {
      await shotContext.close();
    }
  });
});

describe.skipIf(executable === null)('people: editing a profile', () => {
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  const username = `edit_${Date.now().toString(36)}`;

  beforeAll(async () => {
    browser = await launchChromium(executable ?? '');
    ({ context, page } = await openPage(browser, baseURL, DESKTOP));
    await visit(page, '/signup');
    await page.getByLabel('First Name', { exact: true }).fill('Grace');
    await page.getByLabel('Last Name', { exact: true }).fill('Hopper');
    await page.getByLabel('Email', { exact: true }).fill(`${username}@example.com`);
    await page.getByLabel('Username', { exact: true }).fill(username);
    await page.getByLabel('Password', { exact: true }).fill('cobol-compiler-1959');
    await page.getByLabel('Confirm Password', { exact: true }).fill('cobol-compiler-1959');
    await page.getByRole('button', { name: 'Signup', exact: true }).click();
    await atPath(page, '/');
  });

  afterAll(async () => {
    await context.close();
    await browser.close();
  });

  it('checks the names, then saves names, bio and a new avatar everywhere', async () => {
    await openProfile(page, username, 'Grace Hopper');
    const card = profileCard(page);
    const avatar = card.locator('img.profile-card__avatar');
    const defaultSrc = await avatar.getAttribute('src');
    expect(defaultSrc).toMatch(/default-avatar/);
    expect(await card.getByRole('button', { name: /^(Follow|Unfollow)$/ }).count()).toBe(0);

    const edit = card.getByRole('button', { name: 'Edit', exact: true });
    await edit.click();
    const dialog = page.getByRole('dialog', { name: 'Edit Profile' });
    await visible(dialog);

    // Names are required: nothing is sent without them.
    await dialog.getByLabel('First Name', { exact: true }).fill('   ');
    await dialog.getByRole('button', { name: 'Update', exact: true }).click();
    await visible(dialog.getByText('First name is required.', { exact: true }));

    // Cancel drops the changes.
    await dialog.getByRole('button', { name: 'Cancel', exact: true }).click();
    await dialog.waitFor({ state: 'detached' });
    await edit.click();
    expect(await dialog.getByLabel('First Name', { exact: true }).inputValue()).toBe('Grace');

    await dialog.getByLabel('First Name', { exact: true }).fill('Amazing');
    await dialog.getByLabel('Last Name', { exact: true }).fill('Grace');
    await dialog.getByLabel('Bio', { exact: true }).fill('Rear admiral. Debugger of moths.');
    // Any PNG will do: a piece of the page itself.
    const png = await page.screenshot({ clip: { x: 0, y: 0, width: 160, height: 120 } });
    await dialog
      .getByLabel('Change avatar')
      .setInputFiles({ name: 'me.png', mimeType: 'image/png', buffer: png });
    // Previewed at once, from the file itself.
    const preview = dialog.locator('img.edit-profile__preview');
    await expect.poll(() => preview.getAttribute('src')).toMatch(/^blob:/);

    await dialog.getByRole('button', { name: 'Update', exact: true }).click();

    await visible(toast(page, 'Pofile edited'));
    await dialog.waitFor({ state: 'detached' });
    await visible(page.getByRole('heading', { level: 1, name: 'Amazing Grace', exact: true }));
    await visible(card.getByText('Rear admiral. Debugger of moths.'));
    await expect.poll(() => avatar.getAttribute('src')).toMatch(/^\/media\/.+\.webp$/);
    await expect
      .poll(() => avatar.evaluate((image: HTMLImageElement) => image.naturalWidth))
      .toBeGreaterThan(0);
    const sidebar = page.getByRole('complementary', { name: 'Sidebar' });
    await visible(sidebar.getByText('Amazing Grace', { exact: true }));
    const newSrc = await avatar.getAttribute('src');
    expect(await sidebar.locator('img.avatar').first().getAttribute('src')).toBe(newSrc);
    expect(await storedSession(page)).toMatchObject({
      user: { firstName: 'Amazing', lastName: 'Grace', avatarURL: newSrc },
    });

    // Saved on the server.
    await reload(page);
    await visible(page.getByRole('heading', { level: 1, name: 'Amazing Grace', exact: true }));
    expect(await avatar.getAttribute('src')).toBe(newSrc);
  });
});
