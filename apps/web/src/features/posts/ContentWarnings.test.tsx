import { screen, within } from '@testing-library/react';
import { http } from 'msw';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { renderApp } from '../../test/renderApp';
import { server } from '../../test/server';
import { json, makePost, me, mockFeeds, signInAsMe } from '../../entities/post/posts.mocks';

const composer = () => screen.getByRole('region', { name: 'New post' });

async function cardsOnHome() {
  return screen.findAllByTestId('post-card');
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

describe('content warnings on a card', () => {
  it('shows only the warning until Show more, then the text and image, and closes again', async () => {
    signInAsMe();
    mockFeeds({
      home: [
        makePost({
          content: 'The butler did it',
          mediaURL: '/media/scene.webp',
          mediaAlt: 'The final scene',
          contentWarning: 'Film ending',
          sensitive: true,
        }),
      ],
    });
    const { user } = renderApp('/');
    const [card] = await cardsOnHome();
    if (!card) throw new Error('No card.');

    expect(within(card).getByText('Film ending')).toBeVisible();
    expect(within(card).queryByText('The butler did it')).toBeNull();
    expect(within(card).queryByRole('img')).toBeNull();
    const toggle = within(card).getByRole('button', { name: 'Show more' });
    expect(toggle).toHaveAttribute('aria-expanded', 'false');

    await user.click(toggle);
    expect(toggle).toHaveAttribute('aria-expanded', 'true');
    expect(toggle).toHaveAccessibleName('Show less');
    expect(within(card).getByText('The butler did it')).toBeVisible();
    // Opened on purpose: the image shows at once, not blurred again.
    expect(within(card).getByRole('img', { name: 'The final scene' })).toBeVisible();

    await user.click(toggle);
    expect(within(card).queryByText('The butler did it')).toBeNull();
  });

  it('blurs a sensitive image until Show image, and Hide image blurs it again', async () => {
    signInAsMe();
    mockFeeds({
      home: [makePost({ content: 'Look', mediaURL: '/media/x.webp', sensitive: true })],
    });
    const { user } = renderApp('/');
    const [card] = await cardsOnHome();
    if (!card) throw new Error('No card.');

    expect(within(card).getByText('Look')).toBeVisible();
    expect(within(card).queryByRole('img')).toBeNull();
    expect(card.querySelector('.post-card__media--hidden')).not.toBeNull();
    await user.click(within(card).getByRole('button', { name: /Sensitive content/ }));
    expect(within(card).getByRole('img', { name: /^Image posted by / })).toBeVisible();
    expect(card.querySelector('.post-card__media--hidden')).toBeNull();
    await user.click(within(card).getByRole('button', { name: 'Hide image' }));
    expect(within(card).queryByRole('img')).toBeNull();
  });

  it('shows sensitive images at once for a member who always shows them', async () => {
    signInAsMe();
    server.use(
      http.get('/api/account/preferences', () => json({ alwaysShowSensitiveMedia: true })),
    );
    mockFeeds({
      home: [makePost({ content: 'Look', mediaURL: '/media/x.webp', sensitive: true })],
    });
    renderApp('/');
    const [card] = await cardsOnHome();
    if (!card) throw new Error('No card.');
    expect(await within(card).findByRole('img', { name: /^Image posted by / })).toBeVisible();
    expect(within(card).queryByRole('button', { name: /Sensitive content/ })).toBeNull();
  });
});

const uploaded = (url: string) =>
  http.post('/api/media', () =>
    json(
      {
        url,
        thumbnailURL: url,
        width: 10,
        height: 10,
        blurhash: 'LEHV6nWB2yk8pyo0adR*.7kCMdnj',
        mimeType: 'image/webp',
        size: 100,
      },
      201,
    ),
  );

describe('content warnings in the composer', () => {
  it('sends the warning and the sensitive mark with the post', async () => {
    signInAsMe();
    mockFeeds();
    const posted: unknown[] = [];
    server.use(
      uploaded('/media/sun.webp'),
      http.post('/api/posts', async ({ request }) => {
        const body = (await request.json()) as {
          postData: { content: string; contentWarning?: string };
        };
        posted.push(body);
        return json(
          {
            post: makePost({
              content: body.postData.content,
              contentWarning: body.postData.contentWarning ?? null,
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
    const cw = within(composer()).getByRole('button', { name: 'Content warning' });
    expect(cw).toHaveAttribute('aria-pressed', 'false');
    await user.click(cw);
    expect(cw).toHaveAttribute('aria-pressed', 'true');
    const field = within(composer()).getByRole('textbox', { name: 'Content warning' });
    expect(field).toHaveFocus();
    await user.type(field, ' Spoilers ');

    const input = composer().querySelector<HTMLInputElement>('input[type="file"]');
    if (!input) throw new Error('No file input.');
    await user.upload(input, new File(['png'], 'sun.png', { type: 'image/png' }));
    // Under a warning the image is hidden anyway: the mark shows checked and fixed.
    const mark = within(composer()).getByRole('checkbox', { name: /Mark image as sensitive/ });
    expect(mark).toBeChecked();
    expect(mark).toBeDisabled();

    await user.type(within(composer()).getByRole('textbox', { name: 'Post text' }), 'It ends');
    await user.click(within(composer()).getByRole('button', { name: 'Post' }));
    expect(await screen.findByText('New post created')).toBeInTheDocument();
    expect(posted).toEqual([
      {
        postData: {
          content: 'It ends',
          media: [{ url: '/media/sun.webp', alt: null }],
          contentWarning: 'Spoilers',
        },
      },
    ]);
    // The box is closed again for the next post.
    expect(within(composer()).queryByRole('textbox', { name: 'Content warning' })).toBeNull();
  });

  it('marks an image sensitive without a warning', async () => {
    signInAsMe();
    mockFeeds();
    const posted: { postData: Record<string, unknown> }[] = [];
    server.use(
      uploaded('/media/m.webp'),
      http.post('/api/posts', async ({ request }) => {
        posted.push((await request.json()) as { postData: Record<string, unknown> });
        return json(
          { post: makePost({ userId: me._id, author: { ...me, avatarURL: null } }) },
          201,
        );
      }),
    );
    const { user } = renderApp('/');
    await screen.findByPlaceholderText("What's is in your mind?");
    const input = composer().querySelector<HTMLInputElement>('input[type="file"]');
    if (!input) throw new Error('No file input.');
    await user.upload(input, new File(['png'], 'm.png', { type: 'image/png' }));
    const mark = within(composer()).getByRole('checkbox', { name: 'Mark image as sensitive' });
    expect(mark).not.toBeChecked();
    await user.click(mark);
    await user.click(within(composer()).getByRole('button', { name: 'Post' }));
    expect(await screen.findByText('New post created')).toBeInTheDocument();
    expect(posted[0]?.postData).toMatchObject({
      media: [{ url: '/media/m.webp', alt: null }],
      sensitive: true,
    });
    expect(posted[0]?.postData).not.toHaveProperty('contentWarning');
  });
});

describe('content warnings in Edit Post', () => {
  it('shows the post’s warning, and sends only what changed', async () => {
    signInAsMe();
    const post = makePost({
      content: 'Plot details',
      contentWarning: 'Spoilers',
      sensitive: true,
      userId: me._id,
      username: me.username,
      author: { ...me, avatarURL: null },
    });
    mockFeeds({ home: [post] });
    const edits: { postData: Record<string, unknown> }[] = [];
    server.use(
      http.post('/api/posts/edit/:postId', async ({ request }) => {
        const body = (await request.json()) as { postData: Record<string, unknown> };
        edits.push(body);
        return json({ post: { ...post, contentWarning: null, sensitive: false } }, 201);
      }),
    );
    const { user } = renderApp('/');
    const [card] = await cardsOnHome();
    if (!card) throw new Error('No card.');
    await user.click(within(card).getByRole('button', { name: 'Post menu' }));
    await user.click(screen.getByRole('menuitem', { name: 'Edit' }));
    const dialog = screen.getByRole('dialog', { name: 'Edit Post' });
    expect(within(dialog).getByRole('textbox', { name: 'Content warning' })).toHaveValue(
      'Spoilers',
    );
    // Closing the field takes the warning off.
    await user.click(within(dialog).getByRole('button', { name: 'Content warning' }));
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Post Edited')).toBeInTheDocument();
    expect(edits).toEqual([{ postData: { content: 'Plot details', contentWarning: '' } }]);
    // The card takes the post as the server answered it: no warning now.
    expect(within(card).getByText('Plot details')).toBeVisible();
    expect(within(card).queryByRole('button', { name: 'Show more' })).toBeNull();
  });
});
