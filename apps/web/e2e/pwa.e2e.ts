import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { logIn, newAccount, signUpThroughApi } from './support/accounts';
import { reload, toast, visible, visit } from './support/app';
import { CHROMIUM_ARGS, launchChromium, openPage } from './support/chromium';

const executable = inject('browserExecutable');
const baseURL = inject('baseURL');
const builtServiceWorker = resolve(dirname(fileURLToPath(import.meta.url)), '../dist/sw.js');
// The build's compressed copies of it (scripts/precompress.mjs), which the server prefers.
const compressedCopies = ['.br', '.gz'].map((extension) => builtServiceWorker + extension);

/** What the build left of the service worker: the script and its compressed copies. */
async function keepServiceWorker(): Promise<{ original: string; restore: () => Promise<void> }> {
  const original = await readFile(builtServiceWorker, 'utf8');
  const copies = await Promise.all(
    compressedCopies.map((file) => readFile(file).catch(() => null)),
  );
  return {
    original,
    restore: async () => {
      await writeFile(builtServiceWorker, original);
      await Promise.all(
        compressedCopies.map((file, index) => {
          const bytes = copies[index];
          return bytes ? writeFile(file, bytes) : rm(file, { force: true });
        }),
      );
    },
  };
}

/** Waits until a service worker controls the page (after the first visit's reload). */
async function controlledBy(page: Page): Promise<string> {
  await page.evaluate(() => navigator.serviceWorker.ready.then(() => undefined));
  await reload(page);
  await page.waitForFunction(() => navigator.serviceWorker.controller !== null);
  return page.evaluate(() => navigator.serviceWorker.controller?.scriptURL ?? '');
}

/** A member of this test alone, so that its posts change no other test's feeds (the guest's). */
async function signInAsNewMember(page: Page): Promise<void> {
  const account = newAccount('pwa');
  await signUpThroughApi(baseURL, account);
  await logIn(page, account.username, account.password);
}

