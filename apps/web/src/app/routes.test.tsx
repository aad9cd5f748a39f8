import { screen, waitFor, within } from '@testing-library/react';
import { http } from 'msw';
import { describe, expect, it } from 'vitest';
import { grace, mockDirectory, signIn } from '../entities/member/users.mocks';
import { json, makePost } from '../entities/post/posts.mocks';
import { renderApp } from '../test/renderApp';
import { server } from '../test/server';

async function expectNotFound() {
  expect(
    await screen.findByRole('heading', { level: 1, name: 'Page not found' }),
  ).toBeInTheDocument();
}

function servePost() {
  const post = makePost({ content: 'Harbour at dawn' });
  server.use(
    http.get(`/api/posts/${post._id}`, () => json({ post })),
    http.get(`/api/comments/${post._id}`, () => json({ comments: [], nextCursor: null })),
  );
  return post;
}

describe('routes', () => {
  it('open a profile at its public address /@username', async () => {
    signIn();
    mockDirectory();
    const { router } = renderApp(`/@${grace.username}`);

    expect(
      await screen.findByRole('heading', { level: 1, name: 'Grace Hopper' }),
    ).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/@grace_h');
    // Inside the signed-in layout, like every other screen.
    expect(screen.getByRole('navigation', { name: 'Quick navigation' })).toBeInTheDocument();
  });

  it('keep /profile/:username for the same screen', async () => {
    signIn();
    mockDirectory();
    renderApp(`/profile/${grace.username}`);

    expect(
      await screen.findByRole('heading', { level: 1, name: 'Grace Hopper' }),
    ).toBeInTheDocument();
  });

  it('open a post at its public address /@username/postId, and at /post/postId', async () => {
    signIn();
    const post = servePost();
    const first = renderApp(`/@${post.author.username}/${post._id}`);
    const card = await screen.findByTestId('post-card');
    expect(within(card).getByText('Harbour at dawn')).toBeInTheDocument();
    first.unmount();

    renderApp(`/post/${post._id}`);
    expect(
      within(await screen.findByTestId('post-card')).getByText('Harbour at dawn'),
    ).toBeInTheDocument();
  });

  it('send a visitor without a session from a public address to the login page', async () => {
    const { router } = renderApp(`/@${grace.username}`);

    expect(
      await screen.findByRole('heading', { level: 1, name: 'Welcome back' }),
    ).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/login');
  });

  it.each(['/nowhere', '/nowhere/else', '/@grace_h/p-1/more', '/@', '/profile'])(
    'show the 404 page at %s, signed in',
    async (path) => {
      signIn();
      mockDirectory();
      renderApp(path);
      await expectNotFound();
    },
  );

  it('show the 404 page at an unknown address to a visitor without a session too', async () => {
    const { router } = renderApp('/nowhere');
    await expectNotFound();
    expect(router.state.location.pathname).toBe('/nowhere');
  });

  it('name each screen in the title', async () => {
    renderApp('/login');
    await waitFor(() => {
      expect(document.title).toBe('Log in · Perch');
    });
  });
});
