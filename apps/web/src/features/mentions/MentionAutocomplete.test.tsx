import { screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { makeUser } from '../../test/fixtures';
import { renderApp } from '../../test/renderApp';
import { server } from '../../test/server';
import { json, makePost, mockFeeds, signInAsMe } from '../../entities/post/posts.mocks';

const alice = makeUser({ _id: 'u-alice', id: 'u-alice', username: 'alice', firstName: 'Alice' });
const alan = makeUser({ _id: 'u-alan', id: 'u-alan', username: 'alan', firstName: 'Alan' });

/** Members for mention lookups; returns the searches received. */
function mockMembers() {
  const searches: URLSearchParams[] = [];
  server.use(
    http.get('/api/users', ({ request }) => {
      const params = new URL(request.url).searchParams;
      searches.push(params);
      const q = (params.get('q') ?? '').toLowerCase();
      const users = [alice, alan].filter((user) => user.username.includes(q));
      return HttpResponse.json({ users, nextCursor: null });
    }),
  );
  return searches;
}

async function composerText() {
  const region = await screen.findByRole('region', { name: 'New post' });
  return within(region).getByRole('textbox', { name: 'Post text' });
}

describe('mention autocomplete', () => {
  it('offers members for "@al" and inserts the chosen one with ArrowDown and Enter', async () => {
    signInAsMe();
    mockFeeds();
    const searches = mockMembers();
    const { user } = renderApp('/');
    const text = await composerText();
    expect(text).toHaveAttribute('aria-autocomplete', 'list');
    expect(text).not.toHaveAttribute('aria-controls');

    await user.type(text, 'Hi @al');

    const listbox = await screen.findByRole('listbox', { name: 'Members to mention' });
    expect(
      within(listbox)
        .getAllByRole('option')
        .map((option) => option.textContent),
    ).toEqual(['Alice Lovelace@alice', 'Alan Lovelace@alan']);
    expect(text).toHaveAttribute('aria-controls', listbox.id);
    expect(searches.map((params) => [params.get('q'), params.get('limit')])).toEqual([['al', '6']]);

    await user.keyboard('{ArrowDown}');
    const [first] = within(listbox).getAllByRole('option');
    expect(first).toHaveAttribute('aria-selected', 'true');
    expect(text).toHaveAttribute('aria-activedescendant', first?.id);

    await user.keyboard('{Enter}');

    expect(text).toHaveValue('Hi @alice ');
    expect(screen.queryByRole('listbox')).not.toBeInTheDocument();
    expect(text).not.toHaveAttribute('aria-controls');
    expect((text as HTMLTextAreaElement).selectionStart).toBe('Hi @alice '.length);
  });

  it('moves up from the end, inserts with Tab, and takes a click too', async () => {
    signInAsMe();
    mockFeeds();
    mockMembers();
    const { user } = renderApp('/');
    const text = await composerText();

    await user.type(text, '@a');
    const listbox = await screen.findByRole('listbox', { name: 'Members to mention' });
    await user.keyboard('{ArrowUp}');
    expect(within(listbox).getByRole('option', { name: /@alan/ })).toHaveAttribute(
      'aria-selected',
      'true',
    );
    await user.keyboard('{Tab}');
    expect(text).toHaveValue('@alan ');
    expect(text).toHaveFocus();

    await user.type(text, 'and @ali');
    await user.click(await screen.findByRole('option', { name: /@alice/ }));
    expect(text).toHaveValue('@alan and @alice ');
  });

  it('closes on Escape without closing the Create Post dialog', async () => {
    signInAsMe();
    mockFeeds();
    mockMembers();
    const { user } = renderApp('/');
    const sidebar = await screen.findByRole('complementary', { name: 'Sidebar' });
    await user.click(within(sidebar).getByRole('button', { name: 'Create a new Post' }));
    const dialog = screen.getByRole('dialog', { name: 'Create Post' });
    const text = within(dialog).getByRole('textbox', { name: 'Post text' });

    await user.type(text, '@al');
    await within(dialog).findByRole('listbox', { name: 'Members to mention' });
    await user.keyboard('{Escape}');

    expect(screen.queryByRole('listbox')).not.toBeInTheDocument();
    expect(dialog).toBeInTheDocument();
    expect(text).toHaveValue('@al');

    // Typing on offers the list again; with it closed, Escape closes the dialog.
    await user.type(text, 'i');
    await within(dialog).findByRole('listbox', { name: 'Members to mention' });
    await user.keyboard('{Escape}');
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });

  it('works in the comment box, where Enter does not send the comment while the list is open', async () => {
    signInAsMe();
    const post = makePost({ _id: 'p-1' });
    mockFeeds({ home: [post] });
    mockMembers();
    const sent: unknown[] = [];
    server.use(
      http.get('/api/comments/p-1', () => json({ comments: [], nextCursor: null })),
      http.post('/api/comments/add/p-1', async ({ request }) => {
        sent.push(await request.json());
        return json({ errors: ['Not in this test'] }, 500);
      }),
    );
    const { user } = renderApp('/');
    const [card] = await screen.findAllByTestId('post-card');
    if (!card) throw new Error('No post card.');
    await user.click(within(card).getByRole('button', { name: 'Comments' }));
    const box = within(card).getByRole('textbox', { name: 'Add a new comment' });

    await user.type(box, 'Thanks @ala');
    await within(card).findByRole('listbox', { name: 'Members to mention' });
    await user.keyboard('{ArrowDown}{Enter}');

    expect(box).toHaveValue('Thanks @alan ');
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(sent).toEqual([]);

    // With the list closed, Enter sends as ever.
    await user.keyboard('{Enter}');
    await waitFor(() => {
      expect(sent).toEqual([{ commentData: { text: 'Thanks @alan' } }]);
    });
  });
});
