import { postMutationResponseSchema, signupResponseSchema } from '@perch/contract';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { newAccount } from './support/accounts';
import { launchChromium, MOBILE } from './support/chromium';

const executable = inject('browserExecutable');
const baseURL = inject('baseURL');

interface Author {
  username: string;
  token: string;
}

async function api(path: string, init: { method: string; token?: string; body?: unknown }) {
  const response = await fetch(`${baseURL}${path}`, {
    method: init.method,
    headers: {
      'content-type': 'application/json',
      ...(init.token !== undefined && { authorization: init.token }),
    },
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
  });
  if (!response.ok) {
    throw new Error(`${init.method} ${path} answered ${String(response.status)}`);
  }
  return response.json() as Promise<unknown>;
}

/** A member with a token, made through the API. */
async function newAuthor(prefix: string): Promise<Author> {
  const account = newAccount(prefix);
  const body = await api('/api/auth/signup', {
    method: 'POST',
    body: {
      ...account,
      email: `${account.username}@example.com`,
      confirmPassword: account.password,
    },
  });
  return { username: account.username, token: signupResponseSchema.parse(body).encodedToken };
}

async function publish(author: Author, content: string): Promise<string> {
  const body = await api('/api/posts', {
    method: 'POST',
    token: author.token,
    body: { postData: { content } },
  });
  return postMutationResponseSchema.parse(body).post._id;
}

/** A reader without an account whose browser runs no JavaScript. */
async function scriptlessPage(browser: Browser) {
  const context = await browser.newContext({
    baseURL,
    viewport: MOBILE,
    javaScriptEnabled: false,
    colorScheme: 'light',
  });
  context.setDefaultTimeout(15_000);
  return { context, page: await context.newPage() };
}

describe.skipIf(executable === null)('public pages without JavaScript', () => {
  let browser: Browser;
  let author: Author;
  let postIds: string[];

  beforeAll(async () => {
    browser = await launchChromium(executable ?? '');
    author = await newAuthor('pub');
    postIds = [];
    for (let i = 1; i <= 21; i += 1) {
      postIds.push(await publish(author, `Heron note ${String(i)} #birds`));
    }
    await api(`/api/comments/add/${postIds[20] ?? ''}`, {
      method: 'POST',
      token: author.token,
      body: { commentData: { text: 'A comment under the newest note' } },
    });
  });

  afterAll(async () => {
    await browser.close();
  });

  it('shows a member’s profile and posts, and pages to older ones', async () => {
    const { context, page } = await scriptlessPage(browser);
    try {
      const response = await page.goto(`/@${author.username}`);
      expect(response?.status()).toBe(200);
      await page.getByRole('heading', { level: 1, name: 'Mira Test' }).waitFor();
      expect(await page.title()).toBe(`Mira Test (@${author.username}) · Perch`);
      const posts = page.locator('main article');
      expect(await posts.count()).toBe(20);
      expect(await posts.first().innerText()).toContain('Heron note 21 #birds');
      expect(await posts.last().innerText()).toContain('Heron note 2 #birds');
      await page.getByRole('link', { name: 'Sign in', exact: true }).waitFor();
      await page.getByRole('link', { name: 'Create an account', exact: true }).waitFor();

      await page.getByRole('link', { name: 'Older posts', exact: true }).click();
      await page.waitForURL((url) => url.searchParams.has('cursor'));
      expect(await posts.count()).toBe(1);
      expect(await posts.first().innerText()).toContain('Heron note 1 #birds');
    } finally {
      await context.close();
    }
  });

  it('opens a post’s own page with its comments', async () => {
    const { context, page } = await scriptlessPage(browser);
    try {
      await page.goto(`/@${author.username}`);
      await page.getByRole('link', { name: '1 comment', exact: true }).click();
      await page.waitForURL((url) => url.pathname === `/@${author.username}/${postIds[20] ?? ''}`);
      await page.getByRole('heading', { level: 2, name: '1 comment' }).waitFor();
      expect(await page.locator('main').innerText()).toContain('A comment under the newest note');
      expect(await page.title()).toBe('Mira Test on Perch: “Heron note 21 #birds”');
    } finally {
      await context.close();
    }
  });

  it('stays the server’s page for a reader without a session whose browser runs the app', async () => {
    const context = await browser.newContext({ baseURL, viewport: MOBILE, colorScheme: 'light' });
    context.setDefaultTimeout(15_000);
    try {
      const page = await context.newPage();
      await page.goto(`/@${author.username}`, { waitUntil: 'networkidle' });
      expect(new URL(page.url()).pathname).toBe(`/@${author.username}`);
      await page.getByRole('heading', { level: 1, name: 'Mira Test' }).waitFor();
      expect(await page.locator('#root[data-public-page="profile"] main article').count()).toBe(20);
    } finally {
      await context.close();
    }
  });

  it('shows nothing of a member who keeps their profile from people who are not signed in', async () => {
    const shy = await newAuthor('shy');
    await publish(shy, 'Only for members');
    await api('/api/account/privacy', {
      method: 'PATCH',
      token: shy.token,
      body: { publicProfile: false },
    });
    const { context, page } = await scriptlessPage(browser);
    try {
      const response = await page.goto(`/@${shy.username}`);
      expect(response?.status()).toBe(404);
      await page.getByRole('heading', { level: 1, name: 'Nothing to see here' }).waitFor();
      expect(await page.locator('body').innerText()).not.toContain('Only for members');
    } finally {
      await context.close();
    }
  });
});
