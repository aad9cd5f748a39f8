import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { delay, http, HttpResponse } from 'msw';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { renderApp } from '../../test/renderApp';
import { server } from '../../test/server';
import { json, makePost, me, mockFeeds, signInAsMe } from '../../entities/post/posts.mocks';

const PLACEHOLDER = "What's is in your mind?";

function composer() {
  return screen.getByRole('region', { name: 'New post' });
}

function postButton() {
  return within(composer()).getByRole('button', { name: 'Post' });
}

function mine(content: string, mediaURL: string | null = null) {
  return makePost({
    content,
    mediaURL,
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
    createdAt: new Date().toISOString(),
  });
}

beforeEach(() => {
  vi.stubGlobal(
    'URL',
    Object.assign(URL, {
      createObjectURL: vi.fn(() => 'blob:preview'),
      revokeObjectURL: vi.fn(),
    }),
  );
});

describe('new-post box', () => {
  it('has the placeholder, and the Post button looks disabled while the text is blank', async () => {
    signInAsMe();
    mockFeeds();
    const { user } = renderApp('/');
    const text = await screen.findByPlaceholderText(PLACEHOLDER);

    expect(postButton()).toHaveClass('post-composer__submit--blank');
    expect(postButton()).toBeEnabled();

    await user.type(text, '   ');
    expect(postButton()).toHaveClass('post-composer__submit--blank');

    await user.type(text, 'Hello');
    expect(postButton()).not.toHaveClass('post-composer__submit--blank');
  });

  it('still submits blank text; the refusal shows the create failure toast', async () => {
    signInAsMe();
    mockFeeds();
    const bodies: unknown[] = [];
    server.use(
      http.post('/api/posts', async ({ request }) => {
        bodies.push(await request.json());
        return json({ errors: ['A post needs some text or an image.'] }, 400);
      }),
    );
    const { user } = renderApp('/');
    await screen.findByPlaceholderText(PLACEHOLDER);

    await user.click(postButton());

    expect(await screen.findByText('Something went wrong, try again!')).toBeInTheDocument();
    expect(bodies).toEqual([{ postData: { content: '', mediaURL: null } }]);
  });

  it('creates a post: toast, box cleared, post first in the feed', async () => {
    signInAsMe();
    const older = makePost({ content: 'Older post', createdAt: '2026-01-01T00:00:00.000Z' });
    mockFeeds({ home: [older] });
    const bodies: unknown[] = [];
    let prefer: string | null = null;
    server.use(
      http.post('/api/posts', async ({ request }) => {
        prefer = request.headers.get('prefer');
        const body = (await request.json()) as { postData: { content: string } };
        bodies.push(body);
        return json({ post: mine(body.postData.content) }, 201);
      }),
    );
    const { user } = renderApp('/');
    await screen.findByText('Older post');
    const text = screen.getByPlaceholderText(PLACEHOLDER);

    await user.type(text, 'Fresh thoughts');
    await user.click(postButton());

    expect(await screen.findByText('New post created')).toBeInTheDocument();
    expect(text).toHaveValue('');
    const contents = screen
      .getAllByTestId('post-card')
      .map((card) => card.querySelector('.post-card__text')?.textContent);
    expect(contents).toEqual(['Fresh thoughts', 'Older post']);
    expect(bodies).toEqual([{ postData: { content: 'Fresh thoughts', mediaURL: null } }]);
    expect(prefer).toBe('return=minimal');
  });

  it('previews a picked image at once, uploads it on Post, then drops it', async () => {
    signInAsMe();
    mockFeeds();
    const uploads: { purpose: unknown; hasFile: boolean; auth: string | null }[] = [];
    const posted: unknown[] = [];
    server.use(
      http.post('/api/media', async ({ request }) => {
        const form = await request.formData();
        const file = form.get('file');
        uploads.push({
          purpose: form.get('purpose'),
          hasFile: file !== null && typeof file !== 'string',
          auth: request.headers.get('authorization'),
        });
        await delay(30);
        return json(
          {
            url: '/media/abc.webp',
            thumbnailURL: '/media/abc-thumb.webp',
            width: 10,
            height: 10,
            blurhash: 'LEHV6nWB2yk8pyo0adR*.7kCMdnj',
            mimeType: 'image/webp',
            size: 100,
          },
          201,
        );
      }),
      http.post('/api/posts', async ({ request }) => {
        const body = (await request.json()) as {
          postData: { content: string; media: { url: string }[] };
        };
        posted.push(body);
        return json({ post: mine(body.postData.content, body.postData.media[0]?.url) }, 201);
      }),
    );
    const { user } = renderApp('/');
    await screen.findByPlaceholderText(PLACEHOLDER);

    const input = composer().querySelector<HTMLInputElement>('input[type="file"]');
    if (!input) throw new Error('No file input.');
    expect(input).toHaveAttribute('accept', 'image/*');
    await user.upload(input, new File(['png'], 'photo.png', { type: 'image/png' }));

    expect(within(composer()).getByRole('img', { name: 'Image 1' })).toHaveAttribute(
      'src',
      'blob:preview',
    );
    await user.click(postButton());

    expect(await screen.findByText('New post created')).toBeInTheDocument();
    expect(uploads).toEqual([{ purpose: 'post', hasFile: true, auth: 'token-me' }]);
    expect(posted).toEqual([
      { postData: { content: '', media: [{ url: '/media/abc.webp', alt: null }] } },
    ]);
    expect(within(composer()).queryByRole('img', { name: 'Image 1' })).not.toBeInTheDocument();
    const card = await screen.findByTestId('post-card');
    expect(within(card).getByRole('img', { name: 'Image posted by Ada Lovelace' })).toHaveAttribute(
      'src',
      '/media/abc.webp',
    );
  });

  it('ignores files that are not images', async () => {
    signInAsMe();
    mockFeeds();
    renderApp('/');
    await screen.findByPlaceholderText(PLACEHOLDER);
    const input = composer().querySelector<HTMLInputElement>('input[type="file"]');
    if (!input) throw new Error('No file input.');

    fireEvent.change(input, {
      target: { files: [new File(['text'], 'notes.txt', { type: 'text/plain' })] },
    });

    expect(within(composer()).queryByRole('img', { name: 'Image 1' })).not.toBeInTheDocument();
  });

  it('the sidebar dialog holds the same form and closes after posting', async () => {
    signInAsMe();
    mockFeeds();
    server.use(
      http.post('/api/posts', async ({ request }) => {
        const body = (await request.json()) as { postData: { content: string } };
        return HttpResponse.json({ post: mine(body.postData.content) }, { status: 201 });
      }),
    );
    const { user } = renderApp('/explore');
    await user.click(await screen.findByRole('button', { name: 'Create a new Post' }));
    const dialog = screen.getByRole('dialog', { name: 'Create Post' });
    const text = within(dialog).getByPlaceholderText(PLACEHOLDER);
    expect(text).toHaveFocus();

    await user.type(text, 'From the dialog');
    await user.click(within(dialog).getByRole('button', { name: 'Post' }));

    expect(await screen.findByText('New post created')).toBeInTheDocument();
    await waitFor(() => {
      expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    });
  });
});
