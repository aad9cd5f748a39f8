import { loginResponseSchema } from '@perch/contract';
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { logIn, newAccount, signUpThroughApi, type TestAccount } from './support/accounts';
import { screenshot, toast, visible, visit } from './support/app';
import { DESKTOP, launchChromium, MOBILE, openPage } from './support/chromium';
import { postCard, postCards } from './support/posts';

const executable = inject('browserExecutable');
const baseURL = inject('baseURL');

/** A word no other post has: this run's posts are found by it. */
const stamp = `safe${Date.now().toString(36)}`;

interface Member {
  account: TestAccount;
  token: string;
  userId: string;
}

/** Signs a new member up and logs them in through the API, for the setup the test is not about. */
async function memberThroughApi(prefix: string): Promise<Member> {
  const account = newAccount(prefix);
  await signUpThroughApi(baseURL, account);
  const response = await fetch(`${baseURL}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: account.username, password: account.password }),
  });
  if (!response.ok) throw new Error(`Login answered ${String(response.status)}.`);
  const { encodedToken, foundUser } = loginResponseSchema.parse(await response.json());
  return { account, token: encodedToken, userId: foundUser._id };
}

async function callApi(member: Member, path: string, body?: unknown): Promise<void> {
  const response = await fetch(`${baseURL}${path}`, {
    method: 'POST',
    headers: {
      authorization: member.token,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!response.ok) {
    throw new Error(`POST ${path} answered ${String(response.status)}: ${await response.text()}`);
  }
}

async function publish(member: Member, content: string): Promise<void> {
  await callApi(member, '/api/posts', { postData: { content, mediaURL: null } });
}

function profileCard(page: Page): Locator {
  return page.getByRole('article', { name: 'Profile', exact: true });
}

/** Opens the member's profile and picks `item` in its More menu. */
async function chooseOnProfile(page: Page, username: string, item: string): Promise<void> {
  await visit(page, `/profile/${username}`);
  await profileCard(page).getByRole('button', { name: 'More', exact: true }).click();
  await page.getByRole('menuitem', { name: item, exact: true }).click();
}

/** Opens a feed and waits for its first cards, so that a card's absence means something. */
async function openFeed(page: Page, path: string): Promise<void> {
  await visit(page, path);
  await visible(postCards(page));
}

async function expectNoCard(page: Page, text: string): Promise<void> {
  expect(await postCard(page, text).count()).toBe(0);
}

function safetyList(page: Page, name: 'Blocked' | 'Muted'): Locator {
  return page
    .getByRole('region', { name: 'Blocked and muted', exact: true })
    .getByRole('region', { name, exact: true });
}

describe.skipIf(executable === null)('safety: block and mute', () => {
  let browser: Browser;

  beforeAll(async () => {
    browser = await launchChromium(executable ?? '');
  });

  afterAll(async () => {
    await browser.close();
  });

  it('blocks from a profile: gone from feeds and search both ways; unblocks from Settings', async () => {
    const a = await memberThroughApi('blk_a');
    const b = await memberThroughApi('blk_b');
    const aPost = `Block ${stamp} written by A`;
    const bPost = `Block ${stamp} written by B`;
    await publish(a, aPost);
    await publish(b, bPost);
    await callApi(a, `/api/users/follow/${b.userId}`);

    const laptop = await openPage(browser, baseURL, DESKTOP);
    const phone = await openPage(browser, baseURL, MOBILE);
    try {
      const page = laptop.page;
      await logIn(page, a.account.username, a.account.password);
      await visible(postCard(page, bPost));
      await visit(page, `/search?q=${stamp}`);
      await visible(postCard(page, bPost));

      await chooseOnProfile(page, b.account.username, `Block @${b.account.username}`);
      const dialog = page.getByRole('dialog', { name: `Block @${b.account.username}?` });
      await visible(dialog.getByText("They can't see your posts or your profile"));
      await screenshot(page, 'safety-block-dialog');
      await dialog.getByRole('button', { name: 'Block', exact: true }).click();

      await visible(toast(page, `Blocked @${b.account.username}`));
      await visible(
        page.getByRole('heading', { name: `You blocked @${b.account.username}`, exact: true }),
      );
      expect(
        await profileCard(page)
          .getByRole('button', { name: /Follow/ })
          .count(),
      ).toBe(0);
      expect(await postCards(page).count()).toBe(0);
      await screenshot(page, 'safety-blocked-profile');

      // Home keeps A's own post only; Explore (B is no longer followed) and search lack B's.
      await openFeed(page, '/');
      await visible(postCard(page, aPost));
      await expectNoCard(page, bPost);
      await openFeed(page, '/explore');
      await expectNoCard(page, bPost);
      await openFeed(page, `/search?q=${stamp}`);
      await visible(postCard(page, aPost));
      await expectNoCard(page, bPost);

      // B sees A as if A did not exist.
      await logIn(phone.page, b.account.username, b.account.password);
      await visit(phone.page, `/profile/${a.account.username}`);
      await visible(phone.page.getByRole('heading', { name: 'User not found.', exact: true }));

      await visit(page, '/settings');
      const blocked = safetyList(page, 'Blocked');
      const row = blocked.getByRole('listitem').filter({ hasText: `@${b.account.username}` });
      await visible(row);
      await row.scrollIntoViewIfNeeded();
      await screenshot(page, 'settings-blocked');
      await row
        .getByRole('button', { name: `Unblock @${b.account.username}`, exact: true })
        .click();
      await visible(toast(page, `Unblocked @${b.account.username}`));
      await visible(blocked.getByText('You have not blocked anyone.', { exact: true }));

      await openFeed(page, '/explore');
      await visible(postCard(page, bPost));
      await visit(phone.page, `/profile/${a.account.username}`);
      await visible(profileCard(phone.page).getByText(`@${a.account.username}`, { exact: true }));
    } finally {
      await laptop.context.close();
      await phone.context.close();
    }
  });

  it("mutes from a profile: B's posts leave A's feeds only; unmutes from Settings", async () => {
    const a = await memberThroughApi('mut_a');
    const b = await memberThroughApi('mut_b');
    const c = await memberThroughApi('mut_c');
    const bPost = `Mute ${stamp} written by B`;
    await publish(b, bPost);

    const laptop = await openPage(browser, baseURL, DESKTOP);
    const other = await openPage(browser, baseURL, MOBILE);
    try {
      const page = laptop.page;
      await logIn(page, a.account.username, a.account.password);
      await openFeed(page, '/explore');
      await visible(postCard(page, bPost));

      await chooseOnProfile(page, b.account.username, `Mute @${b.account.username}`);
      await visible(toast(page, `Muted @${b.account.username}`));
      await visible(profileCard(page).getByText('Muted', { exact: true }));

      await openFeed(page, '/explore');
      await expectNoCard(page, bPost);

      // Nobody else is affected: C still sees B's post.
      await logIn(other.page, c.account.username, c.account.password);
      await openFeed(other.page, '/explore');
      await visible(postCard(other.page, bPost));
      // On a phone too, the More menu sits beside Follow.
      await visit(other.page, `/profile/${b.account.username}`);
      await profileCard(other.page).getByRole('button', { name: 'More', exact: true }).click();
      await visible(
        other.page.getByRole('menuitem', { name: `Mute @${b.account.username}`, exact: true }),
      );
      await screenshot(other.page, 'safety-profile-menu');

      await visit(page, '/settings');
      const muted = safetyList(page, 'Muted');
      await muted
        .getByRole('button', { name: `Unmute @${b.account.username}`, exact: true })
        .click();
      await visible(toast(page, `Unmuted @${b.account.username}`));
      await visible(muted.getByText('You have not muted anyone.', { exact: true }));

      await openFeed(page, '/explore');
      await visible(postCard(page, bPost));
    } finally {
      await laptop.context.close();
      await other.context.close();
    }
  });
});
