import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { logIn, newAccount, signUpThroughApi } from './support/accounts';
import { reload, toast, visible } from './support/app';
import { DESKTOP, launchChromium, openPage } from './support/chromium';
import { gradientPng, postCard } from './support/posts';

const executable = inject('browserExecutable');
const baseURL = inject('baseURL');

const PLACEHOLDER = "What's is in your mind?";
const stamp = Date.now().toString(36);

function composer(page: Page): Locator {
  return page.getByRole('region', { name: 'New post' });
}

describe.skipIf(executable === null)('albums', () => {
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;

  beforeAll(async () => {
    browser = await launchChromium(executable ?? '');
    ({ context, page } = await openPage(browser, baseURL, DESKTOP));
    const account = newAccount('album');
    await signUpThroughApi(baseURL, account);
    await logIn(page, account.username, account.password);
  });

  afterAll(async () => {
    await context.close();
    await browser.close();
  });

  it('posts three images in the chosen order and browses them on the card and full screen', async () => {
    const box = composer(page);
    await box.getByPlaceholder(PLACEHOLDER).fill(`Album post ${stamp}`);
    // Three sizes, so that the uploads differ.
    await box.locator('input[type="file"]').setInputFiles(
      [48, 56, 64].map((width, index) => ({
        name: `gradient-${String(index + 1)}.png`,
        mimeType: 'image/png',
        buffer: gradientPng(width, 32),
      })),
    );
    await visible(box.getByRole('list', { name: 'Images (3)' }));
    await box.getByRole('textbox', { name: 'Description of image 1' }).fill(`First ${stamp}`);
    await box.getByRole('textbox', { name: 'Description of image 3' }).fill(`Third ${stamp}`);
    await box.getByRole('button', { name: 'Move image 3 earlier' }).click();
    expect(await box.getByRole('textbox', { name: 'Description of image 2' }).inputValue()).toBe(
      `Third ${stamp}`,
    );

    await box.getByRole('button', { name: 'Post', exact: true }).click();
    await visible(toast(page, 'New post created'));

    const card = postCard(page, `Album post ${stamp}`);
    const carousel = card.getByRole('group', { name: /^Images, / });
    await visible(carousel);
    await visible(card.getByText('1 / 3', { exact: true }));
    await visible(card.getByRole('img', { name: `First ${stamp}` }));

    await card.getByRole('button', { name: 'Next image' }).click();
    await visible(card.getByText('2 / 3', { exact: true }));
    await visible(card.getByRole('img', { name: `Third ${stamp}` }));
    await card.getByRole('button', { name: 'Previous image' }).click();
    await visible(card.getByText('1 / 3', { exact: true }));
    await carousel.focus();
    await page.keyboard.press('ArrowRight');
    await visible(card.getByText('2 / 3', { exact: true }));

    const opener = card.getByRole('button', { name: 'Open image 2 full screen' });
    await opener.click();
    const viewer = page.getByRole('dialog');
    await visible(viewer);
    await page.keyboard.press('Escape');
    await viewer.waitFor({ state: 'hidden' });
    expect(await opener.evaluate((element) => element === document.activeElement)).toBe(true);
  });

  it('edits the posted album: removes, moves, adds and describes images, and the card follows', async () => {
    const card = postCard(page, `Album post ${stamp}`);
    await card.getByRole('button', { name: 'Post menu', exact: true }).click();
    await page.getByRole('menuitem', { name: 'Edit', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: 'Edit Post' });
    await visible(dialog.getByRole('list', { name: 'Images (3)' }));
    const description = (position: number) =>
      dialog.getByRole('textbox', { name: `Description of image ${String(position)}` });
    // Posted as First, Third and the one left undescribed.
    expect(await description(2).inputValue()).toBe(`Third ${stamp}`);

    await dialog.getByRole('button', { name: 'Remove image 1' }).click();
    await visible(dialog.getByRole('list', { name: 'Images (2)' }));
    await dialog.getByRole('button', { name: 'Move image 2 earlier' }).click();
    await description(2).fill(`Third, edited ${stamp}`);
    await dialog.locator('input[type="file"]').setInputFiles({
      name: 'gradient-4.png',
      mimeType: 'image/png',
      buffer: gradientPng(40, 32),
    });
    await visible(dialog.getByRole('list', { name: 'Images (3)' }));
    await description(3).fill(`Added ${stamp}`);
    await dialog.getByRole('textbox', { name: 'Post text' }).fill(`Album edited ${stamp}`);
    await dialog.getByRole('button', { name: 'Save', exact: true }).click();
    await visible(toast(page, 'Post Edited'));
    await dialog.waitFor({ state: 'hidden' });

    const edited = postCard(page, `Album edited ${stamp}`);
    await visible(edited.getByText('1 / 3', { exact: true }));
    await edited.getByRole('button', { name: 'Next image' }).click();
    await visible(edited.getByText('2 / 3', { exact: true }));
    await visible(edited.getByRole('img', { name: `Third, edited ${stamp}` }));
    await edited.getByRole('button', { name: 'Next image' }).click();
    const added = edited.getByRole('img', { name: `Added ${stamp}` });
    await visible(added);
    expect(await added.getAttribute('src')).toMatch(/^\/media\/.+/);
    expect(await edited.getByRole('img', { name: `First ${stamp}` }).count()).toBe(0);

    // The server kept the album so: a reload shows the same.
    await reload(page);
    const reloaded = postCard(page, `Album edited ${stamp}`);
    await visible(reloaded.getByText('1 / 3', { exact: true }));
    await reloaded.getByRole('button', { name: 'Next image' }).click();
    await visible(reloaded.getByRole('img', { name: `Third, edited ${stamp}` }));
  });
});
