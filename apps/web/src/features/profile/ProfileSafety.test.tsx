import { SafetyToasts } from '@perch/contract';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderApp } from '../../test/renderApp';
import { errorAnswer, mockSafety } from '../../entities/safety/safety.mocks';
import { grace, linus, mockDirectory, signIn, TOKEN } from '../../entities/member/users.mocks';

function profileCard() {
  return screen.getByRole('article', { name: 'Profile' });
}

async function openProfile(username: string) {
  const view = renderApp(`/profile/${username}`);
  const card = await screen.findByRole('article', { name: 'Profile' });
  return { ...view, card, more: within(card).getByRole('button', { name: 'More' }) };
}

const postCalls = (calls: { path: string }[], username: string) =>
  calls.filter((call) => call.path === `/api/posts/user/${username}`);

describe('the More menu of a profile', () => {
  it('opens from the keyboard, moves with the arrows and closes on Escape', async () => {
    signIn();
    mockDirectory();
    mockSafety({ profiles: [grace] });
    const { user, more } = await openProfile('grace_h');
    expect(more).toHaveAttribute('aria-haspopup', 'menu');

    more.focus();
    await user.keyboard('{ArrowDown}');
    const menu = screen.getByRole('menu', { name: 'More' });
    const items = within(menu).getAllByRole('menuitem');
    expect(items.map((item) => item.textContent)).toEqual(['Mute @grace_h', 'Block @grace_h']);
    expect(items[0]).toHaveFocus();
    await user.keyboard('{ArrowDown}');
    expect(items[1]).toHaveFocus();
    await user.keyboard('{Escape}');

    expect(screen.queryByRole('menu')).not.toBeInTheDocument();
    expect(more).toHaveFocus();
  });

  it('is not on the own profile', async () => {
    signIn();
    mockDirectory();
    renderApp('/profile/ada');
    const card = await screen.findByRole('article', { name: 'Profile' });
    expect(within(card).queryByRole('button', { name: 'More' })).not.toBeInTheDocument();
  });
});

describe('blocking from a profile', () => {
  it('asks first, explaining what a block does; Cancel blocks nobody', async () => {
    signIn();
    mockDirectory();
    const calls = mockSafety({ profiles: [grace] });
    const { user, more } = await openProfile('grace_h');

    await user.click(more);
    await user.click(screen.getByRole('menuitem', { name: 'Block @grace_h' }));

    const dialog = screen.getByRole('dialog', { name: 'Block @grace_h?' });
    expect(dialog).toHaveTextContent(
      "They can't see your posts or your profile, and you won't see theirs.",
    );
    expect(dialog).toHaveTextContent('Follows between you end');
    const cancel = within(dialog).getByRole('button', { name: 'Cancel' });
    expect(cancel).toHaveFocus();
    await user.click(cancel);

    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(more).toHaveFocus();
    expect(calls.filter((call) => call.method === 'POST')).toEqual([]);
  });

  it('blocks: a toast, the notice instead of the posts, no Follow, and Unblock in the menu', async () => {
    signIn();
    mockDirectory();
    const calls = mockSafety({ profiles: [linus] });
    const { user, more, card } = await openProfile('linus');
    expect(within(card).getByRole('button', { name: 'Unfollow' })).toBeInTheDocument();
    await waitFor(() => {
      expect(postCalls(calls, 'linus')).toHaveLength(1);
    });

    await user.click(more);
    await user.click(screen.getByRole('menuitem', { name: 'Block @linus' }));
    const dialog = screen.getByRole('dialog', { name: 'Block @linus?' });
    await user.click(within(dialog).getByRole('button', { name: 'Block' }));

    expect(await screen.findByText(SafetyToasts.blocked('linus'))).toBeInTheDocument();
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(calls.find((call) => call.method === 'POST')).toEqual({
      method: 'POST',
      path: '/api/users/block/u-linus',
      authorization: TOKEN,
    });
    expect(
      screen.getByRole('heading', { level: 2, name: 'You blocked @linus' }),
    ).toBeInTheDocument();
    expect(screen.queryByRole('heading', { name: 'Posts' })).not.toBeInTheDocument();
    expect(within(card).queryByRole('button', { name: /Follow/ })).not.toBeInTheDocument();
    // Their posts are not fetched again once blocked.
    expect(postCalls(calls, 'linus')).toHaveLength(1);

    await user.click(more);
    expect(screen.getByRole('menuitem', { name: 'Unblock @linus' })).toBeInTheDocument();
  });

  it('says so and keeps the dialog when the block fails', async () => {
    signIn();
    mockDirectory();
    mockSafety({
      profiles: [grace],
      answer: { 'POST /api/users/block/u-grace': errorAnswer(500, 'Something went wrong') },
    });
    const { user, more } = await openProfile('grace_h');

    await user.click(more);
    await user.click(screen.getByRole('menuitem', { name: 'Block @grace_h' }));
    const dialog = screen.getByRole('dialog', { name: 'Block @grace_h?' });
    await user.click(within(dialog).getByRole('button', { name: 'Block' }));

    expect(await screen.findByText('Something went wrong')).toBeInTheDocument();
    expect(screen.getByRole('dialog', { name: 'Block @grace_h?' })).toBeInTheDocument();
    expect(screen.queryByText('You blocked @grace_h')).not.toBeInTheDocument();
  });
});

