import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderApp } from '../../test/renderApp';
import { signInAsMe } from '../../entities/post/posts.mocks';
import {
  adaOkafor,
  boLi,
  cyZhang,
  makeGroup,
  mockNotifications,
} from '../../entities/notification/notifications.mocks';

function entries() {
  return screen.queryAllByTestId('notification');
}

/** The link of the entry at `index` (0: the newest). */
function entryLink(index: number): HTMLElement {
  const entry = entries()[index];
  if (!entry) throw new Error(`No notification at ${String(index)}.`);
  return within(entry).getByRole('link');
}

async function entryTexts(): Promise<string[]> {
  await screen.findByRole('list', { name: 'Notifications' });
  return entries().map(
    (entry) =>
      entry.querySelector('.notification__text')?.textContent.replace('Unread: ', '') ?? '',
  );
}

describe('notifications page', () => {
  it('names who did what, grouped, newest first', async () => {
    signInAsMe();
    mockNotifications({
      pages: [
        [
          makeGroup({ kind: 'like', actors: [adaOkafor] }),
          makeGroup({ kind: 'like', actors: [adaOkafor, boLi] }),
          makeGroup({ kind: 'like', actors: [adaOkafor, boLi, cyZhang], actorCount: 4 }),
          makeGroup({ kind: 'like', actors: [adaOkafor, boLi, cyZhang], actorCount: 3 }),
          makeGroup({
            kind: 'comment',
            actors: [boLi],
            comment: { _id: 'c-1', id: 'c-1', text: 'Lovely photo!' },
          }),
          makeGroup({ kind: 'follow', actors: [cyZhang, boLi], post: null }),
          makeGroup({
            kind: 'mention',
            actors: [boLi],
            post: { _id: 'p-9', id: 'p-9', content: 'Hi @ada', mediaURL: null },
          }),
        ],
      ],
    });
    renderApp('/notifications');

    expect(
      await screen.findByRole('heading', { level: 1, name: 'Notifications' }),
    ).toBeInTheDocument();
    expect(await entryTexts()).toEqual([
      'Ada Okafor liked your post',
      'Ada Okafor and Bo Li liked your post',
      'Ada Okafor and 3 others liked your post',
      'Ada Okafor and 2 others liked your post',
      'Bo Li commented on your post: Lovely photo!',
      'Cy Zhang and Bo Li followed you',
      'Bo Li mentioned you',
    ]);
    await waitFor(() => {
      expect(document.title).toBe('Notifications · Perch');
    });

    const links = entries().map((entry) => within(entry).getByRole('link'));
    expect(links[0]).toHaveAttribute('href', '/post/p-1');
    expect(links[4]).toHaveAttribute('href', '/post/p-1');
    expect(links[5]).toHaveAttribute('href', '/profile/cy');
    expect(links[6]).toHaveAttribute('href', '/post/p-9');
    // What the entry is about, and one avatar per member named.
    expect(within(entryLink(0)).getByText('Clear skies tonight.')).toBeInTheDocument();
    expect(entries()[2]?.querySelectorAll('img.avatar')).toHaveLength(3);
  });

  it('says who reposted the post, with the repost icon, and opens the post', async () => {
    signInAsMe();
    mockNotifications({
      pages: [
        [
          makeGroup({ kind: 'repost', actors: [adaOkafor, boLi, cyZhang], actorCount: 3 }),
          makeGroup({ kind: 'repost', actors: [boLi] }),
        ],
      ],
    });
    renderApp('/notifications');

    expect(await entryTexts()).toEqual([
      'Ada Okafor and 2 others reposted your post',
      'Bo Li reposted your post',
    ]);
    expect(entryLink(0)).toHaveAttribute('href', '/post/p-1');
    const kind = entries()[0]?.querySelector('.notification__kind--repost');
    expect(kind?.querySelector('svg[aria-hidden="true"]')).not.toBeNull();
  });

  it('sets unread entries apart, then marks everything read and clears the badge', async () => {
    signInAsMe();
    const { received } = mockNotifications({
      pages: [[makeGroup({ read: false }), makeGroup({ kind: 'follow', post: null, read: true })]],
      unreadCount: 1,
    });
    const { user } = renderApp('/');

    const sidebar = await screen.findByRole('complementary', { name: 'Sidebar' });
    const link = await within(sidebar).findByRole('link', { name: 'Notifications, 1 unread' });
    expect(received.reads).toBe(0);

    await user.click(link);

    await entryTexts();
    const unread = entryLink(0);
    const read = entryLink(1);
    expect(unread).toHaveClass('notification--unread');
    expect(unread).toHaveAccessibleName('Unread: Ada Okafor liked your post');
    expect(unread).toHaveAccessibleDescription('Clear skies tonight. Nov 22, 2026');
    expect(read).not.toHaveClass('notification--unread');

    await waitFor(() => {
      expect(received.reads).toBe(1);
    });
    expect(within(sidebar).getByRole('link', { name: 'Notifications' })).toBeInTheDocument();
    expect(within(sidebar).queryByTestId('unread-badge')).not.toBeInTheDocument();
    // What was new stays set apart while the page is open.
    expect(unread).toHaveClass('notification--unread');
  });

  it('shows skeleton rows while loading', async () => {
    signInAsMe();
    mockNotifications({ hang: true });
    renderApp('/notifications');

    expect(
      await screen.findByRole('status', { name: 'Loading notifications' }),
    ).toBeInTheDocument();
    expect(entries()).toHaveLength(0);
  });

  it('says when there is nothing yet, and marks nothing read', async () => {
    signInAsMe();
    const { received } = mockNotifications({ pages: [[]], unreadCount: 0 });
    renderApp('/notifications');

    expect(await screen.findByText('No notifications yet')).toBeInTheDocument();
    expect(received.reads).toBe(0);
  });

  it('offers Retry when the list cannot be loaded', async () => {
    signInAsMe();
    mockNotifications({ pages: [[makeGroup()]], failOnce: 400 });
    const { user } = renderApp('/notifications');

    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Notifications could not be loaded.');
    await user.click(within(alert).getByRole('button', { name: 'Retry' }));

    expect(await entryTexts()).toEqual(['Ada Okafor liked your post']);
  });

  it('loads the next page on demand', async () => {
    signInAsMe();
    const { received } = mockNotifications({
      pages: [[makeGroup({ actors: [boLi] })], [makeGroup({ kind: 'follow', post: null })]],
    });
    const { user } = renderApp('/notifications');

    expect(await entryTexts()).toEqual(['Bo Li liked your post']);
    // jsdom has no IntersectionObserver: the list offers a button instead of loading on scroll.
    await user.click(screen.getByRole('button', { name: 'Load more' }));

    await waitFor(() => {
      expect(entries()).toHaveLength(2);
    });
    expect(await entryTexts()).toEqual(['Bo Li liked your post', 'Ada Okafor followed you']);
    expect(received.listCursors).toEqual([null, 'cursor-1']);
    expect(screen.queryByRole('button', { name: 'Load more' })).not.toBeInTheDocument();
  });
});
