import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { toast, visible, visit } from './support/app';
import { logIn, newAccount, signUpThroughApi, type TestAccount } from './support/accounts';
import { DESKTOP, launchChromium, openPage } from './support/chromium';
import { postCard, postCards, postIdOf } from './support/posts';

const executable = inject('browserExecutable');
const baseURL = inject('baseURL');

/**
 * Calls the API from the page with the stored session's token; resolves with the status and, for
 * a post's answer, the post's id.
 */
function callApi(
  page: Page,
  method: string,
  path: string,
  body?: unknown,
): Promise<{ status: number; postId: string | null }> {
  return page.evaluate(
    async ({ verb, url, payload }) => {
      const raw = window.localStorage.getItem('loginDetails');
      const token = raw === null ? '' : (JSON.parse(raw) as { token: string }).token;
      const response = await fetch(url, {
        method: verb,
        headers: {
          authorization: token,
          prefer: 'return=minimal',
          ...(payload === undefined ? {} : { 'content-type': 'application/json' }),
        },
        body: payload === undefined ? undefined : JSON.stringify(payload),
      });
      const answer = (await response.json()) as { post?: { _id: string } };
      return { status: response.status, postId: answer.post?._id ?? null };
    },
    { verb: method, url: path, payload: body },
  );
}

async function chooseFromMenu(page: Page, card: Locator, item: string): Promise<void> {
  await card.getByRole('button', { name: 'Post menu' }).click();
  await page.getByRole('menuitem', { name: item, exact: true }).click();
}

/** The cards marked "Pinned" (by their accessible name, which starts with it). */
const pinnedCards = (page: Page) => page.getByRole('article', { name: /^Pinned / });

describe.skipIf(executable === null)('pinned posts', () => {
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let account: TestAccount;
  const stamp = Date.now().toString(36);

  beforeAll(async () => {
    account = newAccount('pin');
    await signUpThroughApi(baseURL, account);
    browser = await launchChromium(executable ?? '');
    ({ context, page } = await openPage(browser, baseURL, DESKTOP));
    await logIn(page, account.username, account.password);
    for (const text of ['older', 'newer']) {
      const { status } = await callApi(page, 'POST', '/api/posts', {
        postData: { content: `${text} post ${stamp}` },
      });
      expect(status).toBe(201);
    }
  });

  afterAll(async () => {
    await context.close();
    await browser.close();
  });

  it('pins a post from its menu, shows it first marked Pinned, and unpins it', async () => {
    await visit(page, `/profile/${account.username}`);
    await visible(postCard(page, `older post ${stamp}`));
    expect(await postCards(page).first().innerText()).toContain(`newer post ${stamp}`);
    await expect.poll(() => pinnedCards(page).count()).toBe(0);

    await chooseFromMenu(page, postCard(page, `older post ${stamp}`).first(), 'Pin to profile');
    await visible(toast(page, 'Pinned to your profile.'));
    const pinned = await visible(pinnedCards(page));
    expect(await pinned.innerText()).toContain(`older post ${stamp}`);
    await visible(pinned.getByText('Pinned', { exact: true }));
    // Above the others: the first card of the profile.
    expect(await postIdOf(postCards(page).first())).toBe(await postIdOf(pinned));
    // Still marked after a fresh load: the server kept it.
    await visit(page, `/profile/${account.username}`);
    await visible(pinnedCards(page));
    expect(await postCards(page).first().innerText()).toContain(`older post ${stamp}`);

    await chooseFromMenu(page, pinnedCards(page), 'Unpin from profile');
    await expect.poll(() => pinnedCards(page).count()).toBe(0);
    expect(await postCards(page).first().innerText()).toContain(`newer post ${stamp}`);
    await visit(page, `/profile/${account.username}`);
    await visible(postCard(page, `older post ${stamp}`));
    expect(await pinnedCards(page).count()).toBe(0);
  });

  it('shows the server refusing a sixth pin', async () => {
    for (let i = 0; i < 6; i += 1) {
      const made = await callApi(page, 'POST', '/api/posts', {
        postData: { content: `extra ${String(i)} ${stamp}` },
      });
      expect(made.status).toBe(201);
      // The newest (extra 5) is left to pin from its menu.
      if (i < 5) {
        expect((await callApi(page, 'POST', `/api/posts/pin/${made.postId ?? ''}`)).status).toBe(
          201,
        );
      }
    }
    await visit(page, `/profile/${account.username}`);
    await expect.poll(() => pinnedCards(page).count()).toBe(5);

    const sixth = postCard(page, `extra 5 ${stamp}`);
    await chooseFromMenu(page, await visible(sixth), 'Pin to profile');
    await visible(toast(page, 'You can pin at most 5 posts.'));
    await expect.poll(() => pinnedCards(page).count()).toBe(5);
    expect(
      await pinnedCards(page)
        .filter({ hasText: `extra 5 ${stamp}` })
        .count(),
    ).toBe(0);
  });
});
