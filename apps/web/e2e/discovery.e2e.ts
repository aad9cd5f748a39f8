import { SearchErrors } from '@perch/contract';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { atPath, loginAsGuest, pathname, screenshot, toast, visible, visit } from './support/app';
import { DESKTOP, launchChromium, MOBILE, openPage } from './support/chromium';
import { postCard, postCards } from './support/posts';

const executable = inject('browserExecutable');
const baseURL = inject('baseURL');

/** A word no demo post has: it finds this run's posts, and names this run's tag. */
const stamp = `d${Date.now().toString(36)}`;
const TAG_AS_WRITTEN = `Disc${stamp}`;
const TAG = TAG_AS_WRITTEN.toLowerCase();
/** A demo member (see apps/server/src/db/demo-content.ts). */
const MEMBER = { username: 'ada_okafor', fullName: 'Ada Okafor' };

function composerText(page: Page): Locator {
  return page.getByRole('region', { name: 'New post' }).getByRole('textbox', { name: 'Post text' });
}

function main(page: Page): Locator {
  return page.getByRole('main');
}

describe.skipIf(executable === null)('discovery: tags, mentions and search', () => {
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;

  beforeAll(async () => {
    browser = await launchChromium(executable ?? '');
    ({ context, page } = await openPage(browser, baseURL, DESKTOP));
    await loginAsGuest(page);
    await toast(page, /^Welcome back/).waitFor({ state: 'hidden' });
  });

  afterAll(async () => {
    await context.close();
    await browser.close();
  });

  it('links a tag and a mention in a new post, each leading to its page', async () => {
    await visit(page, '/');
    await composerText(page).fill(
      `Discovery ${stamp} #${TAG_AS_WRITTEN} with @${MEMBER.username} !`,
    );
    await page
      .getByRole('region', { name: 'New post' })
      .getByRole('button', { name: 'Post', exact: true })
      .click();
    await visible(toast(page, 'New post created'));

    const card = postCard(page, `Discovery ${stamp}`);
    const tagLink = card.getByRole('link', { name: `#${TAG_AS_WRITTEN}`, exact: true });
    const mentionLink = card.getByRole('link', { name: `@${MEMBER.username}`, exact: true });
    await visible(tagLink);
    expect(await tagLink.getAttribute('href')).toBe(`/tags/${TAG}`);
    expect(await mentionLink.getAttribute('href')).toBe(`/profile/${MEMBER.username}`);

    await tagLink.click();
    await atPath(page, `/tags/${TAG}`);
    await visible(main(page).getByRole('heading', { level: 1, name: `#${TAG}`, exact: true }));
    await visible(main(page).getByText('1 post', { exact: true }));
    await visible(postCard(page, `Discovery ${stamp}`));

    await postCard(page, `Discovery ${stamp}`)
      .getByRole('link', { name: `@${MEMBER.username}`, exact: true })
      .click();
    await atPath(page, `/profile/${MEMBER.username}`);
    await visible(page.getByRole('heading', { level: 1, name: MEMBER.fullName, exact: true }));
  });

  it('completes a mention with the keyboard only', async () => {
    await visit(page, '/');
    const text = composerText(page);
    await text.focus();
    await page.keyboard.type(`Keyboard ${stamp} hello @ada_o`);

    const listbox = page.getByRole('listbox', { name: 'Members to mention' });
    await visible(listbox.getByRole('option', { name: new RegExp(`@${MEMBER.username}`) }));
    expect(await text.getAttribute('aria-controls')).toBe(await listbox.getAttribute('id'));
    await page.keyboard.press('ArrowDown');
    const chosen = listbox.getByRole('option', { selected: true });
    await visible(chosen);
    expect(await text.getAttribute('aria-activedescendant')).toBe(await chosen.getAttribute('id'));
    await page.keyboard.press('Enter');

    await listbox.waitFor({ state: 'detached' });
    expect(await text.inputValue()).toBe(`Keyboard ${stamp} hello @${MEMBER.username} `);
    await page.keyboard.type('bye');
    await page.keyboard.press('Control+Enter');

    await visible(toast(page, 'New post created'));
    const card = postCard(page, `Keyboard ${stamp}`);
    await visible(card.getByRole('link', { name: `@${MEMBER.username}`, exact: true }));
  });

  it('searches from the right panel with Enter, across the tabs', async () => {
    await visit(page, '/');
    const panel = page.getByRole('complementary', { name: 'Search and suggestions' });
    const box = panel.getByRole('combobox', { name: 'Search users' });
    await box.fill(stamp);
    await box.press('Enter');

    await atPath(page, '/search');
    expect(new URL(page.url()).searchParams.get('q')).toBe(stamp);
    const posts = main(page).getByRole('tab', { name: 'Posts', exact: true });
    expect(await posts.getAttribute('aria-selected')).toBe('true');
    await visible(postCard(page, `Discovery ${stamp}`));
    await visible(postCard(page, `Keyboard ${stamp}`));

    // The tabs by keyboard: Members, then Tags.
    await posts.focus();
    await page.keyboard.press('ArrowRight');
    // The selection and the focus move as the key is handled: wait for both.
    const members = main(page).getByRole('tab', { name: 'Members', exact: true, selected: true });
    await visible(members);
    await page.waitForFunction(
      () => document.activeElement?.getAttribute('aria-selected') === 'true',
      undefined,
      { timeout: 5_000 },
    );
    expect(await members.evaluate((element) => element === document.activeElement)).toBe(true);

    const searchBox = main(page).getByRole('searchbox', { name: 'Search' });
    await searchBox.fill(MEMBER.username);
    await searchBox.press('Enter');
    const memberPanel = main(page).getByRole('tabpanel', { name: 'Members' });
    await visible(memberPanel.getByRole('link', { name: new RegExp(MEMBER.fullName) }));

    await searchBox.fill(TAG);
    await searchBox.press('Enter');
    await main(page).getByRole('tab', { name: 'Members', exact: true }).focus();
    await page.keyboard.press('ArrowRight');
    const tagPanel = main(page).getByRole('tabpanel', { name: 'Tags' });
    const tagLink = tagPanel.getByRole('link', { name: new RegExp(`#${TAG}`) });
    await visible(tagLink);
    expect(await tagLink.getAttribute('href')).toBe(`/tags/${TAG}`);

    // A search the server cannot run says why under the box.
    await main(page).getByRole('tab', { name: 'Posts', exact: true }).click();
    await searchBox.fill('"unclosed');
    await searchBox.press('Enter');
    await visible(main(page).getByRole('alert').filter({ hasText: SearchErrors.unclosedQuote }));
    expect(await searchBox.getAttribute('aria-invalid')).toBe('true');
  });

  it('searches on a 390 px phone from the bottom bar', async () => {
    const phone = await openPage(browser, baseURL, MOBILE);
    try {
      await loginAsGuest(phone.page);
      const bar = phone.page.getByRole('navigation', { name: 'Quick navigation' });
      await bar.getByRole('link', { name: 'Search', exact: true }).click();
      await atPath(phone.page, '/search');

      const box = main(phone.page).getByRole('searchbox', { name: 'Search' });
      await box.fill(stamp);
      await box.press('Enter');
      await visible(postCard(phone.page, `Discovery ${stamp}`));
      expect(pathname(phone.page)).toBe('/search');
      expect(await postCards(phone.page).count()).toBeGreaterThan(0);

      // Nothing sticks out sideways on a phone.
      const overflow = await phone.page.evaluate(
        () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
      );
      expect(overflow).toBeLessThanOrEqual(0);
      await screenshot(phone.page, 'search');
    } finally {
      await phone.context.close();
    }
  });
});
