import { screen, waitFor, within } from '@testing-library/react';
import { delay, http } from 'msw';
import { describe, expect, it } from 'vitest';
import { renderApp } from '../../test/renderApp';
import { server } from '../../test/server';
import { addPendingDelete, readPendingDeletes } from '../../entities/post/pendingDeletes';
import { json, makePost, me, mockFeeds, signInAsMe } from '../../entities/post/posts.mocks';
import { UNDO_WINDOW_MS } from '../../entities/post/undoableDelete';

function cards() {
  return screen.queryAllByTestId('post-card');
}

async function firstCard() {
  const [card] = await screen.findAllByTestId('post-card');
  if (!card) throw new Error('No post card.');
  return card;
}

describe('post card', () => {
  it('shows the author, the date, the text as text with its line breaks, and the counts', async () => {
    signInAsMe();
    const post = makePost({
      content: 'Line one\n<b>not bold</b>',
      createdAt: new Date(2026, 10, 22, 12).toISOString(),
      likes: { likeCount: 7, likedBy: [], dislikedBy: [] },
      commentCount: 3,
    });
    mockFeeds({ home: [post] });
    renderApp('/');

    const card = await firstCard();
    expect(card.tagName).toBe('ARTICLE');
    expect(within(card).getByText('Grace Hopper')).toBeInTheDocument();
    expect(within(card).getByText('@grace_h')).toBeInTheDocument();
    expect(within(card).getByText('Nov 22, 2026')).toBeInTheDocument();
    const text = within(card).getByText(/Line one/);
    expect(text.textContent).toBe('Line one\n<b>not bold</b>');
    expect(card.querySelector('b')).toBeNull();
    expect(within(card).getByRole('link', { name: /Grace Hopper/ })).toHaveAttribute(
      'href',
      '/profile/grace_h',
    );
    expect(within(card).getByRole('button', { name: 'Like' })).toHaveTextContent('7');
    expect(within(card).getByRole('button', { name: 'Comments' })).toHaveTextContent('3');
    expect(within(card).getByRole('button', { name: 'Bookmark' })).toBeInTheDocument();
  });

  it("copies the post's public address from the menu; another's post has no Edit or Delete", async () => {
    signInAsMe();
    const post = makePost();
    mockFeeds({ home: [post] });
    const { user } = renderApp('/');

    const card = await firstCard();
    await user.click(within(card).getByRole('button', { name: 'Post menu' }));
    expect(
      within(screen.getByRole('menu'))
        .getAllByRole('menuitem')
        .map((item) => item.textContent),
    ).toEqual(['Copy link', 'Quote']);
    await user.click(screen.getByRole('menuitem', { name: 'Copy link' }));

    expect(await screen.findByText('Link copied.')).toBeInTheDocument();
    expect(await navigator.clipboard.readText()).toBe(
      `${window.location.origin}/@${post.author.username}/${post._id}`,
    );
  });

  it('shows Unlike when the viewer likes the post (by flag or by name)', async () => {
    signInAsMe();
    mockFeeds({
      home: [
        makePost({ likedByViewer: true, likes: { likeCount: 1, likedBy: [], dislikedBy: [] } }),
        makePost({
          likes: {
            likeCount: 2,
            likedBy: [{ _id: me._id, id: me._id, username: me.username }],
            dislikedBy: [],
          },
        }),
      ],
    });
    renderApp('/');

    await firstCard();
    for (const card of cards()) {
      const button = within(card).getByRole('button', { name: 'Unlike' });
      expect(button).toHaveAttribute('aria-pressed', 'true');
    }
  });

  it('gives the author a menu with Edit and Delete', async () => {
    signInAsMe();
    const mine = makePost({
      author: { ...me, avatarURL: null },
      userId: me._id,
      username: me.username,
    });
    mockFeeds({ home: [mine] });
    let deleted: string | null = null;
    server.use(
      http.delete('/api/posts/:postId', ({ params, request }) => {
        deleted = `${String(params.postId)} ${request.headers.get('prefer') ?? ''}`;
        return json({ postId: params.postId }, 201);
      }),
    );
    const { user } = renderApp('/');

    const card = await firstCard();
    await user.click(within(card).getByRole('button', { name: 'Post menu' }));
    const menu = screen.getByRole('menu');
    expect(
      within(menu)
        .getAllByRole('menuitem')
        .map((item) => item.textContent),
    ).toEqual(['Copy link', 'Quote', 'Pin to profile', 'Edit', 'Delete']);
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('menu')).not.toBeInTheDocument();
    expect(within(card).getByRole('button', { name: 'Post menu' })).toHaveFocus();

    await user.click(within(card).getByRole('button', { name: 'Post menu' }));
    await user.click(screen.getByRole('menuitem', { name: 'Delete' }));

    // Gone at once, with an Undo; the server hears of it once the window closes.
    expect(await screen.findByText('Post Deleted')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Undo' })).toBeInTheDocument();
    expect(cards()).toHaveLength(0);
    expect(deleted).toBeNull();
    expect(readPendingDeletes().map((entry) => entry.postId)).toEqual([mine._id]);
    await waitFor(
      () => {
        expect(deleted).toBe(`${mine._id} return=minimal`);
      },
      { timeout: UNDO_WINDOW_MS + 3000 },
    );
    await waitFor(() => {
      expect(readPendingDeletes()).toEqual([]);
    });
  }, 15_000);

  it('brings a deleted post back with Undo, and never asks the server to delete it', async () => {
    signInAsMe();
    const mine = makePost({
      content: 'Second thoughts',
      author: { ...me, avatarURL: null },
      userId: me._id,
      username: me.username,
    });
    mockFeeds({ home: [mine] });
    let deletes = 0;
    server.use(
      http.delete('/api/posts/:postId', ({ params }) => {
        deletes += 1;
        return json({ postId: params.postId }, 201);
      }),
    );
    const { user } = renderApp('/');

    const card = await firstCard();
    await user.click(within(card).getByRole('button', { name: 'Post menu' }));
    await user.click(screen.getByRole('menuitem', { name: 'Delete' }));
    expect(cards()).toHaveLength(0);
    await user.click(await screen.findByRole('button', { name: 'Undo' }));
    expect(await screen.findByText('Second thoughts')).toBeInTheDocument();
    expect(readPendingDeletes()).toEqual([]);

    await new Promise((resolve) => setTimeout(resolve, UNDO_WINDOW_MS + 500));
    expect(deletes).toBe(0);
    expect(screen.getByText('Second thoughts')).toBeInTheDocument();
  }, 15_000);

  it('finishes a delete a closed page left unsent when the app starts again', async () => {
    signInAsMe();
    const mine = makePost({ author: { ...me, avatarURL: null }, userId: me._id });
    mockFeeds({ home: [] });
    addPendingDelete({ postId: mine._id, memberId: me._id, dueAt: Date.now() - 1000 });
    addPendingDelete({ postId: 'someone-elses', memberId: 'another-member', dueAt: 0 });
    const deleted: string[] = [];
    server.use(
      http.delete('/api/posts/:postId', ({ params }) => {
        deleted.push(String(params.postId));
        return json({ postId: params.postId }, 201);
      }),
    );
    renderApp('/');
    await waitFor(
      () => {
        expect(deleted).toEqual([mine._id]);
      },
      { timeout: 4000 },
    );
    await waitFor(() => {
      expect(readPendingDeletes().map((entry) => entry.postId)).toEqual(['someone-elses']);
    });
  });
});

