import type { Post } from '@perch/contract';
import { screen, waitFor, within } from '@testing-library/react';
import { http } from 'msw';
import { describe, expect, it } from 'vitest';
import { renderApp } from '../../test/renderApp';
import { server } from '../../test/server';
import { json, makePost, me, mockFeeds, signInAsMe } from '../../entities/post/posts.mocks';
import { UNDO_WINDOW_MS } from '../../entities/post/undoableDelete';

function myPost(overrides: Partial<Post> = {}) {
  return makePost({
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
    ...overrides,
  });
}

async function openEditor(user: ReturnType<typeof renderApp>['user']) {
  const [card] = await screen.findAllByTestId('post-card');
  if (!card) throw new Error('No post card.');
  await user.click(within(card).getByRole('button', { name: 'Post menu' }));
  await user.click(screen.getByRole('menuitem', { name: 'Edit' }));
  return { card, dialog: screen.getByRole('dialog', { name: 'Edit Post' }) };
}

describe('Edit Post', () => {
  it('edits the text, removes the image and saves', async () => {
    signInAsMe();
    const post = myPost({ content: 'Old words', mediaURL: '/media/old.webp' });
    mockFeeds({ home: [post] });
    const edits: unknown[] = [];
    server.use(
      http.post('/api/posts/edit/:postId', async ({ request }) => {
        const body = (await request.json()) as { postData: { content: string } };
        edits.push(body);
        return json({ post: { ...post, content: body.postData.content, mediaURL: null } }, 201);
      }),
    );
    const { user } = renderApp('/');
    const { card, dialog } = await openEditor(user);

    const text = within(dialog).getByRole('textbox', { name: 'Post text' });
    expect(text).toHaveValue('Old words');
    expect(text).toHaveFocus();
    expect(within(dialog).getByRole('img', { name: 'Current image' })).toHaveAttribute(
      'src',
      '/media/old.webp',
    );
    await user.click(within(dialog).getByRole('button', { name: 'Remove image' }));
    expect(within(dialog).queryByRole('img', { name: 'Current image' })).not.toBeInTheDocument();
    await user.clear(text);
    await user.type(text, 'New words');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));

    expect(await screen.findByText('Post Edited')).toBeInTheDocument();
    await waitFor(() => {
      expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    });
    expect(within(card).getByText('New words')).toBeInTheDocument();
    expect(within(card).queryByRole('img', { name: /Image posted by/ })).not.toBeInTheDocument();
    expect(edits).toEqual([{ postData: { content: 'New words', mediaURL: null } }]);
  });

  it("shows the edited text's new tags and mentions as links", async () => {
    signInAsMe();
    const post = myPost({
      content: 'Was #old',
      entities: [{ type: 'tag', tag: 'old', start: 4, end: 8 }],
    });
    mockFeeds({ home: [post] });
    server.use(
      http.post('/api/posts/edit/:postId', () =>
        json(
          {
            post: {
              ...post,
              content: 'Now @grace_h #new',
              entities: [
                { type: 'mention', username: 'grace_h', userId: 'u-grace', start: 4, end: 12 },
                { type: 'tag', tag: 'new', start: 13, end: 17 },
              ],
            },
          },
          201,
        ),
      ),
    );
    const { user } = renderApp('/');
    const { card, dialog } = await openEditor(user);
    expect(within(card).getByRole('link', { name: '#old' })).toBeInTheDocument();

    const text = within(dialog).getByRole('textbox', { name: 'Post text' });
    await user.clear(text);
    await user.type(text, 'Now @grace_h #new');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));

    expect(await within(card).findByRole('link', { name: '#new' })).toHaveAttribute(
      'href',
      '/tags/new',
    );
    expect(within(card).getByRole('link', { name: '@grace_h' })).toHaveAttribute(
      'href',
      '/profile/grace_h',
    );
    expect(within(card).queryByRole('link', { name: '#old' })).not.toBeInTheDocument();
  });

  it('keeps the image untouched unless changed, and says so when saving fails', async () => {
    signInAsMe();
    mockFeeds({ home: [myPost({ content: 'Stay', mediaURL: '/media/keep.webp' })] });
    const edits: unknown[] = [];
    server.use(
      http.post('/api/posts/edit/:postId', async ({ request }) => {
        edits.push(await request.json());
        return json({ errors: ['x'] }, 500);
      }),
    );
    const { user } = renderApp('/');
    const { dialog } = await openEditor(user);

    await user.click(within(dialog).getByRole('button', { name: 'Save' }));

    expect(await screen.findByText('Smething went wrong, please try again.')).toBeInTheDocument();
    expect(screen.getByRole('dialog', { name: 'Edit Post' })).toBeInTheDocument();
    expect(edits).toEqual([{ postData: { content: 'Stay' } }]);

    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });

  it('says the post cannot be deleted when deleting fails', async () => {
    signInAsMe();
    mockFeeds({ home: [myPost({ content: 'Sticky' })] });
    server.use(http.delete('/api/posts/:postId', () => json({ errors: ['x'] }, 500)));
    const { user } = renderApp('/');
    const [card] = await screen.findAllByTestId('post-card');
    if (!card) throw new Error('No post card.');

    await user.click(within(card).getByRole('button', { name: 'Post menu' }));
    await user.click(screen.getByRole('menuitem', { name: 'Delete' }));
    // Gone at once; back when the server refuses once the Undo window has closed.
    await waitFor(() => {
      expect(screen.queryByText('Sticky')).toBeNull();
    });

    expect(
      await screen.findByText('Post can not be delete', {}, { timeout: UNDO_WINDOW_MS + 3000 }),
    ).toBeInTheDocument();
    expect(screen.getByText('Sticky')).toBeInTheDocument();
  }, 15_000);
});