describe.skipIf(executable === null)('installable, offline app', () => {
  let browser: Browser;

  beforeAll(async () => {
    browser = await launchChromium(executable ?? '');
  });

  afterAll(async () => {
    await browser.close();
  });

  it('meets the install criteria: a manifest with icons and a service worker', async () => {
    // Chromium never offers to install from an incognito profile, which every new context is.
    const profile = await mkdtemp(join(tmpdir(), 'perch-install-'));
    const context = await chromium.launchPersistentContext(profile, {
      executablePath: executable ?? '',
      headless: true,
      args: CHROMIUM_ARGS,
      baseURL,
    });
    const page = context.pages()[0] ?? (await context.newPage());
    try {
      await visit(page, '/login');
      expect(await controlledBy(page)).toBe(`${baseURL}/sw.js`);
      const devtools = await context.newCDPSession(page);
      const manifest = (await devtools.send('Page.getAppManifest')) as {
        url: string;
        errors: unknown[];
        data?: string;
      };
      expect(manifest.url).toBe(`${baseURL}/manifest.webmanifest`);
      expect(manifest.errors).toEqual([]);
      const parsed = JSON.parse(manifest.data ?? '{}') as { name?: string; display?: string };
      expect(parsed).toMatchObject({ name: 'Perch', display: 'standalone' });
      const installability = (await devtools.send('Page.getInstallabilityErrors')) as {
        installabilityErrors: unknown[];
      };
      expect(installability.installabilityErrors).toEqual([]);
      for (const size of ['192', '512']) {
        const icon = await page.request.get(`/icons/icon-${size}.png`);
        expect(icon.headers()['content-type']).toBe('image/png');
      }
    } finally {
      await context.close();
      await rm(profile, { recursive: true, force: true });
    }
  });

  it('loads the app shell with no connection, while API calls still go to the network', async () => {
    const { context, page } = await openPage(browser, baseURL);
    try {
      await visit(page, '/login');
      await controlledBy(page);
      await context.setOffline(true);
      await page.goto('/signup');
      await visible(page.getByRole('button', { name: 'Signup', exact: true }));
      await page.goto('/login');
      // No answer is made up from a cache: the guest login fails as it does with no server.
      await page.getByRole('button', { name: 'Login as guest', exact: true }).click();
      await visible(toast(page, 'Invalid username and password'));
      expect(new URL(page.url()).pathname).toBe('/login');
      await context.setOffline(false);
      await page.getByRole('button', { name: 'Login as guest', exact: true }).click();
      await page.waitForURL((url) => url.pathname === '/');
    } finally {
      await context.close();
    }
  });

  it('keeps a half-written post through a reload, and forgets it once posted', async () => {
    const { context, page } = await openPage(browser, baseURL);
    try {
      await signInAsNewMember(page);
      const composer = page.getByRole('region', { name: 'New post' });
      const text = composer.getByRole('textbox', { name: 'Post text' });
      const words = `A thought for later ${Date.now()}`;
      await text.fill(words);
      await visible(composer.getByRole('button', { name: 'Drafts (1)' }));
      await reload(page);
      await page.waitForFunction(
        (expected) =>
          document.querySelector<HTMLTextAreaElement>('[aria-label="New post"] textarea')?.value ===
          expected,
        words,
      );
      await composer.getByRole('button', { name: 'Post', exact: true }).click();
      await visible(page.getByTestId('post-card').filter({ hasText: words }));
      expect(await text.inputValue()).toBe('');
      await reload(page);
      await visible(page.getByTestId('post-card').filter({ hasText: words }));
      expect(await text.inputValue()).toBe('');
      expect(await composer.getByRole('button', { name: /^Drafts/ }).count()).toBe(0);
    } finally {
      await context.close();
    }
  });

  it('brings a deleted post back with Undo, and a page left within the window still deletes', async () => {
    const { context, page } = await openPage(browser, baseURL);
    try {
      await signInAsNewMember(page);
      const words = `Maybe delete this ${Date.now()}`;
      const composer = page.getByRole('region', { name: 'New post' });
      await composer.getByRole('textbox', { name: 'Post text' }).fill(words);
      await composer.getByRole('button', { name: 'Post', exact: true }).click();
      const card = page.getByTestId('post-card').filter({ hasText: words });
      await visible(card);

      const remove = async () => {
        await card.getByRole('button', { name: 'Post menu', exact: true }).click();
        await page.getByRole('menuitem', { name: 'Delete', exact: true }).click();
        await card.waitFor({ state: 'detached' });
      };
      await remove();
      await toast(page, 'Post Deleted').getByRole('button', { name: 'Undo' }).click();
      await visible(card);
      await page.waitForTimeout(6000);
      await reload(page);
      await visible(card);

      // Deleted, then the page reloads at once: the delete goes out as the page hides.
      // The next page finishes it should that request not have arrived before it loaded.
      await remove();
      await reload(page);
      await card.waitFor({ state: 'detached' });
      const latestContents = async () => {
        const latest = await page.request.get(`/api/posts?sort=latest&limit=50`);
        const body = (await latest.json()) as { posts: { content: string }[] };
        return body.posts.map((post) => post.content);
      };
      await expect.poll(latestContents, { timeout: 10_000 }).not.toContain(words);
      await reload(page);
      // This member's only post is gone: Home is empty.
      await visible(page.getByText('Your feed is empty. Share your first post', { exact: false }));
      expect(await card.count()).toBe(0);
    } finally {
      await context.close();
    }
  });

  it('queues a post made offline and sends it once back online, also when an answer is lost', async () => {
    // Requests are intercepted below: no service worker stands between the page and them.
    const context = await browser.newContext({ baseURL, serviceWorkers: 'block' });
    context.setDefaultTimeout(15_000);
    const page = await context.newPage();
    try {
      await signInAsNewMember(page);
      const words = `Written on a train ${Date.now()}`;
      await context.setOffline(true);
      const composer = page.getByRole('region', { name: 'New post' });
      await composer.getByRole('textbox', { name: 'Post text' }).fill(words);
      await composer.getByRole('button', { name: 'Post', exact: true }).click();
      await visible(toast(page, 'No connection: your post will be sent when you are back online.'));
      await visible(page.getByTestId('queued-post').filter({ hasText: words }));
      expect(await composer.getByRole('textbox', { name: 'Post text' }).inputValue()).toBe('');

      // The first send reaches the server, which makes the post, but its answer is lost.
      let lost = 0;
      await page.route('**/api/posts', async (route) => {
        if (route.request().method() !== 'POST' || lost > 0) return route.continue();
        lost += 1;
        await route.fetch();
        await route.abort('connectionreset');
      });
      await context.setOffline(false);
      await reload(page);
      await expect.poll(() => lost).toBe(1);
      // The next start sends it again, with the same key: the server answers the same post.
      await reload(page);
      await visible(page.getByTestId('post-card').filter({ hasText: words }));
      await page.getByTestId('queued-post').waitFor({ state: 'detached' });
      const latest = await page.request.get('/api/posts?sort=latest&limit=50');
      const body = (await latest.json()) as { posts: { content: string }[] };
      expect(body.posts.filter((post) => post.content === words)).toHaveLength(1);
    } finally {
      await context.close();
    }
  });

  it('sends a waiting post through Background Sync, with no tab of the app open', async () => {
    const { context, page } = await openPage(browser, baseURL);
    try {
      await signInAsNewMember(page);
      await controlledBy(page);
      const devtools = await context.newCDPSession(page);
      const registrations: { registrationId: string; scopeURL: string }[] = [];
      devtools.on('ServiceWorker.workerRegistrationUpdated', (event) => {
        registrations.push(...(event as { registrations: typeof registrations }).registrations);
      });
      await devtools.send('ServiceWorker.enable');

      const words = `Sent while away ${Date.now()}`;
      await context.setOffline(true);
      const composer = page.getByRole('region', { name: 'New post' });
      await composer.getByRole('textbox', { name: 'Post text' }).fill(words);
      await composer.getByRole('button', { name: 'Post', exact: true }).click();
      await visible(page.getByTestId('queued-post').filter({ hasText: words }));

      // Every tab of the app is gone when the connection returns: only the worker can send it.
      await page.goto('about:blank');
      await context.setOffline(false);
      const registration = registrations.find((entry) => entry.scopeURL === `${baseURL}/`);
      expect(registration).toBeDefined();
      await devtools.send('ServiceWorker.dispatchSyncEvent', {
        origin: baseURL,
        registrationId: registration?.registrationId ?? '',
        tag: 'perch-outbox',
        lastChance: false,
      });
      const copiesOnServer = async () => {
        const latest = await page.request.get('/api/posts?sort=latest&limit=50');
        const body = (await latest.json()) as { posts: { content: string }[] };
        return body.posts.filter((post) => post.content === words).length;
      };
      await expect.poll(copiesOnServer).toBe(1);

      // The next visit finds nothing waiting, and sends nothing again.
      await visit(page, '/');
      await visible(page.getByTestId('post-card').filter({ hasText: words }));
      expect(await page.getByTestId('queued-post').count()).toBe(0);
      expect(await copiesOnServer()).toBe(1);
    } finally {
      await context.close();
    }
  });

  it('offers a new build with a Reload prompt instead of swapping it in silently', async () => {
    const { original, restore } = await keepServiceWorker();
    const { context, page } = await openPage(browser, baseURL);
    try {
      await visit(page, '/login');
      const first = await controlledBy(page);
      // A new build: the service worker's bytes change (as its precache list does in a real one),
      // and its compressed copies with them (here: none, so the server sends the script itself).
      await writeFile(builtServiceWorker, `${original}\n// build ${Date.now()}\n`);
      await Promise.all(compressedCopies.map((file) => rm(file, { force: true })));
      await page.evaluate(() =>
        navigator.serviceWorker.getRegistration().then((registration) => registration?.update()),
      );
      const prompt = await visible(toast(page, 'New version available'));
      // Until the member chooses, the page keeps the version it loaded with.
      expect(await page.evaluate(() => navigator.serviceWorker.controller?.scriptURL)).toBe(first);
      const waiting = await page.evaluate(() =>
        navigator.serviceWorker.getRegistration().then((registration) => registration?.waiting),
      );
      expect(waiting).not.toBeNull();
      const reloaded = page.waitForEvent('load');
      await prompt.getByRole('button', { name: 'Reload', exact: true }).click();
      await reloaded;
      await page.waitForFunction(() =>
        navigator.serviceWorker.getRegistration().then((r) => r?.waiting === null),
      );
      await visible(page.getByRole('button', { name: 'Login', exact: true }));
    } finally {
      await restore();
      await context.close();
    }
  });
});