describe('a profile the viewer blocked', () => {
  it('shows the notice without fetching their posts, and unblocks from it', async () => {
    signIn();
    mockDirectory();
    const calls = mockSafety({ profiles: [grace], blocked: [grace] });
    const { user, card } = await openProfile('grace_h');

    const notice = screen.getByRole('region', { name: 'You blocked @grace_h' });
    expect(within(card).queryByRole('button', { name: 'Follow' })).not.toBeInTheDocument();
    expect(screen.queryByRole('heading', { name: 'Posts' })).not.toBeInTheDocument();
    expect(postCalls(calls, 'grace_h')).toEqual([]);

    await user.click(within(notice).getByRole('button', { name: 'Unblock' }));

    expect(await screen.findByText(SafetyToasts.unblocked('grace_h'))).toBeInTheDocument();
    expect(await screen.findByRole('heading', { name: 'Posts' })).toBeInTheDocument();
    expect(within(profileCard()).getByRole('button', { name: 'Follow' })).toBeInTheDocument();
    expect(calls.some((call) => call.path === '/api/users/unblock/u-grace')).toBe(true);
    await waitFor(() => {
      expect(postCalls(calls, 'grace_h')).toHaveLength(1);
    });
  });
});

describe('muting from a profile', () => {
  it('mutes with a toast and a Muted note, and unmutes from the menu', async () => {
    signIn();
    mockDirectory();
    const calls = mockSafety({ profiles: [grace] });
    const { user, more, card } = await openProfile('grace_h');
    expect(within(card).queryByText('Muted')).not.toBeInTheDocument();

    await user.click(more);
    await user.click(screen.getByRole('menuitem', { name: 'Mute @grace_h' }));

    expect(await screen.findByText(SafetyToasts.muted('grace_h'))).toBeInTheDocument();
    expect(within(card).getByText('Muted')).toBeInTheDocument();
    // Muting hides nothing on the profile itself: Follow and the posts stay.
    expect(within(card).getByRole('button', { name: 'Follow' })).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Posts' })).toBeInTheDocument();

    await user.click(more);
    await user.click(screen.getByRole('menuitem', { name: 'Unmute @grace_h' }));

    expect(await screen.findByText(SafetyToasts.unmuted('grace_h'))).toBeInTheDocument();
    await waitFor(() => {
      expect(within(card).queryByText('Muted')).not.toBeInTheDocument();
    });
    expect(calls.filter((call) => call.method === 'POST').map((call) => call.path)).toEqual([
      '/api/users/mute/u-grace',
      '/api/users/unmute/u-grace',
    ]);
  });
});
