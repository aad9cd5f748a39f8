import { POST_MEDIA_MAX } from '@perch/contract';
import { screen, within } from '@testing-library/react';
import { http } from 'msw';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { renderApp } from '../../test/renderApp';
import { server } from '../../test/server';
import { json, makePost, me, mockFeeds, signInAsMe } from '../../entities/post/posts.mocks';

const composer = () => screen.getByRole('region', { name: 'New post' });
const png = (name: string) => new File([name], name, { type: 'image/png' });

beforeEach(() => {
  vi.stubGlobal(
    'URL',
    Object.assign(URL, {
      createObjectURL: vi.fn(() => 'blob:preview'),
      revokeObjectURL: vi.fn(),
    }),
  );
});

/** Answers each upload with a URL named after the uploaded file, and keeps the posts sent. */
function mockAlbumServer() {
  const posted: unknown[] = [];
  let uploads = 0;
  server.use(
    http.post('/api/media', async ({ request }) => {
      expect((await request.formData()).get('purpose')).toBe('post');
      uploads += 1;
      // Named by arrival: the album's images are uploaded one after the other, in order.
      const url = `/media/${String(uploads)}.webp`;
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
    http.post('/api/posts', async ({ request }) => {
      posted.push(await request.json());
      return json(
        { post: makePost({ content: '', userId: me._id, author: { ...me, avatarURL: null } }) },
        201,
      );
    }),
  );
  return posted;
}

async function pick(files: File[]) {
  const input = composer().querySelector<HTMLInputElement>('input[type="file"]');
  if (!input) throw new Error('No file input.');
  expect(input).toHaveAttribute('multiple');
  const { user } = renderState;
  await user.upload(input, files);
}

let renderState: ReturnType<typeof renderApp>;

async function openComposer() {
  signInAsMe();
  mockFeeds();
  const posted = mockAlbumServer();
  renderState = renderApp('/');
  await screen.findByLabelText('Post text');
  return { posted, user: renderState.user };
}

const descriptionFields = () =>
  within(composer()).getAllByRole('textbox', { name: /^Description of image/ });

describe('an album in the new-post box', () => {
  it('takes several images, reorders and removes them, and sends them in order with their descriptions', async () => {
    const { posted, user } = await openComposer();
    await pick([png('a.png'), png('bb.png'), png('ccc.png')]);
    expect(within(composer()).getByRole('list', { name: 'Images (3)' })).toBeInTheDocument();
    expect(descriptionFields()).toHaveLength(3);
    expect(within(composer()).getByRole('button', { name: 'Move image 1 earlier' })).toBeDisabled();
    expect(within(composer()).getByRole('button', { name: 'Move image 3 later' })).toBeDisabled();

    await user.type(
      within(composer()).getByRole('textbox', { name: 'Description of image 1' }),
      'First',
    );
    await user.type(
      within(composer()).getByRole('textbox', { name: 'Description of image 3' }),
      'Third',
    );
    // ccc moves before bb, then a is removed: ccc, bb remain with their own descriptions.
    await user.click(within(composer()).getByRole('button', { name: 'Move image 3 earlier' }));
    await user.click(within(composer()).getByRole('button', { name: 'Remove image 1' }));
    expect(within(composer()).getByRole('list', { name: 'Images (2)' })).toBeInTheDocument();
    expect(within(composer()).getByRole('textbox', { name: 'Description of image 1' })).toHaveValue(
      'Third',
    );
    expect(within(composer()).getByRole('textbox', { name: 'Description of image 2' })).toHaveValue(
      '',
    );
    // A poll and images exclude each other.
    expect(within(composer()).getByRole('button', { name: 'Poll' })).toBeDisabled();

    await user.click(within(composer()).getByRole('button', { name: 'Post' }));
    expect(await screen.findByText('New post created')).toBeInTheDocument();
    expect(posted).toEqual([
      {
        postData: {
          content: '',
          media: [
            { url: '/media/1.webp', alt: 'Third' },
            { url: '/media/2.webp', alt: null },
          ],
        },
      },
    ]);
    expect(within(composer()).queryByRole('list', { name: /^Images/ })).toBeNull();
  });

  it(`keeps at most ${POST_MEDIA_MAX} images and says how many were left out`, async () => {
    const { user } = await openComposer();
    await pick(Array.from({ length: 8 }, (_, index) => png(`p${index}.png`)));
    await pick([png('x.png'), png('y.png'), png('z.png'), png('w.png')]);

    expect(
      within(composer()).getByRole('list', { name: `Images (${POST_MEDIA_MAX})` }),
    ).toBeInTheDocument();
    expect(within(composer()).getByRole('alert')).toHaveTextContent(
      `A post holds at most ${POST_MEDIA_MAX} images: 2 were left out.`,
    );
    await user.click(within(composer()).getByRole('button', { name: 'Remove image 10' }));
    await pick([png('v.png')]);
    expect(within(composer()).queryByRole('alert')).toBeNull();
    expect(descriptionFields()).toHaveLength(POST_MEDIA_MAX);
  });
});
