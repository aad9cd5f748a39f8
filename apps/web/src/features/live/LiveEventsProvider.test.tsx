import { act, screen, waitFor, within } from '@testing-library/react';
import { delay, http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { installFakeEventSource, type FakeEventSource } from '../../test/fakeEventSource';
import { storeSession } from '../../test/fixtures';
import { renderApp } from '../../test/renderApp';
import { server } from '../../test/server';
import { grace, makePost, me, mockFeeds, signInAsMe } from '../../entities/post/posts.mocks';

async function openStream(streams: typeof FakeEventSource): Promise<FakeEventSource> {
  await waitFor(() => {
    expect(streams.open).toHaveLength(1);
  });
  const stream = streams.current();
  act(() => {
    stream.emit('ready', { unreadCount: 0 }, '1');
  });
  return stream;
}

async function firstCard(): Promise<HTMLElement> {
  const [card] = await screen.findAllByTestId('post-card');
  if (!card) throw new Error('No post card.');
  return card;
}

describe('live events', () => {
  it('open one stream once the server confirms the session, and close it on logout', async () => {
    const streams = installFakeEventSource();
    storeSession({ token: 'token-me', user: me });
    let confirm: () => void = () => undefined;
    server.use(
      http.get('/api/auth/me', async () => {
        await new Promise<void>((resolve) => {
          confirm = resolve;
        });
        return HttpResponse.json({ user: me });
      }),
    );
    const { user, router } = renderApp('/');
    await screen.findByRole('heading', { level: 1, name: 'Home' });
    await delay(20);
    expect(streams.instances).toHaveLength(0);

    confirm();
    const stream = await openStream(streams);
    expect(stream.url).toBe('/api/events');

    const bar = screen.getByRole('navigation', { name: 'Quick navigation' });
    await user.click(within(bar).getByRole('button', { name: 'Account menu' }));
    await user.click(within(bar).getByRole('button', { name: 'Log out' }));
    await waitFor(() => {
      expect(router.state.location.pathname).toBe('/login');
    });
    expect(streams.open).toHaveLength(0);
    expect(streams.instances).toHaveLength(1);
  });

  it('update the counts on the cards shown, without counting twice', async () => {
    const streams = installFakeEventSource();
    signInAsMe();
    const post = makePost({
      likes: { likeCount: 4, likedBy: [], dislikedBy: [] },
      commentCount: 1,
    });
    mockFeeds({ home: [post] });
    renderApp('/');
    const card = await firstCard();
    const stream = await openStream(streams);
    const like = { postId: post._id, postAuthorId: grace._id, likeCount: 5 };

    act(() => {
      stream.emit('post.liked', { ...like, userId: 'u-bo' }, '2');
      stream.emit('post.liked', { ...like, userId: 'u-bo' }, '2');
      stream.emit(
        'comment.added',
        {
          postId: post._id,
          commentId: 'c-9',
          postAuthorId: grace._id,
          userId: 'u-bo',
          commentCount: 2,
        },
        '3',
      );
    });

    await waitFor(() => {
      expect(within(card).getByRole('button', { name: 'Like' })).toHaveTextContent('5');
    });
    expect(within(card).getByRole('button', { name: 'Comments' })).toHaveTextContent('2');

    // The member's own like from another tab.
    act(() => {
      stream.emit('post.liked', { ...like, userId: me._id, likeCount: 6 }, '4');
    });
    const unlike = await within(card).findByRole('button', { name: 'Unlike' });
    expect(unlike).toHaveAttribute('aria-pressed', 'true');
    expect(unlike).toHaveTextContent('6');
  });

  it('load everything again when the server says too much was missed', async () => {
    const streams = installFakeEventSource();
    signInAsMe();
    const requests = mockFeeds({ home: [makePost()] });
    renderApp('/');
    await firstCard();
    const stream = await openStream(streams);
    const before = requests.length;

    act(() => {
      stream.emit('reset', {}, '90');
    });

    await waitFor(() => {
      expect(requests.length).toBeGreaterThan(before);
    });
  });

  it('ask for the session cookie once when the stream is refused, then reopen it', async () => {
    const streams = installFakeEventSource();
    signInAsMe();
    mockFeeds();
    let cookieCalls = 0;
    server.use(
      http.post('/api/auth/session', () => {
        cookieCalls += 1;
        return new HttpResponse(null, { status: 204 });
      }),
    );
    renderApp('/');
    const stream = await openStream(streams);
    const atStart = cookieCalls; // the start-up call for a stored session

    act(() => {
      stream.emit('post.created', { postId: 'p-x', authorId: grace._id }, '5');
      stream.fail();
    });

    await waitFor(() => {
      expect(streams.open).toHaveLength(1);
    });
    expect(cookieCalls).toBe(atStart + 1);
    expect(streams.current().url).toBe('/api/events?lastEventId=5');
  });
});