describe('likes', () => {
  it('likes at once, then rolls back and says why when the server refuses', async () => {
    signInAsMe();
    const post = makePost({ likes: { likeCount: 4, likedBy: [], dislikedBy: [] } });
    mockFeeds({ home: [post] });
    server.use(
      http.post('/api/posts/like/:postId', async () => {
        await delay(60);
        return json({ errors: ['Internal server error'] }, 500);
      }),
    );
    const { user } = renderApp('/');
    const card = await firstCard();

    await user.click(within(card).getByRole('button', { name: 'Like' }));

    // Optimistic: liked before the answer.
    const unlike = within(card).getByRole('button', { name: 'Unlike' });
    expect(unlike).toHaveAttribute('aria-pressed', 'true');
    expect(unlike).toHaveTextContent('5');

    expect(await screen.findByText('Something went wrong')).toBeInTheDocument();
    const like = within(card).getByRole('button', { name: 'Like' });
    expect(like).toHaveAttribute('aria-pressed', 'false');
    expect(like).toHaveTextContent('4');
  });

  it('says the post is already liked when the server answers 400', async () => {
    signInAsMe();
    mockFeeds({ home: [makePost()] });
    server.use(
      http.post('/api/posts/like/:postId', () =>
        json({ errors: ['Cannot like a post that is already liked. '] }, 400),
      ),
    );
    const { user } = renderApp('/');
    const card = await firstCard();

    await user.click(within(card).getByRole('button', { name: 'Like' }));

    expect(
      await screen.findByText('Cannot like a post that is already liked.'),
    ).toBeInTheDocument();
  });

  it('unlikes with return=minimal and keeps the count the server sends', async () => {
    signInAsMe();
    const post = makePost({
      likedByViewer: true,
      likes: {
        likeCount: 3,
        likedBy: [{ _id: me._id, id: me._id, username: me.username }],
        dislikedBy: [],
      },
    });
    mockFeeds({ home: [post] });
    let prefer: string | null = null;
    server.use(
      http.post('/api/posts/dislike/:postId', ({ request }) => {
        prefer = request.headers.get('prefer');
        return json(
          {
            post: {
              ...post,
              likedByViewer: false,
              likes: { likeCount: 1, likedBy: [], dislikedBy: [] },
            },
          },
          201,
        );
      }),
    );
    const { user } = renderApp('/');
    const card = await firstCard();

    await user.click(within(card).getByRole('button', { name: 'Unlike' }));

    await waitFor(() => {
      expect(within(card).getByRole('button', { name: 'Like' })).toHaveTextContent('1');
    });
    expect(prefer).toBe('return=minimal');
  });

  it('says "Something went wrong." when unliking fails', async () => {
    signInAsMe();
    mockFeeds({
      home: [
        makePost({ likedByViewer: true, likes: { likeCount: 1, likedBy: [], dislikedBy: [] } }),
      ],
    });
    server.use(http.post('/api/posts/dislike/:postId', () => json({ errors: ['x'] }, 500)));
    const { user } = renderApp('/');
    const card = await firstCard();

    await user.click(within(card).getByRole('button', { name: 'Unlike' }));

    expect(await screen.findByText('Something went wrong.')).toBeInTheDocument();
    expect(within(card).getByRole('button', { name: 'Unlike' })).toHaveTextContent('1');
  });
  it('shows a like in every list holding the post, and the liked list gains it', async () => {
    signInAsMe();
    const post = makePost({ content: 'Liked everywhere' });
    mockFeeds({ home: [post], explore: [post], liked: [] });
    server.use(
      http.post('/api/posts/like/:postId', () =>
        json(
          {
            post: {
              ...post,
              likedByViewer: true,
              likes: {
                likeCount: 1,
                likedBy: [{ _id: me._id, id: me._id, username: me.username }],
                dislikedBy: [],
              },
            },
          },
          201,
        ),
      ),
    );
    const { user, queryClient } = renderApp('/likedPost');
    expect(await screen.findByText('No Liked Posts Yet!')).toBeInTheDocument();
    const sidebar = screen.getByRole('complementary', { name: 'Sidebar' });
    await user.click(within(sidebar).getByRole('link', { name: 'Explore' }));
    await firstCard();
    await user.click(within(sidebar).getByRole('link', { name: 'Home' }));
    const card = await firstCard();

    await user.click(within(card).getByRole('button', { name: 'Like' }));

    const likedIn = (source: object) =>
      queryClient
        .getQueryData<{ pages: { posts: { _id: string; likedByViewer: boolean }[] }[] }>([
          'posts',
          'list',
          source,
          'latest',
        ])
        ?.pages.flatMap((page) => page.posts)
        .filter((item) => item._id === post._id && item.likedByViewer).length;
    expect(likedIn({ kind: 'home' })).toBe(1);
    expect(likedIn({ kind: 'explore' })).toBe(1);
    expect(likedIn({ kind: 'liked' })).toBe(1);

    await user.click(within(sidebar).getByRole('link', { name: 'Liked Post' }));
    expect(await screen.findByText('Liked everywhere')).toBeInTheDocument();
  });
});

