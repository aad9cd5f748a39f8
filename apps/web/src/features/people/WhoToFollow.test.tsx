import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { readStoredSession } from '../../test/fixtures';
import { renderApp } from '../../test/renderApp';
import {
  alan,
  grace,
  linus,
  mockDirectory,
  profileCount,
  signIn,
  TOKEN,
  viewer,
} from '../../entities/member/users.mocks';

function whoToFollow() {
  return screen.getByRole('region', { name: 'Who to follow?' });
}

async function suggestedNames(): Promise<string[]> {
  const list = await within(whoToFollow()).findByRole('list');
  return within(list)
    .getAllByRole('link')
    .map((link) => link.textContent);
}

describe('who to follow', () => {
  it('shows 4 skeleton rows with Follow buttons while loading', async () => {
    signIn();
    mockDirectory({ suggestionsDelay: 'infinite' });
    renderApp('/profile/ada');

    const region = whoToFollow();
    expect(within(region).getByRole('status')).toHaveTextContent('Loading suggestions');
    const rows = within(region).getAllByRole('listitem', { hidden: true });
    expect(rows).toHaveLength(4);
    for (const row of rows) {
      expect(within(row).getByRole('button', { name: 'Follow', hidden: true })).toBeDisabled();
    }
    // Nothing to reach with the keyboard or a screen reader until the members arrive.
    expect(within(region).queryByRole('button')).not.toBeInTheDocument();
  });

  it('lists members not followed yet, most followed first', async () => {
    signIn();
    mockDirectory();
    renderApp('/profile/ada');

    expect(await suggestedNames()).toEqual(['Grace Hopper@grace_h', 'Alan Turing@alan']);
    expect(within(whoToFollow()).getAllByRole('button', { name: 'Follow' })).toHaveLength(2);
    expect(within(whoToFollow()).queryByText(/Linus/)).not.toBeInTheDocument();
  });

  it('takes a followed member out of the list at once and counts the follow', async () => {
    signIn();
    const received = mockDirectory();
    const { user, router } = renderApp('/profile/ada');
    await suggestedNames();
    const graceRow = within(whoToFollow()).getByText('Grace Hopper').closest('li');
    expect(graceRow).not.toBeNull();

    await user.click(within(graceRow as HTMLElement).getByRole('button', { name: 'Follow' }));

    // Optimistic: gone before the server answers.
    await waitFor(() => {
      expect(within(whoToFollow()).queryByText('Grace Hopper')).not.toBeInTheDocument();
    });
    expect(await screen.findByText('Followed @grace_h')).toBeInTheDocument();
    expect(received.follows).toEqual([{ userId: grace._id, follow: true }]);
    expect(router.state.location.pathname).toBe('/profile/ada');

    // The list is asked again, and the followed member stays out of it.
    await waitFor(() => {
      expect(received.suggestionCalls).toBe(2);
    });
    expect(await suggestedNames()).toEqual(['Alan Turing@alan']);
    // The viewer's own following count, in the session and on their profile.
    expect(readStoredSession()).toMatchObject({ token: TOKEN, user: { followingCount: 2 } });
    await waitFor(() => {
      expect(profileCount('Following')).toBe('2');
    });
  });

  it('puts the member back and says so when the follow fails', async () => {
    signIn();
    mockDirectory({ followStatus: 500 });
    const { user } = renderApp('/profile/ada');
    await suggestedNames();

    const [firstFollow] = within(whoToFollow()).getAllByRole('button', { name: 'Follow' });
    if (firstFollow === undefined) throw new Error('No Follow button');
    await user.click(firstFollow);
    await waitFor(() => {
      expect(within(whoToFollow()).queryByText('Grace Hopper')).not.toBeInTheDocument();
    });

    expect(await screen.findByText('Something went wrong')).toBeInTheDocument();
    expect(await suggestedNames()).toEqual(['Grace Hopper@grace_h', 'Alan Turing@alan']);
    expect(readStoredSession()).toMatchObject({
      user: { followingCount: viewer.followingCount },
    });
  });

  it('opens the profile when the row is clicked', async () => {
    signIn();
    mockDirectory({ members: [alan, linus] });
    const { user, router } = renderApp('/profile/ada');
    await suggestedNames();

    await user.click(within(whoToFollow()).getByRole('link', { name: /Alan Turing/ }));

    await waitFor(() => {
      expect(router.state.location.pathname).toBe('/profile/alan');
    });
    expect(
      await screen.findByRole('heading', { level: 1, name: 'Alan Turing' }),
    ).toBeInTheDocument();
  });
});
