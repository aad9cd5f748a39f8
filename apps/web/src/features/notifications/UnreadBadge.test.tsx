import { act, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { installFakeEventSource } from '../../test/fakeEventSource';
import { renderApp } from '../../test/renderApp';
import { me, signInAsMe } from '../../entities/post/posts.mocks';
import { mockNotifications } from '../../entities/notification/notifications.mocks';

async function navigations() {
  const sidebar = await screen.findByRole('complementary', { name: 'Sidebar' });
  const bar = screen.getByRole('navigation', { name: 'Quick navigation' });
  return { sidebar, bar, both: [sidebar, bar] };
}

describe('unread badge', () => {
  it('shows the unread count on the notifications links, in words for assistive technology', async () => {
    signInAsMe();
    mockNotifications({ unreadCount: 3 });
    renderApp('/');

    for (const place of (await navigations()).both) {
      const link = await within(place).findByRole('link', { name: 'Notifications, 3 unread' });
      expect(link).toHaveAttribute('href', '/notifications');
      expect(within(link).getByTestId('unread-badge')).toHaveTextContent('3');
    }
  });

  it('shows no badge when everything is read, and 99+ for many', async () => {
    signInAsMe();
    const { setUnread } = mockNotifications({ unreadCount: 0 });
    const first = renderApp('/');
    for (const place of (await navigations()).both) {
      const link = within(place).getByRole('link', { name: 'Notifications' });
      expect(within(link).queryByTestId('unread-badge')).not.toBeInTheDocument();
    }
    first.unmount();

    setUnread(250);
    renderApp('/');
    const { sidebar } = await navigations();
    const link = await within(sidebar).findByRole('link', {
      name: 'Notifications, 250 unread',
    });
    expect(within(link).getByTestId('unread-badge')).toHaveTextContent('99+');
  });

  it('follows the live stream', async () => {
    const streams = installFakeEventSource();
    signInAsMe();
    mockNotifications({ unreadCount: 1 });
    renderApp('/');
    const { sidebar } = await navigations();
    await within(sidebar).findByRole('link', { name: 'Notifications, 1 unread' });
    await waitFor(() => {
      expect(streams.open).toHaveLength(1);
    });
    const stream = streams.current();

    act(() => {
      stream.emit('ready', { unreadCount: 2 }, '7');
    });
    expect(
      await within(sidebar).findByRole('link', { name: 'Notifications, 2 unread' }),
    ).toBeInTheDocument();

    act(() => {
      stream.emit('notifications.changed', { userId: me._id, unreadCount: 5 }, '8');
    });
    for (const place of (await navigations()).both) {
      expect(
        await within(place).findByRole('link', { name: 'Notifications, 5 unread' }),
      ).toBeInTheDocument();
    }

    act(() => {
      stream.emit('notifications.changed', { userId: me._id, unreadCount: 0 }, '9');
    });
    expect(await within(sidebar).findByRole('link', { name: 'Notifications' })).toBeInTheDocument();
    expect(screen.queryByTestId('unread-badge')).not.toBeInTheDocument();
  });
});
