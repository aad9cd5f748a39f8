import { screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { renderApp } from '../../test/renderApp';
import { server } from '../../test/server';
import { mockDirectory, signIn } from '../../entities/member/users.mocks';

function setup() {
  signIn();
  const received = mockDirectory();
  const app = renderApp('/profile/ada');
  const panel = screen.getByRole('complementary', { name: 'Search and suggestions' });
  const box = within(panel).getByRole('combobox', { name: 'Search users' });
  return { ...app, received, panel, box };
}

describe('member search', () => {
  it('has the placeholder and shows no dropdown while the box is empty', async () => {
    const { user, box, received } = setup();
    expect(box).toHaveAttribute('placeholder', 'Search...');

    await user.click(box);
    await user.type(box, '   ');
    // Longer than the debounce: still nothing to show and nothing asked.
    await new Promise((resolve) => setTimeout(resolve, 300));

    expect(screen.queryByRole('listbox')).not.toBeInTheDocument();
    expect(screen.queryByText('User not found!')).not.toBeInTheDocument();
    expect(box).toHaveAttribute('aria-expanded', 'false');
    expect(received.searches).toEqual([]);
  });

  it("says 'User not found!' when nobody matches", async () => {
    const { user, box } = setup();
    await user.type(box, 'zzz');

    expect(await screen.findByText('User not found!')).toBeInTheDocument();
    expect(screen.queryByRole('listbox')).not.toBeInTheDocument();
  });

  it('lists matching members, asking the server once the typing pauses', async () => {
    const { user, box, received } = setup();
    await user.type(box, 'HOP');

    const listbox = await screen.findByRole('listbox', { name: 'Matching users' });
    const options = within(listbox).getAllByRole('option');
    expect(options).toHaveLength(1);
    expect(options[0]).toHaveTextContent('Grace Hopper');
    expect(options[0]).toHaveTextContent('@grace_h');
    expect(box).toHaveAttribute('aria-expanded', 'true');
    expect(received.searches).toEqual(['HOP']);
  });

  it('opens a profile with the arrow keys and Enter, then clears the box', async () => {
    const { user, box, router } = setup();
    await user.type(box, 'a');
    const listbox = await screen.findByRole('listbox');
    const options = within(listbox).getAllByRole('option');
    expect(options.map((option) => option.textContent)).toEqual([
      'Ada Lovelace@ada',
      'Grace Hopper@grace_h',
      'Alan Turing@alan',
      'Linus Torvalds@linus',
    ]);

    await user.keyboard('{ArrowDown}{ArrowDown}');
    expect(options[1]).toHaveAttribute('aria-selected', 'true');
    expect(box).toHaveAttribute('aria-activedescendant', options[1]?.id);
    await user.keyboard('{ArrowUp}{ArrowUp}');
    // Wraps round to the last match.
    expect(options[3]).toHaveAttribute('aria-selected', 'true');
    await user.keyboard('{Enter}');

    await waitFor(() => {
      expect(router.state.location.pathname).toBe('/profile/linus');
    });
    expect(box).toHaveValue('');
    expect(screen.queryByRole('listbox')).not.toBeInTheDocument();
  });

  it('opens the search page for the text on Enter when no match is picked', async () => {
    const { user, box, router } = setup();
    server.use(
      http.get('/api/search/posts', () => HttpResponse.json({ posts: [], nextCursor: null })),
    );
    await user.type(box, 'grace');
    await screen.findByRole('listbox');

    await user.keyboard('{Enter}');

    await waitFor(() => {
      expect(router.state.location.pathname).toBe('/search');
    });
    expect(router.state.location.search).toBe('?q=grace');
    expect(box).toHaveValue('');
    expect(await screen.findByRole('searchbox', { name: 'Search' })).toHaveValue('grace');
  });

  it('opens a profile on click', async () => {
    const { user, box, router } = setup();
    await user.type(box, 'grace');
    await user.click(await screen.findByRole('option', { name: /Grace Hopper/ }));

    await waitFor(() => {
      expect(router.state.location.pathname).toBe('/profile/grace_h');
    });
  });

  it('closes on Escape and on a click elsewhere', async () => {
    const { user, box } = setup();
    await user.type(box, 'grace');
    await screen.findByRole('listbox');

    await user.keyboard('{Escape}');
    expect(screen.queryByRole('listbox')).not.toBeInTheDocument();
    expect(box).toHaveValue('grace');

    await user.keyboard('{ArrowDown}');
    expect(await screen.findByRole('listbox')).toBeInTheDocument();

    await user.click(screen.getByRole('heading', { name: 'Who to follow?' }));
    expect(screen.queryByRole('listbox')).not.toBeInTheDocument();
  });
});
