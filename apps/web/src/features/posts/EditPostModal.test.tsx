import type { Post } from '@perch/contract';
import { screen, waitFor, within } from '@testing-library/react';
import { http } from 'msw';
import { describe, expect, it } from 'vitest';
import { renderApp } from '../../test/renderApp';
import { server } from '../../test/server';
import { json, makePost, me, mockFeeds, signInAsMe } from '../../entities/post/posts.mocks';
import { UNDO_WINDOW_MS } from '../../entities/post/undoableDelete';
import { editDraftId, readDraft } from '../drafts/draftStore';

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
    expect(within(dialog).getByRole('img', { name: 'Image 1' })).toHaveAttribute(
      'src',
      '/media/old.webp',
    );
    await user.click(within(dialog).getByRole('button', { name: 'Remove image 1' }));
    expect(within(dialog).queryByRole('img', { name: 'Image 1' })).not.toBeInTheDocument();
    await user.clear(text);
    await user.type(text, 'New words');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));

    expect(await screen.findByText('Post Edited')).toBeInTheDocument();
    await waitFor(() => {
      expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    });
    expect(within(card).getByText('New words')).toBeInTheDocument();
    expect(within(card).queryByRole('img', { name: /Image posted by/ })).not.toBeInTheDocument();
    expect(edits).toEqual([{ postData: { content: 'New words', media: [] } }]);
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

const albumImage = (name: string, alt: string | null) => ({
  url: `/media/${name}.webp`,
  alt,
  width: 4,
  height: 3,
  blurhash: null,
});

/** Answers uploads with numbered URLs and edits with the album sent; keeps the edits sent. */
function mockAlbumEdits(post: Post) {
  const edits: { postData: { media?: { url: string; alt: string | null }[] } }[] = [];
  let uploads = 0;
  server.use(
    http.post('/api/media', () => {
      uploads += 1;
      const url = `/media/new-${String(uploads)}.webp`;
      return json(
        {
          url,
          thumbnailURL: url,
          width: 4,
          height: 3,
          blurhash: 'LEHV6nWB2yk8pyo0adR*.7kCMdnj',
          mimeType: 'image/webp',
          size: 9,
        },
        201,
      );
    }),
    http.post('/api/posts/edit/:postId', async ({ request }) => {
      const body = (await request.json()) as (typeof edits)[number];
      edits.push(body);
      const media = (body.postData.media ?? []).map((image) => ({
        ...albumImage('x', image.alt),
        url: image.url,
      }));
      return json(
        {
          post: {
            ...post,
            mediaURL: media[0]?.url ?? null,
            mediaAlt: media[0]?.alt ?? null,
            media,
          },
        },
        201,
      );
    }),
  );
  return edits;
}

