import { screen, within } from '@testing-library/react';
import { http } from 'msw';
import { describe, expect, it } from 'vitest';
import { renderApp } from '../../test/renderApp';
import { server } from '../../test/server';
import { json, makeComment, makePost, signInAsMe } from '../../entities/post/posts.mocks';

describe('post page', () => {
  it('shows the post with its comments open', async () => {
    signInAsMe();
    const post = makePost({ content: 'Harbour at dawn', commentCount: 1 });
    server.use(
      http.get(`/api/posts/${post._id}`, () => json({ post })),
      http.get(`/api/comments/${post._id}`, () =>
        json({
          comments: [makeComment({ postId: post._id, text: 'Beautiful!' })],
          nextCursor: null,
        }),
      ),
    );
    renderApp(`/post/${post._id}`);

    expect(screen.getByRole('heading', { level: 1, name: 'Post' })).toBeInTheDocument();
    const card = await screen.findByTestId('post-card');
    expect(within(card).getByText('Harbour at dawn')).toBeInTheDocument();
    expect(within(card).getByRole('button', { name: 'Comments' })).toHaveAttribute(
      'aria-expanded',
      'true',
    );
    expect(await within(card).findByText('Beautiful!')).toBeInTheDocument();
  });

  it('says when the post is gone', async () => {
    signInAsMe();
    server.use(http.get('/api/posts/p-gone', () => json({ errors: ['Post not found.'] }, 404)));
    renderApp('/post/p-gone');

    expect(await screen.findByText('This post is not available any more.')).toBeInTheDocument();
  });
});
