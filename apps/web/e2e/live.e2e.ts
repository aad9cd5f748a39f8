import type { Browser, BrowserContext, Locator, Page, Response } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { atPath, toast, visible, visit } from './support/app';
import { DESKTOP, launchChromium, MOBILE, openPage } from './support/chromium';
import { likeCount, postCard, postCards } from './support/posts';

const executable = inject('browserExecutable');
const baseURL = inject('baseURL');

const stamp = Date.now().toString(36);
const PLACEHOLDER = "What's is in your mind?";

interface Member {
  firstName: string;
  lastName: string;
  username: string;
}

/** A likes, comments and follows; B watches. */
const amara: Member = { firstName: 'Amara', lastName: 'Obi', username: `amara_${stamp}` };
const bruno: Member = { firstName: 'Bruno', lastName: 'Silva', username: `bruno_${stamp}` };
const fullName = (member: Member) => `${member.firstName} ${member.lastName}`;

const B_POST = `Sunrise over the bay ${stamp}`;
const A_POST = `Fresh bread this morning ${stamp}`;
const A_COMMENT = `What a view ${stamp}`;

/** Resolves once the page's live event stream is open (its answer's headers have arrived). */
function streamOpened(page: Page): Promise<Response> {
  return page.waitForResponse(
    (response) => new URL(response.url()).pathname === '/api/events' && response.status() === 200,
  );
}

async function signUp(page: Page, member: Member): Promise<void> {
  await visit(page, '/signup');
  await page.getByLabel('First Name', { exact: true }).fill(member.firstName);
  await page.getByLabel('Last Name', { exact: true }).fill(member.lastName);
  await page.getByLabel('Email', { exact: true }).fill(`${member.username}@example.com`);
  await page.getByLabel('Username', { exact: true }).fill(member.username);
  await page.getByLabel('Password', { exact: true }).fill('a-long-enough-password');
  await page.getByLabel('Confirm Password', { exact: true }).fill('a-long-enough-password');
  const opened = streamOpened(page);
  await page.getByRole('button', { name: 'Signup', exact: true }).click();
  await atPath(page, '/');
  await visible(page.getByRole('heading', { level: 1, name: 'Home', exact: true }));
  await opened;
}

async function publish(page: Page, text: string): Promise<void> {
  const box = page.getByRole('region', { name: 'New post' });
  await box.getByPlaceholder(PLACEHOLDER).fill(text);
  await box.getByRole('button', { name: 'Post', exact: true }).click();
  await visible(toast(page, 'New post created'));
}

function notificationsLink(page: Page, name: string): Locator {
  return page
    .getByRole('complementary', { name: 'Sidebar' })
    .getByRole('link', { name, exact: true });
}

async function commentCount(card: Locator): Promise<number> {
  const text = await card.locator('.post-action--comments .post-action__count').innerText();
  return Number.parseInt(text, 10);
}

async function openProfile(page: Page, member: Member): Promise<Locator> {
  await visit(page, `/profile/${member.username}`);
  await visible(page.getByRole('heading', { level: 1, name: fullName(member), exact: true }));
  return page.getByRole('article', { name: 'Profile', exact: true });
}

