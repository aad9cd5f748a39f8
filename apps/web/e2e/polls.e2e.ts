import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { logIn, newAccount, signUpThroughApi } from './support/accounts';
import { loginAsGuest, toast, visible, visit } from './support/app';
import { launchChromium, MOBILE, openPage } from './support/chromium';
import { postCard, postIdOf } from './support/posts';

const executable = inject('browserExecutable');
const baseURL = inject('baseURL');

const PLACEHOLDER = "What's is in your mind?";
const stamp = Date.now().toString(36);

describe.skipIf(executable === null)('polls', () => {
  let browser: Browser;
  let author: { context: BrowserContext; page: Page };
  let voter: { context: BrowserContext; page: Page };

  beforeAll(async () => {
    browser = await launchChromium(executable ?? '');
    author = await openPage(browser, baseURL, { ...MOBILE, width: 360 });
    await loginAsGuest(author.page);
    await toast(author.page, /^Welcome back/).waitFor({ state: 'hidden' });
    const account = newAccount('voter');
    await signUpThroughApi(baseURL, account);
    voter = await openPage(browser, baseURL, MOBILE);
    await logIn(voter.page, account.username, account.password);
  });

  afterAll(async () => {
    await author.context.close();
    await voter.context.close();
    await browser.close();
  });

  it('a member posts a poll, another votes, and both see the results', async () => {
    const { page } = author;
    await visit(page, '/');
    const composer = page.getByRole('region', { name: 'New post' });
    await composer.getByPlaceholder(PLACEHOLDER).fill(`Tea or coffee? ${stamp}`);
    const pollButton = composer.getByRole('button', { name: 'Poll', exact: true });
    await pollButton.click();
    expect(await pollButton.getAttribute('aria-pressed')).toBe('true');
    await composer.getByLabel('Option 1').fill('Tea');
    await composer.getByLabel('Option 2').fill('Coffee');
    await composer.getByLabel('Poll duration').selectOption({ label: '1 hour' });
    await composer.getByRole('button', { name: 'Post', exact: true }).click();
    await visible(toast(page, 'New post created'));

    // Its author sees the counts from the start.
    const own = postCard(page, stamp);
    await visible(own.getByRole('list', { name: 'Poll results' }));
    await visible(own.getByText(/^0 votes · (59 minutes|1 hour) left$/));
    const postId = await postIdOf(own);

    const other = voter.page;
    await visit(other, `/post/${postId}`);
    const card = postCard(other, stamp);
    const choices = card.getByRole('group', { name: 'Poll: choose one' });
    await choices.getByRole('radio', { name: 'Coffee' }).check();
    await card.getByRole('button', { name: 'Vote', exact: true }).click();
    const results = card.getByRole('list', { name: 'Poll results' });
    await visible(results);
    const shares = await results.getByRole('listitem').allInnerTexts();
    expect(shares.map((text) => text.trim())).toEqual(['0% Tea', '100% Coffee (your choice)']);

    // The author's open page follows the vote live.
    await visible(own.getByText(/^1 vote · /));
    await visible(own.getByText('100% Coffee'));
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
      360,
    );
  });
});