describe('bookmarks', () => {
  it('bookmarks with a toast, and the post joins the cached bookmarks list', async () => {
    signInAsMe();
    const post = makePost({ content: 'Worth keeping' });
    mockFeeds({ home: [post], bookmarks: [] });
    server.use(
      http.post('/api/users/bookmark/:postId', () =>
        json({ post: { ...post, bookmarkedByViewer: true } }),
      ),
    );
    const { user, queryClient } = renderApp('/bookmarks');
    expect(await screen.findByText('Bookmark posts to see them here!')).toBeInTheDocument();

    // Go home through the sidebar, keeping the cache.
    const sidebar = screen.getByRole('complementary', { name: 'Sidebar' });
    await user.click(within(sidebar).getByRole('link', { name: 'Home' }));
    const card = await firstCard();
    await user.click(within(card).getByRole('button', { name: 'Bookmark' }));

    expect(await screen.findByText('Added to bookmarks.')).toBeInTheDocument();
    expect(within(card).getByRole('button', { name: 'Remove bookmark' })).toHaveAttribute(
      'aria-pressed',
      'true',
    );
    const bookmarks = queryClient.getQueryData<{ pages: { posts: { _id: string }[] }[] }>([
      'posts',
      'list',
      { kind: 'bookmarks' },
      'latest',
    ]);
    expect(bookmarks?.pages[0]?.posts.map((item) => item._id)).toEqual([post._id]);
  });

  it('says the post is already bookmarked on 400, and not bookmarked yet on a 400 removal', async () => {
    signInAsMe();
    mockFeeds({
      home: [makePost(), makePost({ bookmarkedByViewer: true })],
    });
    server.use(
      http.post('/api/users/bookmark/:postId', () =>
        json({ errors: ['This Post is already bookmarked'] }, 400),
      ),
      http.post('/api/users/remove-bookmark/:postId', () =>
        json({ errors: ['Post not bookmarked yet'] }, 400),
      ),
    );
    const { user } = renderApp('/');
    await firstCard();
    const [first, second] = cards();
    if (!first || !second) throw new Error('Expected two cards.');

    await user.click(within(first).getByRole('button', { name: 'Bookmark' }));
    expect(await screen.findByText('Post is already bookmarked.')).toBeInTheDocument();

    await user.click(within(second).getByRole('button', { name: 'Remove bookmark' }));
    expect(await screen.findByText('Post not bookmarked yet')).toBeInTheDocument();
  });
});

