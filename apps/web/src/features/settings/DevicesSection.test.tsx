import { screen, waitFor, within } from '@testing-library/react';
import { delay, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { renderApp } from '../../test/renderApp';
import {
  errorAnswer,
  makeSession,
  mockAccount,
  phone,
  signInAsAda,
  thisDevice,
  TOKEN,
} from './settings.mocks';

async function openDevices() {
  signInAsAda();
  const view = renderApp('/settings');
  const region = await screen.findByRole('region', { name: 'Devices' });
  return { ...view, region };
}

function rows(region: HTMLElement) {
  return within(region).queryAllByTestId('device');
}

describe('devices', () => {
  it('lists the devices, this one first and marked, with readable names and times', async () => {
    mockAccount({ sessions: [phone, thisDevice] });
    const { region } = await openDevices();

    await within(region).findByRole('list', { name: 'Signed-in devices' });
    const [first, second] = rows(region);
    if (!first || !second) throw new Error('Two devices expected.');
    expect(first).toHaveTextContent('Chrome on LinuxThis device');
    expect(first).toHaveTextContent('Signed in 3 days ago · Last active 5 minutes ago');
    expect(within(first).queryByRole('button')).not.toBeInTheDocument();
    expect(second).toHaveTextContent('Safari on iOS');
    expect(second).not.toHaveTextContent('This device');
    expect(within(second).getByRole('button', { name: 'Log out of Safari on iOS' })).toBeVisible();
    expect(second.querySelector('time')).toHaveAttribute('dateTime', phone.createdAt);
  });

  it('names an app the member authorized by its own name', async () => {
    const app = makeSession({
      _id: 's-app',
      id: 's-app',
      appName: 'Toot Client',
      userAgent: 'okhttp/4',
    });
    mockAccount({ sessions: [thisDevice, app] });
    const { region } = await openDevices();
    await within(region).findByRole('list', { name: 'Signed-in devices' });
    const [, second] = rows(region);
    expect(second).toHaveTextContent('Toot Client');
    expect(second).not.toHaveTextContent('okhttp');
    expect(
      within(second ?? region).getByRole('button', { name: 'Log out of Toot Client' }),
    ).toBeVisible();
  });

  it('says it is loading, then says when no other device is signed in', async () => {
    mockAccount({
      sessions: [thisDevice],
      answer: {
        'GET /api/auth/sessions': async () => {
          await delay(50);
          return HttpResponse.json({ sessions: [thisDevice] });
        },
      },
    });
    const { region } = await openDevices();

    expect(within(region).getByRole('status')).toHaveTextContent('Loading your devices…');
    expect(
      await within(region).findByText('You are not signed in on any other device.'),
    ).toBeInTheDocument();
    expect(
      within(region).queryByRole('button', { name: 'Log out of all other devices' }),
    ).not.toBeInTheDocument();
  });

  it('says when there is no device at all', async () => {
    mockAccount({ sessions: [] });
    const { region } = await openDevices();
    expect(await within(region).findByText('No devices are signed in.')).toBeInTheDocument();
  });

  it('logs another device out: the right call, then the row goes', async () => {
    const calls = mockAccount();
    const { user, region } = await openDevices();
    const button = await within(region).findByRole('button', { name: 'Log out of Safari on iOS' });

    await user.click(button);

    await waitFor(() => {
      expect(rows(region)).toHaveLength(1);
    });
    expect(calls.find((call) => call.method === 'DELETE')).toMatchObject({
      path: '/api/auth/sessions/s-phone',
      authorization: TOKEN,
    });
    expect(within(region).queryByText('Safari on iOS')).not.toBeInTheDocument();
    expect(await screen.findByText('Device logged out.')).toBeInTheDocument();
    expect(within(region).getByRole('heading', { name: 'Devices' })).toHaveFocus();
  });

  it('says so when the server refuses to log a device out, keeping the row', async () => {
    mockAccount({
      answer: { 'DELETE /api/auth/sessions/s-phone': errorAnswer(500, 'Something went wrong') },
    });
    const { user, region } = await openDevices();

    await user.click(
      await within(region).findByRole('button', { name: 'Log out of Safari on iOS' }),
    );

    expect(await screen.findByText('Something went wrong')).toBeInTheDocument();
    expect(rows(region)).toHaveLength(2);
  });

  it('logs out of every other device at once', async () => {
    const other = { ...phone, _id: 's-other', id: 's-other' };
    const calls = mockAccount({ sessions: [thisDevice, phone, other] });
    const { user, region } = await openDevices();

    await user.click(
      await within(region).findByRole('button', { name: 'Log out of all other devices' }),
    );

    expect(await screen.findByText('Logged out of all other devices.')).toBeInTheDocument();
    expect(rows(region)).toHaveLength(1);
    expect(rows(region)[0]).toHaveTextContent('This device');
    expect(calls.find((call) => call.path === '/api/auth/logout-others')).toMatchObject({
      method: 'POST',
      authorization: TOKEN,
    });
  });

  it('offers Retry when the list cannot be loaded', async () => {
    let fail = true;
    mockAccount({
      answer: {
        'GET /api/auth/sessions': () =>
          fail
            ? HttpResponse.json({ errors: ['Forbidden'] }, { status: 403 })
            : HttpResponse.json({ sessions: [thisDevice, phone] }),
      },
    });
    const { user, region } = await openDevices();

    expect(await within(region).findByRole('alert')).toHaveTextContent(
      'Your devices could not be loaded.',
    );
    fail = false;
    await user.click(within(region).getByRole('button', { name: 'Retry' }));

    expect(await within(region).findByText('Safari on iOS')).toBeInTheDocument();
    expect(within(region).queryByRole('alert')).not.toBeInTheDocument();
  });
});
