import { AccountErrors, PASSWORD_MISMATCH } from '@perch/contract';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderApp } from '../../test/renderApp';
import { errorAnswer, mockAccount, signInAsAda, TOKEN } from './settings.mocks';

async function openPasswordForm() {
  signInAsAda();
  const view = renderApp('/settings');
  const region = await screen.findByRole('region', { name: 'Password' });
  const field = (label: string) => within(region).getByLabelText(label);
  return { ...view, region, field };
}

describe('password form', () => {
  it('labels its fields for password managers', async () => {
    mockAccount();
    const { field } = await openPasswordForm();
    expect(field('Current password')).toHaveAttribute('autocomplete', 'current-password');
    expect(field('Current password')).toHaveAttribute('type', 'password');
    expect(field('New password')).toHaveAttribute('autocomplete', 'new-password');
    expect(field('Confirm new password')).toHaveAttribute('autocomplete', 'new-password');
  });

  it('checks the fields with the contract rules before asking the server', async () => {
    const calls = mockAccount();
    const { user, region, field } = await openPasswordForm();
    const submit = within(region).getByRole('button', { name: 'Change password' });

    await user.click(submit);
    expect(field('Current password')).toHaveAccessibleDescription('Current password is required.');
    expect(field('Current password')).toHaveAttribute('aria-invalid', 'true');
    expect(field('Current password')).toHaveFocus();
    expect(field('New password')).toHaveAccessibleDescription(
      'Password must be at least 8 characters.',
    );

    await user.type(field('Current password'), 'old-password-1');
    expect(field('Current password')).not.toHaveAttribute('aria-invalid');
    await user.type(field('New password'), 'new-password-1');
    await user.type(field('Confirm new password'), 'new-password-2');
    await user.click(submit);

    expect(field('Confirm new password')).toHaveAccessibleDescription(PASSWORD_MISMATCH);
    expect(field('Confirm new password')).toHaveFocus();
    expect(calls.filter((call) => call.path === '/api/auth/password')).toEqual([]);
  });

  it("shows the server's refusal beside the field it is about", async () => {
    const calls = mockAccount({
      answer: { 'POST /api/auth/password': errorAnswer(400, AccountErrors.wrongPassword) },
    });
    const { user, region, field } = await openPasswordForm();

    await user.type(field('Current password'), 'not-my-password');
    await user.type(field('New password'), 'new-password-1');
    await user.type(field('Confirm new password'), 'new-password-1');
    await user.click(within(region).getByRole('button', { name: 'Change password' }));

    await waitFor(() => {
      expect(field('Current password')).toHaveAccessibleDescription(AccountErrors.wrongPassword);
    });
    expect(field('Current password')).toHaveFocus();
    // Nothing typed is lost.
    expect(field('New password')).toHaveValue('new-password-1');
    expect(calls.find((call) => call.path === '/api/auth/password')).toMatchObject({
      method: 'POST',
      authorization: TOKEN,
      body: {
        currentPassword: 'not-my-password',
        newPassword: 'new-password-1',
        confirmPassword: 'new-password-1',
      },
    });
  });

  it('shows a message no field owns above the button', async () => {
    mockAccount({
      answer: { 'POST /api/auth/password': errorAnswer(429, 'Too many attempts. Slow down.') },
    });
    const { user, region, field } = await openPasswordForm();

    await user.type(field('Current password'), 'old-password-1');
    await user.type(field('New password'), 'new-password-1');
    await user.type(field('Confirm new password'), 'new-password-1');
    await user.click(within(region).getByRole('button', { name: 'Change password' }));

    expect(await within(region).findByRole('alert')).toHaveTextContent(
      'Too many attempts. Slow down.',
    );
  });

  it('says the other devices were signed out, clears the form and reloads the devices', async () => {
    const calls = mockAccount();
    const { user, region, field } = await openPasswordForm();
    await screen.findByText('Safari on iOS');

    await user.type(field('Current password'), 'old-password-1');
    await user.type(field('New password'), 'new-password-1');
    await user.type(field('Confirm new password'), 'new-password-1');
    await user.click(within(region).getByRole('button', { name: 'Change password' }));

    expect(
      await screen.findByText('Password changed. Other devices were signed out.'),
    ).toBeInTheDocument();
    expect(field('Current password')).toHaveValue('');
    expect(field('New password')).toHaveValue('');
    expect(field('Confirm new password')).toHaveValue('');
    await waitFor(() => {
      expect(calls.filter((call) => call.path === '/api/auth/sessions')).toHaveLength(2);
    });
  });
});