describe('feed states', () => {
  it('shows 3 skeleton cards while loading, then the empty text', async () => {
    signInAsMe();
    server.use(
      http.get('/api/posts/explore', async () => {
        await delay(80);
        return json({ posts: [], nextCursor: null });
      }),
    );
    renderApp('/explore');

    expect(await screen.findAllByTestId('post-skeleton')).toHaveLength(3);
    expect(await screen.findByText('No more posts available to explore!')).toBeInTheDocument();
    expect(screen.queryAllByTestId('post-skeleton')).toHaveLength(0);
  });

  it('shows the liked posts empty text', async () => {
    signInAsMe();
    mockFeeds();
    renderApp('/likedPost');
    expect(await screen.findByText('No Liked Posts Yet!')).toBeInTheDocument();
  });

  it('shows an error with Retry, which loads the feed again', async () => {
    signInAsMe();
    let calls = 0;
    server.use(
      http.get('/api/posts/explore', () => {
        calls += 1;
        return calls === 1
          ? json({ errors: ['Bad'] }, 400)
          : json({ posts: [makePost({ content: 'Back again' })], nextCursor: null });
      }),
    );
    const { user } = renderApp('/explore');

    expect(await screen.findByText('Posts could not be loaded.')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Retry' }));

    expect(await screen.findByText('Back again')).toBeInTheDocument();
  });

  it('loads the next page with the cursor of the previous one', async () => {
    signInAsMe();
    const cursors: (string | null)[] = [];
    server.use(
      http.get('/api/posts/explore', ({ request }) => {
        const cursor = new URL(request.url).searchParams.get('cursor');
        cursors.push(cursor);
        return cursor === null
          ? json({ posts: [makePost({ content: 'Page one' })], nextCursor: 'next-1' })
          : json({ posts: [makePost({ content: 'Page two' })], nextCursor: null });
      }),
    );
    const { user } = renderApp('/explore');
    expect(await screen.findByText('Page one')).toBeInTheDocument();

    // jsdom has no IntersectionObserver: the button stands in for scrolling.
    await user.click(screen.getByRole('button', { name: 'Load more' }));

    expect(await screen.findByText('Page two')).toBeInTheDocument();
    expect(cursors).toEqual([null, 'next-1']);
    expect(screen.queryByRole('button', { name: 'Load more' })).not.toBeInTheDocument();
  });

  it('sorts the home feed with the menu (Latest by default)', async () => {
    signInAsMe();
    const requests = mockFeeds({ home: [makePost()] });
    const { user } = renderApp('/');
    await firstCard();
    expect(screen.getByRole('heading', { name: 'Latest Posts' })).toBeInTheDocument();
    expect(requests.at(-1)?.searchParams.get('sort')).toBe('latest');

    await user.click(screen.getByRole('button', { name: 'Sort posts: Latest' }));
    const options = screen.getAllByRole('menuitemradio');
    expect(options.map((option) => option.textContent)).toEqual(['Trending', 'Latest', 'Oldest']);
    expect(screen.getByRole('menuitemradio', { name: 'Latest' })).toHaveAttribute(
      'aria-checked',
      'true',
    );
    expect(screen.getByRole('menuitemradio', { name: 'Latest' })).toHaveFocus();
    await user.keyboard('{ArrowUp}{Enter}');

    expect(await screen.findByRole('heading', { name: 'Trending Posts' })).toBeInTheDocument();
    await waitFor(() => {
      expect(requests.at(-1)?.searchParams.get('sort')).toBe('trending');
    });
  });
});
