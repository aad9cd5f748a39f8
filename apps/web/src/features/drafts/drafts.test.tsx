import type { Post } from '@perch/contract';
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderApp } from '../../test/renderApp';
import { json, makePost, me, mockFeeds, signInAsMe } from '../../entities/post/posts.mocks';
import { server } from '../../test/server';
import { http } from 'msw';
import { listDrafts, readDraft, editDraftId } from './draftStore';

const composerText = () =>
  within(screen.getByRole('region', { name: 'New post' })).getByRole('textbox', {
    name: 'Post text',
  });

/** Waits until the drafts kept for `me` hold exactly these texts, newest first. */
async function keptTexts(expected: string[]) {
  await waitFor(async () => {
    expect((await listDrafts(me._id)).map((draft) => draft.text)).toEqual(expected);
  });
}

describe('drafts of the new-post box', () => {
  it('keeps what is typed, brings it back, and forgets it once posted', async () => {
    signInAsMe();
    mockFeeds();
    const first = renderApp('/');
    await first.user.type(await screen.findByPlaceholderText("What's is in your mind?"), 'Half');
    await keptTexts(['Half']);

    // The page goes away and comes back.
    first.unmount();
    cleanup();
    const second = renderApp('/');
    await waitFor(() => {
      expect(composerText()).toHaveValue('Half');
    });

    server.use(
      http.post('/api/posts', () =>
        json({ post: makePost({ content: 'Half written', userId: me._id }) }, 201),
      ),
    );
    await second.user.type(composerText(), ' written');
    await second.user.click(screen.getByRole('button', { name: 'Post' }));
    await waitFor(() => {
      expect(composerText()).toHaveValue('');
    });
    await keptTexts([]);
  });

  it('keeps the content warning with the text', async () => {
    signInAsMe();
    mockFeeds();
    const first = renderApp('/');
    const box = () => screen.getByRole('region', { name: 'New post' });
    await first.user.type(await screen.findByPlaceholderText("What's is in your mind?"), 'Plot');
    await first.user.click(within(box()).getByRole('button', { name: 'Content warning' }));
    await first.user.type(
      within(box()).getByRole('textbox', { name: 'Content warning' }),
      'Spoilers',
    );
    await waitFor(async () => {
      expect((await listDrafts(me._id))[0]).toMatchObject({
        text: 'Plot',
        contentWarning: 'Spoilers',
        sensitive: false,
      });
    });

    first.unmount();
    cleanup();
    renderApp('/');
    await waitFor(() => {
      expect(composerText()).toHaveValue('Plot');
    });
    expect(within(box()).getByRole('textbox', { name: 'Content warning' })).toHaveValue('Spoilers');
    expect(within(box()).getByRole('button', { name: 'Content warning' })).toHaveAttribute(
      'aria-pressed',
      'true',
    );
  });

  it('keeps the poll being written, options and choice, with the text', async () => {
    signInAsMe();
    mockFeeds();
    const first = renderApp('/');
    const box = () => screen.getByRole('region', { name: 'New post' });
    await first.user.type(await screen.findByPlaceholderText("What's is in your mind?"), 'Lunch?');
    await first.user.click(within(box()).getByRole('button', { name: 'Poll' }));
    const poll = () => within(box()).getByRole('group', { name: 'Poll' });
    await first.user.type(within(poll()).getByLabelText('Option 1'), 'Soup');
    await first.user.type(within(poll()).getByLabelText('Option 2'), 'Salad');
    await first.user.click(within(poll()).getByRole('switch', { name: 'Multiple choice' }));
    await waitFor(async () => {
      expect((await listDrafts(me._id))[0]).toMatchObject({
        text: 'Lunch?',
        poll: { options: ['Soup', 'Salad'], multiple: true },
      });
    });

    first.unmount();
    cleanup();
    renderApp('/');
    await waitFor(() => {
      expect(composerText()).toHaveValue('Lunch?');
    });
    expect(within(poll()).getByLabelText('Option 1')).toHaveValue('Soup');
    expect(within(poll()).getByLabelText('Option 2')).toHaveValue('Salad');
    expect(within(poll()).getByRole('switch', { name: 'Multiple choice' })).toBeChecked();
  });

  it('keeps several drafts: start another, switch back, delete one', async () => {
    signInAsMe();
    mockFeeds();
    const { user } = renderApp('/');
    await user.type(await screen.findByPlaceholderText("What's is in your mind?"), 'First idea');
    await keptTexts(['First idea']);

    await user.click(await screen.findByRole('button', { name: 'Drafts (1)' }));
    await user.click(screen.getByRole('button', { name: 'New draft' }));
    expect(composerText()).toHaveValue('');
    await user.type(composerText(), 'Second idea');
    await keptTexts(['Second idea', 'First idea']);

    await user.click(await screen.findByRole('button', { name: 'Drafts (2)' }));
    const list = screen.getByRole('group', { name: 'Drafts' });
    expect(within(list).getByRole('button', { name: /^Second idea/ })).toHaveAttribute(
      'aria-current',
      'true',
    );
    await user.click(within(list).getByRole('button', { name: /^First idea/ }));
    expect(composerText()).toHaveValue('First idea');

    await user.click(await screen.findByRole('button', { name: 'Drafts (2)' }));
    await user.click(screen.getByRole('button', { name: 'Delete draft: Second idea' }));
    await keptTexts(['First idea']);
    expect(composerText()).toHaveValue('First idea');

    // Escape closes the list and gives focus back to its button.
    await user.click(await screen.findByRole('button', { name: 'Drafts (1)' }));
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('group', { name: 'Drafts' })).toBeNull();
    expect(screen.getByRole('button', { name: 'Drafts (1)' })).toHaveFocus();
  });

  it("keeps one member's drafts from another", async () => {
    signInAsMe();
    mockFeeds();
    const { user } = renderApp('/');
    await user.type(await screen.findByPlaceholderText("What's is in your mind?"), 'Mine only');
    await keptTexts(['Mine only']);
    expect(await listDrafts('someone-else')).toEqual([]);
  });
});

