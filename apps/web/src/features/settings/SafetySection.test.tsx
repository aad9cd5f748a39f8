import { SafetyToasts, type User } from '@perch/contract';
import { screen, waitFor, within } from '@testing-library/react';
import { delay, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { makeUser } from '../../test/fixtures';
import { renderApp } from '../../test/renderApp';
import { errorAnswer, mockSafety } from '../../entities/safety/safety.mocks';
import { SAFETY_PAGE_SIZE } from '../../entities/safety/safety.queries';
import { mockAccount, signInAsAda, TOKEN } from './settings.mocks';

const grace = makeUser({
  _id: 'u-grace',
  id: 'u-grace',
  username: 'grace_h',
  firstName: 'Grace',
  lastName: 'Hopper',
});
const alan = makeUser({
  _id: 'u-alan',
  id: 'u-alan',
  username: 'alan',
  firstName: 'Alan',
  lastName: 'Turing',
});

function member(index: number): User {
  const id = `u-member-${String(index)}`;
  return makeUser({
    _id: id,
    id,
    username: `member_${String(index)}`,
    firstName: 'Member',
    lastName: String(index),
  });
}

async function openSection() {
  signInAsAda();
  mockAccount();
  const view = renderApp('/settings');
  const section = await screen.findByRole('region', { name: 'Blocked and muted' });
  return {
    ...view,
    section,
    blocked: within(section).getByRole('region', { name: 'Blocked' }),
    muted: within(section).getByRole('region', { name: 'Muted' }),
  };
}

describe('blocked and muted members', () => {
  it('lists whom the member blocked and muted, each linking to their profile', async () => {
    mockSafety({ blocked: [grace, alan], muted: [] });
    const { blocked, muted } = await openSection();

    const list = await within(blocked).findByRole('list', { name: 'Blocked members' });
    const rows = within(list).getAllByRole('listitem');
    expect(rows).toHaveLength(2);
    const [first] = rows;
    if (!first) throw new Error('A row expected.');
    expect(within(first).getByRole('link', { name: /Grace Hopper/ })).toHaveAttribute(
      'href',
      '/profile/grace_h',
    );
    expect(first).toHaveTextContent('@grace_h');
    expect(first.querySelector('img')).toBeInTheDocument();
    expect(within(first).getByRole('button', { name: 'Unblock @grace_h' })).toHaveTextContent(
      'Unblock',
    );
    expect(await within(muted).findByText('You have not muted anyone.')).toBeInTheDocument();
  });

  it('unblocks: the right call, a toast, the row goes and focus stays in the list', async () => {
    const calls = mockSafety({ blocked: [grace] });
    const { user, blocked } = await openSection();

    await user.click(await within(blocked).findByRole('button', { name: 'Unblock @grace_h' }));

    expect(await screen.findByText(SafetyToasts.unblocked('grace_h'))).toBeInTheDocument();
    expect(await within(blocked).findByText('You have not blocked anyone.')).toBeInTheDocument();
    expect(within(blocked).getByRole('heading', { name: 'Blocked' })).toHaveFocus();
    expect(calls.find((call) => call.method === 'POST')).toEqual({
      method: 'POST',
      path: '/api/users/unblock/u-grace',
      authorization: TOKEN,
    });
  });

  it('unmutes from the muted list', async () => {
    const calls = mockSafety({ muted: [alan, grace] });
    const { user, muted } = await openSection();

    await user.click(await within(muted).findByRole('button', { name: 'Unmute @alan' }));

    expect(await screen.findByText(SafetyToasts.unmuted('alan'))).toBeInTheDocument();
    await waitFor(() => {
      expect(within(muted).getAllByRole('listitem')).toHaveLength(1);
    });
    expect(within(muted).getByText('@grace_h')).toBeInTheDocument();
    expect(calls.some((call) => call.path === '/api/users/unmute/u-alan')).toBe(true);
  });

  it('keeps the row and says why when the server refuses', async () => {
    mockSafety({
      blocked: [grace],
      answer: { 'POST /api/users/unblock/u-grace': errorAnswer(500, 'Something went wrong') },
    });
    const { user, blocked } = await openSection();

    await user.click(await within(blocked).findByRole('button', { name: 'Unblock @grace_h' }));

    expect(await screen.findByText('Something went wrong')).toBeInTheDocument();
    expect(within(blocked).getByText('@grace_h')).toBeInTheDocument();
  });

  it('shows more members page by page', async () => {
    const many = Array.from({ length: SAFETY_PAGE_SIZE + 3 }, (_, index) => member(index));
    mockSafety({ blocked: many });
    const { user, blocked } = await openSection();

    const list = await within(blocked).findByRole('list', { name: 'Blocked members' });
    expect(within(list).getAllByRole('listitem')).toHaveLength(SAFETY_PAGE_SIZE);
    await user.click(within(blocked).getByRole('button', { name: 'Show more' }));

    await waitFor(() => {
      expect(within(list).getAllByRole('listitem')).toHaveLength(SAFETY_PAGE_SIZE + 3);
    });
    expect(within(blocked).queryByRole('button', { name: 'Show more' })).not.toBeInTheDocument();
  });

  it('says it is loading, and offers Retry when a list cannot be loaded', async () => {
    let fail = true;
    mockSafety({
      muted: [grace],
      answer: {
        'GET /api/users/me/blocked': async () => {
          await delay(50);
          return HttpResponse.json({ users: [], nextCursor: null });
        },
        'GET /api/users/me/muted': () =>
          fail
            ? HttpResponse.json({ errors: ['Too many requests'] }, { status: 429 })
            : HttpResponse.json({ users: [grace], nextCursor: null }),
      },
    });
    const { user, blocked, muted } = await openSection();

    expect(within(blocked).getByRole('status')).toHaveTextContent('Loading blocked members…');
    expect(await within(blocked).findByText('You have not blocked anyone.')).toBeInTheDocument();
    expect(await within(muted).findByRole('alert')).toHaveTextContent(
      'Muted members could not be loaded.',
    );
    fail = false;
    await user.click(within(muted).getByRole('button', { name: 'Retry' }));

    expect(await within(muted).findByText('@grace_h')).toBeInTheDocument();
    expect(within(muted).queryByRole('alert')).not.toBeInTheDocument();
  });
});
