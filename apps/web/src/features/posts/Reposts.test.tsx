import { screen, waitFor, within } from '@testing-library/react';
import { delay, http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { renderApp } from '../../test/renderApp';
import { server } from '../../test/server';
import { grace, json, makePost, me, mockFeeds, signInAsMe } from '../../entities/post/posts.mocks';
import { queuedToggles } from '../../shared/offlineQueue/queueStore';
import { offlineQueueMessages } from '../../shared/offlineQueue/messages';

const boLi = {
  _id: 'u-bo',
  id: 'u-bo',
  username: 'bo_li',
  firstName: 'Bo',
  lastName: 'Li',
  avatarURL: null,
};

async function firstCard() {
  const [card] = await screen.findAllByTestId('post-card');
  if (!card) throw new Error('No post card.');
  return card;
}

describe('repost button', () => {
  it('sits between Like and Comments with its count, pressed once the viewer reposted', async () => {
    signInAsMe();
    mockFeeds({
      home: [
        makePost({ repostCount: 2 }),
        makePost({ repostCount: 1, repostedByViewer: true, author: { ...me, avatarURL: null } }),
      ],
    });
    renderApp('/');

    const [others, own] = await screen.findAllByTestId('post-card');
    if (!others || !own) throw new Error('Two cards expected.');
    const names = within(others)
      .getAllByRole('button')
      .map((button) => button.getAttribute('aria-label'));
    expect(names.slice(names.indexOf('Like'))).toEqual(['Like', 'Repost', 'Comments', 'Bookmark']);
    const repost = within(others).getByRole('button', { name: 'Repost' });
    expect(repost).toHaveAttribute('aria-pressed', 'false');
    expect(repost).toHaveTextContent('2');
    expect(repost).toHaveAccessibleDescription(/^2\s*reposts$/);
    // The viewer's own post may be reposted too.
    const undo = within(own).getByRole('button', { name: 'Undo repost' });
    expect(undo).toHaveAttribute('aria-pressed', 'true');
    expect(undo).toHaveAccessibleDescription(/^1\s*repost$/);
  });

  it('reposts at once, then rolls back and says why when the server refuses', async () => {
    signInAsMe();
    mockFeeds({ home: [makePost({ repostCount: 2 })] });
    server.use(
      http.post('/api/posts/repost/:postId', async () => {
        await delay(60);
        return json({ errors: ['Internal server error'] }, 500);
      }),
    );
    const { user } = renderApp('/');
    const card = await firstCard();

    await user.click(within(card).getByRole('button', { name: 'Repost' }));

    const undo = within(card).getByRole('button', { name: 'Undo repost' });
    expect(undo).toHaveAttribute('aria-pressed', 'true');
    expect(undo).toHaveTextContent('3');

    expect(await screen.findByText('Something went wrong!')).toBeInTheDocument();
    const repost = within(card).getByRole('button', { name: 'Repost' });
    expect(repost).toHaveAttribute('aria-pressed', 'false');
    expect(repost).toHaveTextContent('2');
  });

  it("shows the server's reason for a conflict", async () => {
    signInAsMe();
    mockFeeds({ home: [makePost()] });
    server.use(
      http.post('/api/posts/repost/:postId', () =>
        json({ errors: ['This Post is already reposted'] }, 400),
      ),
    );
    const { user } = renderApp('/');
    const card = await firstCard();

    await user.click(within(card).getByRole('button', { name: 'Repost' }));

    expect(await screen.findByText('This Post is already reposted')).toBeInTheDocument();
  });

  it('undoes a repost and keeps the count the server sends', async () => {
    signInAsMe();
    const post = makePost({ repostCount: 4, repostedByViewer: true });
    mockFeeds({ home: [post] });
    const calls: string[] = [];
    server.use(
      http.post('/api/posts/unrepost/:postId', ({ params }) => {
        calls.push(String(params.postId));
        return json({ post: { ...post, repostCount: 1, repostedByViewer: false } }, 201);
      }),
    );
    const { user } = renderApp('/');
    const card = await firstCard();

    await user.click(within(card).getByRole('button', { name: 'Undo repost' }));

    await waitFor(() => {
      expect(within(card).getByRole('button', { name: 'Repost' })).toHaveTextContent('1');
    });
    expect(calls).toEqual([post._id]);
  });

  it('keeps a repost made without a connection in the offline queue', async () => {
    signInAsMe();
    const post = makePost({ repostCount: 0 });
    mockFeeds({ home: [post] });
    server.use(http.post('/api/posts/repost/:postId', () => HttpResponse.error()));
    const { user } = renderApp('/');
    const card = await firstCard();

    await user.click(within(card).getByRole('button', { name: 'Repost' }));

    expect(await screen.findByText(offlineQueueMessages.toggleQueued)).toBeInTheDocument();
    expect(within(card).getByRole('button', { name: 'Undo repost' })).toHaveTextContent('1');
    const queued = await queuedToggles(me._id);
    expect(queued.map((toggle) => `${toggle.kind} ${toggle.action} ${toggle.targetId}`)).toEqual([
      `repost repost ${post._id}`,
    ]);
  });
});

describe('reposted line', () => {
  it('names who reposted a Home post, links to them and starts the card’s name', async () => {
    signInAsMe();
    mockFeeds({ home: [makePost({ repostedBy: boLi }), makePost({ content: 'Plain' })] });
    renderApp('/');

    const [reposted, plain] = await screen.findAllByTestId('post-card');
    if (!reposted || !plain) throw new Error('Two cards expected.');
    const link = within(reposted).getByRole('link', { name: 'Bo Li reposted' });
    expect(link).toHaveAttribute('href', '/profile/bo_li');
    expect(reposted).toHaveAccessibleName(`Bo Li reposted ${grace.firstName} ${grace.lastName}`);
    expect(plain).toHaveAccessibleName(`${grace.firstName} ${grace.lastName}`);
    expect(within(plain).queryByText(/reposted/)).toBeNull();
  });
});

describe('toggles of a reposted Home post', () => {
  it('put it in the liked list without Home’s "reposted" line', async () => {
    signInAsMe();
    const post = makePost({ content: 'Reposted, then liked', repostedBy: boLi });
    mockFeeds({ home: [post], liked: [] });
    server.use(
      http.post('/api/posts/like/:postId', () =>
        json({ post: { ...post, repostedBy: undefined, likedByViewer: true } }, 201),
      ),
    );
    const { user } = renderApp('/likedPost');
    expect(await screen.findByText('No Liked Posts Yet!')).toBeInTheDocument();
    const sidebar = screen.getByRole('complementary', { name: 'Sidebar' });
    await user.click(within(sidebar).getByRole('link', { name: 'Home' }));
    const card = await firstCard();
    expect(within(card).getByText('Bo Li reposted')).toBeInTheDocument();

    await user.click(within(card).getByRole('button', { name: 'Like' }));
    await user.click(within(sidebar).getByRole('link', { name: 'Liked Post' }));

    const liked = await firstCard();
    expect(within(liked).getByText('Reposted, then liked')).toBeInTheDocument();
    expect(within(liked).queryByText('Bo Li reposted')).toBeNull();
  });
});
