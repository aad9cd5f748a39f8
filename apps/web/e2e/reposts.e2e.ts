import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { reload, visible, visit } from './support/app';
import { logIn, newAccount, signUpThroughApi, type TestAccount } from './support/accounts';
import { DESKTOP, launchChromium, openPage } from './support/chromium';
import { postCard } from './support/posts';

const executable = inject('browserExecutable');
const baseURL = inject('baseURL');

interface Member {
  account: TestAccount;
  id: string;
  token: string;
}

/** Signs the account up and in through the API; the token acts for it in the test's setup. */
async function member(account: TestAccount): Promise<Member> {
  await signUpThroughApi(baseURL, account);
  const response = await fetch(`${baseURL}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: account.username, password: account.password }),
  });
  expect(response.status).toBe(200);
  const { encodedToken, foundUser } = (await response.json()) as {
    encodedToken: string;
    foundUser: { _id: string };
  };
  return { account, id: foundUser._id, token: encodedToken };
}

/** POSTs as the member; resolves with the status and the answer. */
async function post(
  as: Member,
  path: string,
  body?: unknown,
): Promise<{ status: number; answer: { post?: { _id: string } } }> {
  const response = await fetch(`${baseURL}${path}`, {
    method: 'POST',
    headers: {
      authorization: as.token,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: response.status, answer: (await response.json()) as { post?: { _id: string } } };
}

/** The count beside a card's repost button. */
async function repostCount(card: Locator): Promise<number> {
  const text = await card.locator('.post-action--repost .post-action__count').innerText();
  return Number.parseInt(text, 10);
}

describe.skipIf(executable === null)('reposts', () => {
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let viewer: Member;
  const stamp = Date.now().toString(36);
  const text = `Worth sharing ${stamp}`;

  beforeAll(async () => {
    // A follows B and D, who repost C's post (B last); A does not follow C.
    viewer = await member(newAccount('rpa'));
    const bruno = await member({ ...newAccount('rpb'), firstName: 'Bruno', lastName: 'Silva' });
    const carla = await member({ ...newAccount('rpc'), firstName: 'Carla', lastName: 'Reis' });
    const dana = await member({ ...newAccount('rpd'), firstName: 'Dana', lastName: 'Kim' });
    const made = await post(carla, '/api/posts', { postData: { content: text } });
    expect(made.status).toBe(201);
    const postId = made.answer.post?._id ?? '';
    for (const followed of [bruno, dana]) {
      expect((await post(viewer, `/api/users/follow/${followed.id}`)).status).toBe(200);
    }
    for (const reposter of [dana, bruno]) {
      expect((await post(reposter, `/api/posts/repost/${postId}`)).status).toBe(201);
    }
    browser = await launchChromium(executable ?? '');
    ({ context, page } = await openPage(browser, baseURL, DESKTOP));
    await logIn(page, viewer.account.username, viewer.account.password);
  });

  afterAll(async () => {
    await context.close();
    await browser.close();
  });

  it('shows a post two followed members reposted once, as the newest reposter’s', async () => {
    const card = await visible(postCard(page, text));
    expect(await card.count()).toBe(1);
    await visible(card.getByRole('link', { name: 'Bruno Silva reposted', exact: true }));
    expect(
      await card.getByRole('link', { name: 'Bruno Silva reposted' }).getAttribute('href'),
    ).toMatch(/^\/profile\/rpb_/);
    await visible(page.getByRole('article', { name: 'Bruno Silva reposted Carla Reis' }));
    expect(await card.getByText('Dana Kim reposted').count()).toBe(0);
    expect(await repostCount(card)).toBe(2);
  });

  it('reposts it, counted at once and kept by the server, and undoes it', async () => {
    const card = postCard(page, text);
    await card.getByRole('button', { name: 'Repost', exact: true }).click();
    const undo = card.getByRole('button', { name: 'Undo repost', exact: true });
    await visible(undo);
    expect(await undo.getAttribute('aria-pressed')).toBe('true');
    expect(await repostCount(card)).toBe(3);

    await reload(page);
    await visible(postCard(page, text).getByRole('button', { name: 'Undo repost', exact: true }));
    expect(await repostCount(postCard(page, text))).toBe(3);
    expect(await postCard(page, text).count()).toBe(1);

    await postCard(page, text).getByRole('button', { name: 'Undo repost', exact: true }).click();
    const repost = await visible(
      postCard(page, text).getByRole('button', { name: 'Repost', exact: true }),
    );
    expect(await repost.getAttribute('aria-pressed')).toBe('false');
    await expect.poll(() => repostCount(postCard(page, text))).toBe(2);
    await visit(page, '/');
    await visible(postCard(page, text).getByRole('button', { name: 'Repost', exact: true }));
    expect(await repostCount(postCard(page, text))).toBe(2);
  });
});
