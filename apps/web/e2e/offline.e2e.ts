import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { logIn, newAccount, signUpThroughApi, type TestAccount } from './support/accounts';
import { reload, toast, visible, visit } from './support/app';
import { launchChromium } from './support/chromium';
import { postCard } from './support/posts';

const executable = inject('browserExecutable');
const baseURL = inject('baseURL');

const QUEUED = 'No connection: this will be sent when you are back online.';

interface Author extends TestAccount {
  token: string;
}

async function api(path: string, token: string, body?: unknown): Promise<Response> {
  return fetch(`${baseURL}${path}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: { authorization: token, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
}

/** A member with a session of their own, to write posts through the API. */
async function newAuthor(): Promise<Author> {
  const account = newAccount('author');
  await signUpThroughApi(baseURL, account);
  const login = await fetch(`${baseURL}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: account.username, password: account.password }),
  });
  const { encodedToken } = (await login.json()) as { encodedToken: string };
  return { ...account, token: encodedToken };
}

async function writePost(author: Author, content: string): Promise<string> {
  const response = await api('/api/posts', author.token, { postData: { content } });
  expect(response.status).toBe(201);
  return ((await response.json()) as { post: { _id: string } }).post._id;
}

async function tokenOf(page: Page): Promise<string> {
  return page.evaluate(() => {
    const raw = window.localStorage.getItem('loginDetails');
    return raw === null ? '' : (JSON.parse(raw) as { token: string }).token;
  });
}

describe.skipIf(executable === null)('likes, bookmarks and follows made offline', () => {
  let browser: Browser;
  let context: BrowserContext;

  beforeAll(async () => {
    browser = await launchChromium(executable ?? '');
  });

  afterAll(async () => {
    await browser.close();
  });

  it('wait on the device and reach the server once back online; a conflict gets its toast', async () => {
    const author = await newAuthor();
    const first = `Liked on a train ${Date.now()}`;
    const second = `Liked twice ${Date.now()}`;
    const firstId = await writePost(author, first);
    const secondId = await writePost(author, second);

    context = await browser.newContext({ baseURL, serviceWorkers: 'block' });
    context.setDefaultTimeout(15_000);
    const page = await context.newPage();
    try {
      const member = newAccount('offline');
      await signUpThroughApi(baseURL, member);
      await logIn(page, member.username, member.password);
      await visit(page, `/profile/${author.username}`);
      const profile = page.getByRole('article', { name: 'Profile', exact: true });
      const firstCard = postCard(page, first);
      const secondCard = postCard(page, second);
      await visible(secondCard);

      await context.setOffline(true);
      await firstCard.getByRole('button', { name: 'Like', exact: true }).click();
      await visible(toast(page, QUEUED));
      await firstCard.getByRole('button', { name: 'Bookmark', exact: true }).click();
      await profile.getByRole('button', { name: 'Follow', exact: true }).click();
      // Liked and unliked while offline: nothing to send for it.
      await secondCard.getByRole('button', { name: 'Like', exact: true }).click();
      await secondCard.getByRole('button', { name: 'Unlike', exact: true }).click();
      await secondCard.getByRole('button', { name: 'Like', exact: true }).click();
      await visible(firstCard.getByRole('button', { name: 'Unlike', exact: true }));
      await visible(firstCard.getByRole('button', { name: 'Remove bookmark', exact: true }));
      await visible(profile.getByRole('button', { name: 'Unfollow', exact: true }));

      // Meanwhile the member likes the second post on another device: a conflict to come.
      const token = await tokenOf(page);
      expect((await api(`/api/posts/like/${secondId}`, token, {})).status).toBe(201);

      // The page is closed before the connection returns: the next start sends what waits.
      await page.close();
      await context.setOffline(false);
      const later = await context.newPage();
      await visit(later, `/profile/${author.username}`);
      await visible(toast(later, 'Cannot like a post that is already liked.'));
      await expect
        .poll(async () => {
          const answer = await api(`/api/posts/${firstId}`, token);
          const { post } = (await answer.json()) as {
            post: {
              likedByViewer: boolean;
              bookmarkedByViewer: boolean;
              likes: { likeCount: number };
            };
          };
          return [post.likedByViewer, post.bookmarkedByViewer, post.likes.likeCount];
        })
        .toEqual([true, true, 1]);
      const profileAnswer = await api(`/api/users/${author.username}`, token);
      const { user } = (await profileAnswer.json()) as {
        user: { followedByViewer: boolean; followersCount: number };
      };
      expect([user.followedByViewer, user.followersCount]).toEqual([true, 1]);

      await reload(later);
      const card = postCard(later, first);
      await visible(card.getByRole('button', { name: 'Unlike', exact: true }));
      await visible(card.getByRole('button', { name: 'Remove bookmark', exact: true }));
      await visible(postCard(later, second).getByRole('button', { name: 'Unlike', exact: true }));
      const shown = later.getByRole('article', { name: 'Profile', exact: true });
      await visible(shown.getByRole('button', { name: 'Unfollow', exact: true }));
    } finally {
      await context.close();
    }
  });
});