describe.skipIf(executable === null)('live updates between two members', () => {
  let browser: Browser;
  let contextA: BrowserContext;
  let contextB: BrowserContext;
  let pageA: Page;
  let pageB: Page;

  beforeAll(async () => {
    browser = await launchChromium(executable ?? '');
    // Two contexts: two cookie jars and storages, as two people on two machines.
    ({ context: contextA, page: pageA } = await openPage(browser, baseURL, DESKTOP));
    ({ context: contextB, page: pageB } = await openPage(browser, baseURL, DESKTOP));
    await signUp(pageA, amara);
    await signUp(pageB, bruno);
  });

  afterAll(async () => {
    await contextA.close();
    await contextB.close();
    await browser.close();
  });

  it("shows another member's like, comment and follow at once, with the unread badge", async () => {
    await publish(pageB, B_POST);
    // Marks this document: still there at the end means nothing was reloaded.
    await pageB.evaluate(() => {
      document.documentElement.dataset.liveMarker = 'kept';
    });
    const watched = postCard(pageB, B_POST);
    await visible(watched);
    expect(await likeCount(watched)).toBe(0);
    await visible(notificationsLink(pageB, 'Notifications'));

    const profile = await openProfile(pageA, bruno);
    const card = postCard(pageA, B_POST);
    await visible(card);

    await card.getByRole('button', { name: 'Like', exact: true }).click();
    await expect.poll(() => likeCount(watched)).toBe(1);
    await visible(notificationsLink(pageB, 'Notifications, 1 unread'));

    await card.getByRole('button', { name: 'Comments', exact: true }).click();
    await card.getByPlaceholder('Add a new comment').fill(A_COMMENT);
    await card.getByRole('button', { name: 'Comment', exact: true }).click();
    await visible(card.getByTestId('comment').filter({ hasText: A_COMMENT }));
    await expect.poll(() => commentCount(watched)).toBe(1);
    await visible(notificationsLink(pageB, 'Notifications, 2 unread'));

    await profile.getByRole('button', { name: 'Follow', exact: true }).click();
    await visible(profile.getByRole('button', { name: 'Unfollow', exact: true }));
    await visible(notificationsLink(pageB, 'Notifications, 3 unread'));

    // Nothing was reloaded: the counts are the ones that came live.
    expect(await likeCount(watched)).toBe(1);
    expect(await commentCount(watched)).toBe(1);
    expect(await pageB.evaluate(() => document.documentElement.dataset.liveMarker)).toBe('kept');
  });

  it("offers a followed member's new post on Home and shows it when asked", async () => {
    const profile = await openProfile(pageB, amara);
    await profile.getByRole('button', { name: 'Follow', exact: true }).click();
    await visible(profile.getByRole('button', { name: 'Unfollow', exact: true }));

    const opened = streamOpened(pageB);
    await visit(pageB, '/');
    await visible(postCard(pageB, B_POST));
    await opened;
    const before = await postCards(pageB).count();

    await visit(pageA, '/');
    await publish(pageA, A_POST);

    const pill = pageB.getByRole('button', { name: '1 new post', exact: true });
    await visible(pill);
    // Offered, not inserted: the feed has not moved.
    expect(await postCards(pageB).count()).toBe(before);
    expect(await postCard(pageB, A_POST).count()).toBe(0);

    await pill.click();

    await visible(postCards(pageB).first().getByText(A_POST, { exact: true }));
    expect(await pill.count()).toBe(0);
    expect(await pageB.evaluate(() => window.scrollY)).toBe(0);
  });

  it('lists the notifications newest first and marks them read', async () => {
    await notificationsLink(pageB, 'Notifications, 3 unread').click();
    await atPath(pageB, '/notifications');
    await visible(pageB.getByRole('heading', { level: 1, name: 'Notifications', exact: true }));

    const entries = pageB.getByTestId('notification');
    await visible(entries);
    const texts = (await entries.locator('.notification__text').allInnerTexts()).map((text) =>
      text.replace(/^Unread:\s*/, '').trim(),
    );
    expect(texts).toEqual([
      `${fullName(amara)} followed you`,
      `${fullName(amara)} commented on your post: ${A_COMMENT}`,
      `${fullName(amara)} liked your post`,
    ]);
    expect(await entries.first().getByRole('link').getAttribute('class')).toContain(
      'notification--unread',
    );
    await visible(notificationsLink(pageB, 'Notifications'));

    // A like leads to the post.
    await entries.last().getByRole('link').click();
    await visible(pageB.getByRole('heading', { level: 1, name: 'Post', exact: true }));
    await visible(postCard(pageB, B_POST));
  });

  it("shows the member's own like and bookmark from another tab", async () => {
    const otherTab = await contextB.newPage();
    try {
      const opened = streamOpened(pageB);
      await visit(pageB, '/');
      await opened;
      const here = postCard(pageB, A_POST);
      await visible(here);
      await visible(here.getByRole('button', { name: 'Like', exact: true }));

      await visit(otherTab, '/');
      const there = postCard(otherTab, A_POST);
      await there.getByRole('button', { name: 'Like', exact: true }).click();
      await there.getByRole('button', { name: 'Bookmark', exact: true }).click();
      await visible(there.getByRole('button', { name: 'Remove bookmark', exact: true }));

      await visible(here.getByRole('button', { name: 'Unlike', exact: true }));
      await visible(here.getByRole('button', { name: 'Remove bookmark', exact: true }));
      expect(await likeCount(here)).toBe(1);
    } finally {
      await otherTab.close();
    }
  });

  it('shows the badge in the bottom bar on a phone', async () => {
    await pageB.setViewportSize(MOBILE);
    try {
      const opened = streamOpened(pageB);
      await visit(pageB, '/');
      await opened;
      await publish(pageB, `Second post ${stamp}`);
      const bar = pageB.getByRole('navigation', { name: 'Quick navigation' });
      await visible(bar.getByRole('link', { name: 'Notifications', exact: true }));

      const mine = postCard(pageA, `Second post ${stamp}`);
      await visit(pageA, `/profile/${bruno.username}`);
      await mine.getByRole('button', { name: 'Like', exact: true }).click();

      await visible(bar.getByRole('link', { name: 'Notifications, 1 unread', exact: true }));
    } finally {
      await pageB.setViewportSize(DESKTOP);
    }
  });
});
