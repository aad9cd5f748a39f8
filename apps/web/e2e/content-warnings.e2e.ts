import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { logIn, newAccount, signUpThroughApi } from './support/accounts';
import { reload, screenshot, toast, visible, visit } from './support/app';
import { DESKTOP, launchChromium, openPage } from './support/chromium';
import { gradientPng, postCard } from './support/posts';

const executable = inject('browserExecutable');
const baseURL = inject('baseURL');

const PLACEHOLDER = "What's is in your mind?";
const stamp = Date.now().toString(36);

function composer(page: Page): Locator {
  return page.getByRole('region', { name: 'New post' });
}

async function attachImage(box: Locator): Promise<void> {
  await box.locator('input[type="file"]').setInputFiles({
    name: 'gradient.png',
    mimeType: 'image/png',
    buffer: gradientPng(),
  });
  await visible(box.getByRole('img', { name: 'Image 1' }));
}

/** Whether the card's picture is drawn blurred. */
function imageBlurred(card: Locator): Promise<boolean> {
  return card
    .locator('img.post-card__image')
    .evaluate((image) => getComputedStyle(image).filter.includes('blur'));
}

/** Whether the image's blur is gone within a few seconds (it fades out). */
async function blurGone(card: Locator): Promise<boolean> {
  for (let tries = 0; tries < 50; tries += 1) {
    if (!(await imageBlurred(card))) return true;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return false;
}

describe.skipIf(executable === null)('content warnings and sensitive images', () => {
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;

  beforeAll(async () => {
    browser = await launchChromium(executable ?? '');
    ({ context, page } = await openPage(browser, baseURL, DESKTOP));
    const account = newAccount('cw');
    await signUpThroughApi(baseURL, account);
    await logIn(page, account.username, account.password);
  });

  afterAll(async () => {
    await context.close();
    await browser.close();
  });

  it('posts behind a warning that shows only itself until Show more', async () => {
    const box = composer(page);
    await box.getByRole('button', { name: 'Content warning', exact: true }).click();
    await box
      .getByRole('textbox', { name: 'Content warning', exact: true })
      .fill(`Film ending ${stamp}`);
    await box.getByPlaceholder(PLACEHOLDER).fill(`The butler did it ${stamp}`);
    await attachImage(box);
    await box.getByRole('button', { name: 'Post', exact: true }).click();
    await visible(toast(page, 'New post created'));

    const card = postCard(page, `Film ending ${stamp}`);
    await visible(card);
    expect(await card.getByText(`The butler did it ${stamp}`).count()).toBe(0);
    expect(await card.getByRole('img').count()).toBe(0);
    await card.getByRole('button', { name: 'Show more', exact: true }).click();
    await visible(card.getByText(`The butler did it ${stamp}`));
    const image = card.getByRole('img', { name: /^Image posted by / });
    await visible(image);
    await expect
      .poll(() => image.evaluate((element) => (element as HTMLImageElement).naturalWidth))
      .toBeGreaterThan(0);
    await screenshot(page, 'content-warning-open');

    // Read again from the server: the warning is the post's, not the card's state.
    await reload(page);
    const again = postCard(page, `Film ending ${stamp}`);
    await visible(again.getByRole('button', { name: 'Show more', exact: true }));
    expect(await again.getByText(`The butler did it ${stamp}`).count()).toBe(0);
  });

  it('blurs a sensitive image until pressed, unless the member always shows them', async () => {
    const box = composer(page);
    await box.getByPlaceholder(PLACEHOLDER).fill(`Surgery photo ${stamp}`);
    await attachImage(box);
    await box.getByRole('checkbox', { name: 'Mark image as sensitive', exact: true }).check();
    await box.getByRole('button', { name: 'Post', exact: true }).click();
    await visible(toast(page, 'New post created'));

    const card = postCard(page, `Surgery photo ${stamp}`);
    const cover = card.getByRole('button', { name: /Sensitive content/ });
    await visible(cover);
    expect(await imageBlurred(card)).toBe(true);
    expect(await card.getByRole('img').count()).toBe(0);
    await cover.click();
    await visible(card.getByRole('img', { name: /^Image posted by / }));
    expect(await blurGone(card)).toBe(true);

    await visit(page, '/settings');
    const reading = page.getByRole('region', { name: 'Reading', exact: true });
    const always = reading.getByRole('switch', { name: 'Always show sensitive media' });
    await always.check();
    await visible(toast(page, 'Reading preferences saved.'));

    await visit(page, '/');
    const shown = postCard(page, `Surgery photo ${stamp}`);
    await visible(shown.getByRole('img', { name: /^Image posted by / }));
    expect(await imageBlurred(shown)).toBe(false);
    expect(await shown.getByRole('button', { name: /Sensitive content/ }).count()).toBe(0);
  });
});