describe('Edit Post of an album', () => {
  it('shows the whole album, then reorders, removes, adds and describes images and sends them in order', async () => {
    signInAsMe();
    const post = myPost({
      content: 'Three pictures',
      mediaURL: '/media/a.webp',
      mediaAlt: 'Apple',
      media: [albumImage('a', 'Apple'), albumImage('b', 'Bee'), albumImage('c', null)],
    });
    mockFeeds({ home: [post] });
    const edits = mockAlbumEdits(post);
    const { user } = renderApp('/');
    const [shown] = await screen.findAllByTestId('post-card');
    if (!shown) throw new Error('No post card.');
    await user.click(within(shown).getByRole('button', { name: 'Next image' }));
    expect(within(shown).getByText('2 / 3')).toBeInTheDocument();
    const { card, dialog } = await openEditor(user);

    const images = within(dialog).getByRole('list', { name: 'Images (3)' });
    const sources = () =>
      within(images)
        .getAllByRole('img')
        .map((image) => image.getAttribute('src'));
    const description = (position: number) =>
      within(dialog).getByRole('textbox', { name: `Description of image ${String(position)}` });
    expect(sources()).toEqual(['/media/a.webp', '/media/b.webp', '/media/c.webp']);
    expect(description(2)).toHaveValue('Bee');
    expect(description(3)).toHaveValue('');

    await user.click(within(dialog).getByRole('button', { name: 'Move image 3 earlier' }));
    expect(sources()).toEqual(['/media/a.webp', '/media/c.webp', '/media/b.webp']);
    await user.click(within(dialog).getByRole('button', { name: 'Remove image 1' }));
    expect(sources()).toEqual(['/media/c.webp', '/media/b.webp']);
    await user.clear(description(2));
    await user.type(description(2), 'A bumblebee');
    const input = dialog.querySelector<HTMLInputElement>('input[type="file"]');
    if (!input) throw new Error('No file input.');
    await user.upload(input, new File(['d'], 'd.png', { type: 'image/png' }));
    expect(within(dialog).getByRole('list', { name: 'Images (3)' })).toBeInTheDocument();
    await user.type(description(3), 'A daisy');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));

    expect(await screen.findByText('Post Edited')).toBeInTheDocument();
    expect(edits).toEqual([
      {
        postData: {
          content: 'Three pictures',
          media: [
            { url: '/media/c.webp', alt: null },
            { url: '/media/b.webp', alt: 'A bumblebee' },
            { url: '/media/new-1.webp', alt: 'A daisy' },
          ],
        },
      },
    ]);
    // The card shows the edited album at once, in its new order from the first image.
    expect(await within(card).findByText('1 / 3')).toBeInTheDocument();
    await user.click(within(card).getByRole('button', { name: 'Next image' }));
    expect(within(card).getByRole('img', { name: 'A bumblebee' })).toHaveAttribute(
      'src',
      '/media/b.webp',
    );
    await user.click(within(card).getByRole('button', { name: 'Next image' }));
    expect(within(card).getByRole('img', { name: 'A daisy' })).toHaveAttribute(
      'src',
      '/media/new-1.webp',
    );
  });

  it('sends a changed description alone as the whole album, and the sensitive mark with it', async () => {
    signInAsMe();
    const post = myPost({
      content: 'Two pictures',
      mediaURL: '/media/a.webp',
      media: [albumImage('a', null), albumImage('b', 'Bee')],
    });
    mockFeeds({ home: [post] });
    const edits = mockAlbumEdits(post);
    const { user } = renderApp('/');
    const { dialog } = await openEditor(user);

    await user.type(
      within(dialog).getByRole('textbox', { name: 'Description of image 1' }),
      'An apple',
    );
    await user.click(within(dialog).getByRole('checkbox', { name: /Mark image as sensitive/ }));
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));

    expect(await screen.findByText('Post Edited')).toBeInTheDocument();
    expect(edits).toEqual([
      {
        postData: {
          content: 'Two pictures',
          sensitive: true,
          media: [
            { url: '/media/a.webp', alt: 'An apple' },
            { url: '/media/b.webp', alt: 'Bee' },
          ],
        },
      },
    ]);
  });

  it('brings the changed album back when the dialog is closed unsaved', async () => {
    signInAsMe();
    const post = myPost({
      content: 'Two pictures',
      mediaURL: '/media/a.webp',
      media: [albumImage('a', null), albumImage('b', 'Bee')],
    });
    mockFeeds({ home: [post] });
    const { user } = renderApp('/');
    let { dialog } = await openEditor(user);
    await user.click(within(dialog).getByRole('button', { name: 'Move image 2 earlier' }));
    await waitFor(async () => {
      const kept = await readDraft(editDraftId(me._id, post._id));
      expect(kept?.media?.map((image) => ('url' in image ? image.url : null))).toEqual([
        '/media/b.webp',
        '/media/a.webp',
      ]);
    });
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('dialog', { name: 'Edit Post' })).toBeNull();

    ({ dialog } = await openEditor(user));
    await waitFor(() => {
      expect(within(dialog).getByRole('textbox', { name: 'Description of image 1' })).toHaveValue(
        'Bee',
      );
    });
    expect(within(dialog).getByRole('img', { name: 'Image 1' })).toHaveAttribute(
      'src',
      '/media/b.webp',
    );
  });

  it('offers no images for a post with a poll, and saves its text alone', async () => {
    signInAsMe();
    const post = myPost({
      content: 'Tea or coffee?',
      poll: {
        id: 'poll-1',
        expiresAt: new Date(Date.now() + 3_600_000).toISOString(),
        expired: false,
        multiple: false,
        votesCount: 0,
        votersCount: 0,
        options: [
          { title: 'Tea', votesCount: null },
          { title: 'Coffee', votesCount: null },
        ],
        voted: false,
        ownVotes: [],
      },
    });
    mockFeeds({ home: [post] });
    const edits = mockAlbumEdits(post);
    const { user } = renderApp('/');
    const { card, dialog } = await openEditor(user);

    expect(within(dialog).getByRole('button', { name: 'Add images' })).toBeDisabled();
    const text = within(dialog).getByRole('textbox', { name: 'Post text' });
    await user.type(text, ' Or both?');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));

    expect(await screen.findByText('Post Edited')).toBeInTheDocument();
    expect(edits).toEqual([{ postData: { content: 'Tea or coffee? Or both?' } }]);
    expect(within(card).getByRole('radio', { name: 'Tea' })).toBeInTheDocument();
  });
});
