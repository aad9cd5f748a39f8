import { AccountErrors } from '@perch/contract';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { renderApp } from '../../test/renderApp';
import { errorAnswer, mockAccount, signInAsAda, TOKEN } from './settings.mocks';

describe('settings page', () => {
  it('has a heading and one named region per part', async () => {
    signInAsAda();
    mockAccount();
    renderApp('/settings');

    expect(await screen.findByRole('heading', { level: 1, name: 'Settings' })).toBeInTheDocument();
    // The screen loads on first use: its title is set once it has rendered.
    await waitFor(() => {
      expect(document.title).toBe('Settings · Perch');
    });
    for (const name of [
      'Profile',
      'Password',
      'Privacy',
      'Devices',
      'Blocked and muted',
      'Your data',
    ]) {
      const region = screen.getByRole('region', { name });
      expect(within(region).getByRole('heading', { level: 2, name })).toBeInTheDocument();
    }
  });

  it('is in the sidebar account menu and in the bottom bar menu', async () => {
    signInAsAda();
    mockAccount();
    const { user, router } = renderApp('/');

    const sidebar = await screen.findByRole('complementary', { name: 'Sidebar' });
    await user.click(within(sidebar).getByRole('button', { name: 'Account menu' }));
    expect(within(sidebar).getByRole('link', { name: 'Settings' })).toHaveAttribute(
      'href',
      '/settings',
    );

    const bar = screen.getByRole('navigation', { name: 'Quick navigation' });
    const toggle = within(bar).getByRole('button', { name: 'Account menu' });
    await user.click(toggle);
    expect(toggle).toHaveAttribute('aria-expanded', 'true');
    expect(within(bar).getByRole('button', { name: 'Log out' })).toBeInTheDocument();
    await user.click(within(bar).getByRole('link', { name: 'Settings' }));

    expect(router.state.location.pathname).toBe('/settings');
    expect(toggle).toHaveAttribute('aria-expanded', 'false');
    expect(toggle).toHaveClass('active');
    expect(await screen.findByRole('heading', { level: 1, name: 'Settings' })).toBeInTheDocument();
  });

  it('closes the bottom bar menu with Escape, focus back on its button', async () => {
    signInAsAda();
    mockAccount();
    const { user } = renderApp('/');
    const bar = await screen.findByRole('navigation', { name: 'Quick navigation' });
    const toggle = within(bar).getByRole('button', { name: 'Account menu' });

    await user.click(toggle);
    await user.tab();
    expect(within(bar).getByRole('link', { name: 'Settings' })).toHaveFocus();
    await user.keyboard('{Escape}');

    expect(within(bar).queryByRole('link', { name: 'Settings' })).not.toBeInTheDocument();
    expect(toggle).toHaveFocus();
  });

  it('opens Edit Profile from the Profile part', async () => {
    signInAsAda();
    mockAccount();
    const { user } = renderApp('/settings');
    const region = await screen.findByRole('region', { name: 'Profile' });

    expect(within(region).getByText('@ada_l')).toBeInTheDocument();
    expect(within(region).getByRole('link', { name: 'View profile' })).toHaveAttribute(
      'href',
      '/profile/ada_l',
    );
    await user.click(within(region).getByRole('button', { name: 'Edit profile' }));

    const dialog = screen.getByRole('dialog', { name: 'Edit Profile' });
    expect(within(dialog).getByLabelText('First Name')).toHaveValue('Ada');
  });

  it('downloads the data export with the session token and saves it as a file', async () => {
    signInAsAda();
    const calls = mockAccount();
    // jsdom has no object URLs; these stay for the rest of this file (the link's address is
    // released a moment after the click).
    URL.createObjectURL = vi.fn(() => 'blob:perch-export');
    URL.revokeObjectURL = vi.fn();
    const saved: { download: string; href: string }[] = [];
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (
      this: HTMLAnchorElement,
    ) {
      saved.push({ download: this.download, href: this.href });
    });
    const { user } = renderApp('/settings');
    const region = await screen.findByRole('region', { name: 'Your data' });

    await user.click(within(region).getByRole('button', { name: 'Download your data' }));

    await waitFor(() => {
      expect(saved).toEqual([{ download: 'perch-ada_l.zip', href: 'blob:perch-export' }]);
    });
    expect(calls.find((call) => call.path === '/api/users/me/export')).toMatchObject({
      method: 'GET',
      authorization: TOKEN,
    });
    expect(within(region).getByRole('button', { name: 'Download your data' })).toBeEnabled();
  });

  it('says how often the data can be downloaded when the server answers 429', async () => {
    signInAsAda();
    mockAccount({
      answer: { 'GET /api/users/me/export': errorAnswer(429, 'Too Many Requests') },
    });
    const { user } = renderApp('/settings');
    const region = await screen.findByRole('region', { name: 'Your data' });

    await user.click(within(region).getByRole('button', { name: 'Download your data' }));

    expect(await within(region).findByRole('alert')).toHaveTextContent(
      AccountErrors.exportTooOften,
    );
  });
});
