import { AccountErrors } from '@perch/contract';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { readStoredSession } from '../../test/fixtures';
import { renderApp } from '../../test/renderApp';
import { usernameMatches } from './DeleteAccountDialog';
import { errorAnswer, mockAccount, signInAsAda, TOKEN } from './settings.mocks';

async function openDialog() {
  signInAsAda();
  const view = renderApp('/settings');
  const region = await screen.findByRole('region', { name: 'Your data' });
  const opener = within(region).getByRole('button', { name: 'Delete account' });
  await view.user.click(opener);
  const dialog = screen.getByRole('dialog', { name: 'Delete account' });
  return {
    ...view,
    opener,
    dialog,
    password: within(dialog).getByLabelText('Password'),
    username: within(dialog).getByLabelText('Type your username ada_l to confirm'),
    deleteButton: within(dialog).getByRole('button', { name: 'Delete' }),
  };
}

describe('delete account dialog', () => {
  it('keeps Delete disabled until the username is typed out (any case)', async () => {
    const calls = mockAccount();
    const { user, password, username, deleteButton } = await openDialog();

    expect(password).toHaveFocus();
    expect(password).toHaveAttribute('autocomplete', 'current-password');
    expect(deleteButton).toBeDisabled();

    await user.type(password, 'my-password-1');
    await user.type(username, 'ada');
    expect(deleteButton).toBeDisabled();
    await user.type(username, '_');
    expect(deleteButton).toBeDisabled();
    await user.type(username, 'L');
    expect(deleteButton).toBeEnabled();
    // Enter in a field does nothing while the name does not match.
    await user.type(username, 'x{Enter}');
    expect(deleteButton).toBeDisabled();
    expect(calls.filter((call) => call.path === '/api/users/me')).toEqual([]);
  });

  it('deletes, signs out on this device, and lands on the login page', async () => {
    const calls = mockAccount();
    const { user, router, password, username, deleteButton } = await openDialog();

    await user.type(password, 'my-password-1');
    await user.type(username, 'ADA_L');
    await user.click(deleteButton);

    expect(await screen.findByText('Your account has been deleted.')).toBeInTheDocument();
    await waitFor(() => {
      expect(router.state.location.pathname).toBe('/login');
    });
    expect(readStoredSession()).toBeNull();
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(calls.find((call) => call.path === '/api/users/me')).toEqual({
      method: 'DELETE',
      path: '/api/users/me',
      authorization: TOKEN,
      body: { password: 'my-password-1', username: 'ADA_L' },
    });
    // The server already ended the session: it is not logged out a second time.
    expect(calls.some((call) => call.path === '/api/auth/logout')).toBe(false);
  });

  it('shows a wrong password in the dialog and stays signed in', async () => {
    mockAccount({
      answer: { 'DELETE /api/users/me': errorAnswer(400, AccountErrors.wrongPassword) },
    });
    const { user, router, password, username, deleteButton } = await openDialog();

    await user.type(password, 'not-my-password');
    await user.type(username, 'ada_l');
    await user.click(deleteButton);

    await waitFor(() => {
      expect(password).toHaveAccessibleDescription(AccountErrors.wrongPassword);
    });
    expect(password).toHaveFocus();
    expect(router.state.location.pathname).toBe('/settings');
    expect(readStoredSession()).not.toBeNull();
  });

  it('asks for the password before calling the server', async () => {
    const calls = mockAccount();
    const { user, password, username, deleteButton } = await openDialog();

    await user.type(username, 'ada_l');
    await user.click(deleteButton);

    expect(password).toHaveAccessibleDescription('Password is required.');
    expect(calls.filter((call) => call.path === '/api/users/me')).toEqual([]);
  });

  it('closes with Cancel and gives focus back', async () => {
    mockAccount();
    const { user, dialog, opener } = await openDialog();
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(opener).toHaveFocus();
  });
});

describe('usernameMatches', () => {
  it('ignores case and surrounding spaces only', () => {
    expect(usernameMatches(' Ada_L ', 'ada_l')).toBe(true);
    expect(usernameMatches('ada_', 'ada_l')).toBe(false);
    expect(usernameMatches('', 'ada_l')).toBe(false);
  });
});
