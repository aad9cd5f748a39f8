import { MEDIA_ALT_MAX } from '@perch/contract';
import { screen, within } from '@testing-library/react';
import { http } from 'msw';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { renderApp } from '../../test/renderApp';
import { server } from '../../test/server';
import { json, makePost, me, mockFeeds, signInAsMe } from '../../entities/post/posts.mocks';

const composer = () => screen.getByRole('region', { name: 'New post' });

beforeEach(() => {
  vi.stubGlobal(
    'URL',
    Object.assign(URL, {
      createObjectURL: vi.fn(() => 'blob:preview'),
      revokeObjectURL: vi.fn(),
    }),
  );
});

describe('image descriptions', () => {
  it('asks gently for one under a picked image and sends it with the post', async () => {
    signInAsMe();
    mockFeeds();
    const posted: unknown[] = [];
    server.use(
      http.post('/api/media', () =>
        json(
          {
            url: '/media/sun.webp',
            thumbnailURL: '/media/sun-thumb.webp',
            width: 10,
            height: 10,
            blurhash: 'LEHV6nWB2yk8pyo0adR*.7kCMdnj',
            mimeType: 'image/webp',
            size: 100,
          },
          201,
        ),
      ),
      http.post('/api/posts', async ({ request }) => {
        const body = (await request.json()) as { postData: { media?: { alt: string | null }[] } };
        posted.push(body);
        return json(
          {
            post: makePost({
              content: '',
              mediaURL: '/media/sun.webp',
              mediaAlt: body.postData.media?.[0]?.alt ?? null,
              userId: me._id,
              author: { ...me, avatarURL: null },
            }),
          },
          201,
        );
      }),
    );
    const { user } = renderApp('/');
    await screen.findByPlaceholderText("What's is in your mind?");
    // No image, no description field.
    expect(
      within(composer()).queryByRole('textbox', { name: 'Description of image 1' }),
    ).toBeNull();

    const input = composer().querySelector<HTMLInputElement>('input[type="file"]');
    if (!input) throw new Error('No file input.');
    await user.upload(input, new File(['png'], 'sun.png', { type: 'image/png' }));
    const field = within(composer()).getByRole('textbox', { name: 'Description of image 1' });
    expect(field).toHaveAccessibleDescription(/Add a description so people who cannot see/);
    expect(
      within(composer()).getByText(`0/${MEDIA_ALT_MAX.toLocaleString('en-US')}`),
    ).toBeVisible();

    await user.type(field, 'A red sun over the sea');
    expect(field).toHaveAccessibleDescription(/Read aloud by screen readers/);
    await user.click(within(composer()).getByRole('button', { name: 'Post' }));
    expect(await screen.findByText('New post created')).toBeInTheDocument();
    expect(posted).toEqual([
      {
        postData: {
          content: '',
          media: [{ url: '/media/sun.webp', alt: 'A red sun over the sea' }],
        },
      },
    ]);
    // The new card's picture is named by its description.
    expect(await screen.findByRole('img', { name: 'A red sun over the sea' })).toBeInTheDocument();
  });

  it('names the picture by its description and shows it under ALT on demand', async () => {
    signInAsMe();
    mockFeeds({
      home: [
        makePost({ mediaURL: '/media/a.webp', mediaAlt: 'Two cats asleep on a sofa' }),
        makePost({ mediaURL: '/media/b.webp', mediaAlt: null }),
      ],
    });
    const { user } = renderApp('/');
    const [described, plain] = await screen.findAllByTestId('post-card');
    if (!described || !plain) throw new Error('Two cards expected.');

    expect(within(described).getByRole('img', { name: 'Two cats asleep on a sofa' })).toBeVisible();
    const badge = within(described).getByRole('button', { name: 'Show image description' });
    expect(badge).toHaveAttribute('aria-expanded', 'false');
    expect(
      within(described).getByText('Two cats asleep on a sofa', { selector: 'p' }),
    ).not.toBeVisible();
    await user.click(badge);
    expect(badge).toHaveAttribute('aria-expanded', 'true');
    expect(badge).toHaveAccessibleName('Hide image description');
    expect(
      within(described).getByText('Two cats asleep on a sofa', { selector: 'p' }),
    ).toBeVisible();

    // Without a description: the usual name, and no badge.
    expect(within(plain).getByRole('img', { name: /^Image posted by / })).toBeVisible();
    expect(within(plain).queryByRole('button', { name: /image description/ })).toBeNull();
  });
});
