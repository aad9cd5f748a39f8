import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { reload, toast, visible, visit } from './support/app';
import { logIn, newAccount, signUpThroughApi, type TestAccount } from './support/accounts';
import { DESKTOP, launchChromium, openPage } from './support/chromium';
import { postCard, postIdOf } from './support/posts';

const executable = inject('browserExecutable');
const baseURL = inject('baseURL');

/** Signs the account up through the API and logs it in on a page of its own. */
async function memberPage(
  browser: Browser,
  account: TestAccount,
): Promise<{ context: BrowserContext; page: Page }> {
  await signUpThroughApi(baseURL, account);
  const opened = await openPage(browser, baseURL, DESKTOP);
  await logIn(opened.page, account.username, account.password);
  return opened;
}

/** The text of the element that has the keyboard focus. */
function focusedText(page: Page): Promise<string> {
  return page.evaluate(() => document.activeElement?.textContent.trim() ?? '');
}

/** Opens the card's menu and chooses `item` with the keyboard only. */
async function chooseWithKeyboard(page: Page, card: Locator, item: string): Promise<void> {
  await card.getByRole('button', { name: 'Post menu', exact: true }).focus();
  await page.keyboard.press('Enter');
  await visible(page.getByRole('menu'));
  for (let step = 0; step < 5 && (await focusedText(page)) !== item; step += 1) {
    await page.keyboard.press('ArrowDown');
  }
  expect(await focusedText(page)).toBe(item);
  await page.keyboard.press('Enter');
}

/** The embedded card of the post quoted by the card. */
const embedIn = (card: Locator, username: string) =>
  card.getByRole('link', { name: `Quoted post by @${username}`, exact: true });

describe.skipIf(executable === null)('quote posts', () => {
  let browser: Browser;
  const contexts: BrowserContext[] = [];
  let author: Page;
  let quoter: Page;
  let authorAccount: TestAccount;
  let quotedId = '';
  const stamp = Date.now().toString(36);
  const original = `Something worth quoting ${stamp}`;
  const comment = `My take on it ${stamp}`;

  beforeAll(async () => {
    browser = await launchChromium(executable ?? '');
    authorAccount = { ...newAccount('qta'), firstName: 'Ada', lastName: 'Quoted' };
    const a = await memberPage(browser, authorAccount);
    const b = await memberPage(browser, {
      ...newAccount('qtb'),
      firstName: 'Ben',
      lastName: 'Quoter',
    });
    contexts.push(a.context, b.context);
    author = a.page;
    quoter = b.page;
  });

  afterAll(async () => {
    for (const context of contexts) await context.close();
    await browser.close();
  });

  it('quotes a post with the keyboard, shown on Home and on the post page', async () => {
    await author.getByRole('textbox', { name: 'Post text' }).fill(original);
    await author.getByRole('button', { name: 'Post', exact: true }).click();
    quotedId = await postIdOf(await visible(postCard(author, original)));

    await visit(quoter, `/profile/${authorAccount.username}`);
    await chooseWithKeyboard(quoter, await visible(postCard(quoter, original)), 'Quote');
    const dialog = await visible(quoter.getByRole('dialog', { name: 'Quote post' }));
    await visible(embedIn(dialog, authorAccount.username));
    // The new-post box has the focus: typing and Ctrl+Enter post the quote.
    await expect
      .poll(() =>
        quoter.evaluate(
          () =>
            document.activeElement?.closest('[role="dialog"]') !== null &&
            document.activeElement?.tagName,
        ),
      )
      .toBe('TEXTAREA');
    await quoter.keyboard.type(comment);
    await quoter.keyboard.press('Control+Enter');
    await dialog.waitFor({ state: 'hidden' });

    await visit(quoter, '/');
    const home = await visible(postCard(quoter, comment));
    const link = await visible(embedIn(home, authorAccount.username));
    expect(await link.getAttribute('href')).toBe(`/post/${quotedId}`);
    expect(await home.innerText()).toContain(original);

    await visit(quoter, `/post/${await postIdOf(home)}`);
    const page = await visible(postCard(quoter, comment));
    expect(await embedIn(page, authorAccount.username).getAttribute('href')).toBe(
      `/post/${quotedId}`,
    );
    await embedIn(page, authorAccount.username).click();
    await quoter.waitForURL((url) => url.pathname === `/post/${quotedId}`);
    await visible(postCard(quoter, original));
  });

  it('tells the quoted member', async () => {
    await visit(author, '/notifications');
    const entry = await visible(
      author.getByTestId('notification').filter({ hasText: 'Ben Quoter quoted your post' }),
    );
    expect(await entry.count()).toBe(1);
  });

  it('shows the quote as unavailable once the quoted post is deleted, live and after a reload', async () => {
    await visit(quoter, '/');
    await visible(embedIn(postCard(quoter, comment), authorAccount.username));
    const unavailable = () =>
      postCard(quoter, comment).getByRole('note').filter({ hasText: 'This post is unavailable.' });

    await visit(author, `/profile/${authorAccount.username}`);
    const card = await visible(postCard(author, original));
    await card.getByRole('button', { name: 'Post menu', exact: true }).click();
    await author.getByRole('menuitem', { name: 'Delete', exact: true }).click();
    await visible(toast(author, 'Post Deleted'));
    await card.waitFor({ state: 'detached' });

    // The delete is sent once its undo window has passed; the open Home then follows it.
    await expect.poll(() => unavailable().count(), { timeout: 20_000 }).toBe(1);
    expect(await embedIn(postCard(quoter, comment), authorAccount.username).count()).toBe(0);

    await reload(quoter);
    await visible(unavailable());
    expect(await embedIn(postCard(quoter, comment), authorAccount.username).count()).toBe(0);
  });
});
