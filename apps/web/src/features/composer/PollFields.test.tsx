import { screen, within } from '@testing-library/react';
import { http } from 'msw';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { renderApp } from '../../test/renderApp';
import { server } from '../../test/server';
import { json, makePost, mockFeeds, signInAsMe } from '../../entities/post/posts.mocks';

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

describe('a poll in the new-post box', () => {
  it('opens 2 to 4 options, a duration and a multiple-choice switch, and sends them', async () => {
    signInAsMe();
    mockFeeds();
    const bodies: unknown[] = [];
    server.use(
      http.post('/api/posts', async ({ request }) => {
        bodies.push(await request.json());
        return json({ post: makePost({ content: 'Which?' }) }, 201);
      }),
    );
    const { user } = renderApp('/');
    await user.type(await within(composer()).findByLabelText('Post text'), 'Which?');
    const toggle = within(composer()).getByRole('button', { name: 'Poll' });
    expect(toggle).toHaveAttribute('aria-pressed', 'false');
    await user.click(toggle);
    expect(toggle).toHaveAttribute('aria-pressed', 'true');
    expect(within(composer()).getByRole('button', { name: 'Add images' })).toBeDisabled();

    const poll = within(composer()).getByRole('group', { name: 'Poll' });
    expect(within(poll).getAllByRole('textbox')).toHaveLength(2);
    expect(within(poll).queryByRole('button', { name: /Remove option/ })).toBeNull();
    await user.click(within(poll).getByRole('button', { name: 'Add option' }));
    await user.click(within(poll).getByRole('button', { name: 'Add option' }));
    expect(within(poll).getAllByRole('textbox')).toHaveLength(4);
    expect(within(poll).queryByRole('button', { name: 'Add option' })).toBeNull();
    await user.click(within(poll).getByRole('button', { name: 'Remove option 4' }));

    await user.type(within(poll).getByLabelText('Option 1'), ' Red ');
    await user.type(within(poll).getByLabelText('Option 2'), 'Green');
    await user.type(within(poll).getByLabelText('Option 3'), 'Blue');
    await user.selectOptions(within(poll).getByLabelText('Poll duration'), '3 days');
    await user.click(within(poll).getByRole('switch', { name: 'Multiple choice' }));
    await user.click(within(composer()).getByRole('button', { name: 'Post' }));

    await vi.waitFor(() => {
      expect(bodies).toHaveLength(1);
    });
    expect(bodies[0]).toEqual({
      postData: {
        content: 'Which?',
        mediaURL: null,
        poll: { options: ['Red', 'Green', 'Blue'], expiresIn: 259_200, multiple: true },
      },
    });
    expect(
      await within(composer()).findByRole('button', { name: 'Poll', pressed: false }),
    ).toBeInTheDocument();
  }, 20_000);

  it('is not offered while an image is attached', async () => {
    signInAsMe();
    mockFeeds();
    const { user } = renderApp('/');
    await within(composer()).findByLabelText('Post text');
    const input = composer().querySelector<HTMLInputElement>('input[type="file"]');
    if (!input) throw new Error('no file input');
    await user.upload(input, new File(['png'], 'photo.png', { type: 'image/png' }));
    expect(within(composer()).getByRole('button', { name: 'Poll' })).toBeDisabled();
  });
});
