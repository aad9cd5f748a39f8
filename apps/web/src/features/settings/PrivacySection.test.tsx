import { screen, waitFor, within } from '@testing-library/react';
import { delay, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { renderApp } from '../../test/renderApp';
import { privacyLabels } from './PrivacySection';
import { errorAnswer, mockAccount, signInAsAda, TOKEN } from './settings.mocks';

async function openPrivacy() {
  signInAsAda();
  const view = renderApp('/settings');
  const region = await screen.findByRole('region', { name: 'Privacy' });
  const publicProfile = await within(region).findByRole('switch', {
    name: privacyLabels.publicProfile,
  });
  const noindex = within(region).getByRole('switch', { name: privacyLabels.noindex });
  return { ...view, region, publicProfile, noindex };
}

const patches = (calls: ReturnType<typeof mockAccount>) =>
  calls.filter((call) => call.method === 'PATCH');

describe('privacy settings', () => {
  it('shows both settings as the server has them, labelled and explained', async () => {
    mockAccount({ privacy: { publicProfile: false, noindex: true } });
    const { publicProfile, noindex } = await openPrivacy();

    expect(publicProfile).not.toBeChecked();
    expect(noindex).toBeChecked();
    expect(screen.getByLabelText('Show my profile and posts to people who are not signed in')).toBe(
      publicProfile,
    );
    expect(screen.getByLabelText('Ask search engines not to index my profile')).toBe(noindex);
    expect(publicProfile).toHaveAccessibleDescription(/Your page at \/@ada_l/);
  });

  it('saves a change at once, sending only that setting, and says so', async () => {
    const calls = mockAccount();
    const { user, region, publicProfile, noindex } = await openPrivacy();
    expect(publicProfile).toBeChecked();
    expect(noindex).not.toBeChecked();

    await user.click(noindex);
    expect(noindex).toBeChecked();
    await waitFor(() => {
      expect(within(region).getByRole('status')).toHaveTextContent('Privacy settings saved.');
    });
    // The toast says it too, outside the section.
    await waitFor(() => {
      expect(screen.getAllByText('Privacy settings saved.')).toHaveLength(2);
    });

    await user.click(publicProfile);
    await waitFor(() => {
      expect(patches(calls)).toHaveLength(2);
    });
    expect(patches(calls).map((call) => call.body)).toEqual([
      { noindex: true },
      { publicProfile: false },
    ]);
    expect(patches(calls)[0]?.authorization).toBe(TOKEN);
    expect(publicProfile).not.toBeChecked();
    expect(noindex).toBeChecked();
  });

  it('puts a setting back and says why when the change fails', async () => {
    mockAccount({
      answer: {
        'PATCH /api/account/privacy': async () => {
          await delay(20);
          return errorAnswer(503, 'The server is busy right now; please try again.')();
        },
      },
    });
    const { user, publicProfile } = await openPrivacy();

    await user.click(publicProfile);
    // Shown at once, before the server answers.
    expect(publicProfile).not.toBeChecked();
    expect(
      await screen.findByText('The server is busy right now; please try again.'),
    ).toBeInTheDocument();
    await waitFor(() => {
      expect(publicProfile).toBeChecked();
    });
  });

  it('offers to try again when the settings cannot be loaded', async () => {
    let failing = true;
    mockAccount({
      answer: {
        'GET /api/account/privacy': () =>
          failing
            ? errorAnswer(403, 'Forbidden')()
            : HttpResponse.json({ publicProfile: true, noindex: true }),
      },
    });
    signInAsAda();
    const { user } = renderApp('/settings');
    const region = await screen.findByRole('region', { name: 'Privacy' });

    expect(await within(region).findByRole('alert')).toHaveTextContent(
      'Your privacy settings could not be loaded.',
    );
    failing = false;
    await user.click(within(region).getByRole('button', { name: 'Retry' }));
    expect(
      await within(region).findByRole('switch', { name: privacyLabels.noindex }),
    ).toBeChecked();
  });
});