describe('drafts of Edit Post', () => {
  const post: Post = makePost({
    content: 'Old words',
    author: {
      _id: me._id,
      id: me._id,
      username: me.username,
      firstName: me.firstName,
      lastName: me.lastName,
      avatarURL: null,
    },
    userId: me._id,
    username: me.username,
  });

  async function openEditor(user: ReturnType<typeof renderApp>['user']) {
    const [card] = await screen.findAllByTestId('post-card');
    if (!card) throw new Error('No post card.');
    await user.click(within(card).getByRole('button', { name: 'Post menu' }));
    await user.click(screen.getByRole('menuitem', { name: 'Edit' }));
    const dialog = screen.getByRole('dialog', { name: 'Edit Post' });
    return within(dialog).getByRole('textbox', { name: 'Post text' });
  }

  it('brings unsaved changes back after the dialog is closed, and Cancel forgets them', async () => {
    signInAsMe();
    mockFeeds({ home: [post] });
    const { user } = renderApp('/');
    let text = await openEditor(user);
    await user.type(text, ' and new ones');
    await waitFor(async () => {
      expect((await readDraft(editDraftId(me._id, post._id)))?.text).toBe('Old words and new ones');
    });
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('dialog', { name: 'Edit Post' })).toBeNull();

    text = await openEditor(user);
    await waitFor(() => {
      expect(text).toHaveValue('Old words and new ones');
    });
    await user.click(screen.getByRole('button', { name: 'Cancel' }));
    await waitFor(async () => {
      expect(await readDraft(editDraftId(me._id, post._id))).toBeUndefined();
    });
    text = await openEditor(user);
    expect(text).toHaveValue('Old words');
    // The new-post box's drafts are a list of their own.
    expect(await listDrafts(me._id)).toEqual([]);
  });
});
