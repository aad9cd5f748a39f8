import type { Post } from '@perch/contract';
import { act, screen, waitFor } from '@testing-library/react';
import { http } from 'msw';
import { describe, expect, it, vi } from 'vitest';
import { installFakeEventSource, type FakeEventSource } from '../../test/fakeEventSource';
import { renderApp } from '../../test/renderApp';
import { server } from '../../test/server';
import { grace, json, makePost, me, signInAsMe } from '../../entities/post/posts.mocks';

const PILL = /^\d+ new posts?$/;

function cardTexts(): string[] {
  return screen
    .queryAllByTestId('post-card')
    .map((card) => card.querySelector('.post-card__text')?.textContent ?? '');
}

/** Home answers `pages()` (first page, then by cursor) and records the cursors asked for. */
function mockHome(pages: () => Post[][]) {
  const cursors: (string | null)[] = [];
  server.use(
    http.get('/api/posts/feed', ({ request }) => {
      const cursor = new URL(request.url).searchParams.get('cursor');
      cursors.push(cursor);
      const all = pages();
      const index = cursor === null ? 0 : Number(cursor);
      return json({
        posts: all[index] ?? [],
        nextCursor: index + 1 < all.length ? String(index + 1) : null,
      });
    }),
  );
  return cursors;
}

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

const created = (postId: string, authorId = grace._id) => ({ postId, authorId });

describe('new posts on Home', () => {
  it('offers followed members’ new posts without moving the feed; pressing it shows them on top', async () => {
    const streams = installFakeEventSource();
    signInAsMe();
    const older = makePost({ content: 'Older post' });
    let home = [[older]];
    mockHome(() => home);
    const { user } = renderApp('/');
    await screen.findByText('Older post');
    const stream = await openStream(streams);

    act(() => {
      stream.emit('post.created', created('p-new-1'), '2');
    });
    expect(await screen.findByRole('button', { name: '1 new post' })).toBeInTheDocument();
    act(() => {
      stream.emit('post.created', created('p-new-2'), '3');
    });
    const pill = await screen.findByRole('button', { name: '2 new posts' });
    // Offered, not inserted.
    expect(cardTexts()).toEqual(['Older post']);

    home = [
      [
        makePost({ _id: 'p-new-2', content: 'Fresh two' }),
        makePost({ _id: 'p-new-1', content: 'Fresh one' }),
        older,
      ],
    ];
    const scrollTo = vi.spyOn(window, 'scrollTo');
    await user.click(pill);

    expect(scrollTo).toHaveBeenCalledWith({ top: 0 });
    expect(screen.queryByRole('button', { name: PILL })).not.toBeInTheDocument();
    await waitFor(() => {
      expect(cardTexts()).toEqual(['Fresh two', 'Fresh one', 'Older post']);
    });
    expect(document.activeElement).toBe(document.getElementById('main-content'));
  });

  it('goes back to the first page of a feed scrolled further', async () => {
    const streams = installFakeEventSource();
    signInAsMe();
    let home = [[makePost({ content: 'Page one' })], [makePost({ content: 'Page two' })]];
    const cursors = mockHome(() => home);
    const { user } = renderApp('/');
    await screen.findByText('Page one');
    await user.click(screen.getByRole('button', { name: 'Load more' }));
    await screen.findByText('Page two');
    const stream = await openStream(streams);

    act(() => {
      stream.emit('post.created', created('p-new'), '2');
    });
    home = [[makePost({ _id: 'p-new', content: 'Newest' }), ...(home[0] ?? [])], home[1] ?? []];
    cursors.length = 0;
    await user.click(await screen.findByRole('button', { name: '1 new post' }));

    await waitFor(() => {
      expect(cardTexts()).toEqual(['Newest', 'Page one']);
    });
    expect(cursors).toEqual([null]);
  });

  it('does not count own posts, posts already shown, or posts deleted meanwhile', async () => {
    const streams = installFakeEventSource();
    signInAsMe();
    const shown = makePost({ content: 'Shown' });
    mockHome(() => [[shown]]);
    renderApp('/');
    await screen.findByText('Shown');
    const stream = await openStream(streams);

    act(() => {
      stream.emit('post.created', created(shown._id), '2');
      stream.emit('post.created', created('p-a'), '3');
      stream.emit('post.created', created('p-b'), '4');
      stream.emit('post.created', created('p-own', me._id), '5');
    });
    expect(await screen.findByRole('button', { name: '2 new posts' })).toBeInTheDocument();

    act(() => {
      stream.emit('post.deleted', { postId: 'p-a', authorId: grace._id }, '6');
    });
    expect(await screen.findByRole('button', { name: '1 new post' })).toBeInTheDocument();
  });
});
