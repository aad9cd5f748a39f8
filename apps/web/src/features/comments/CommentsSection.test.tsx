import type { Comment } from '@perch/contract';
import { screen, waitFor, within } from '@testing-library/react';
import { http } from 'msw';
import { describe, expect, it } from 'vitest';
import { renderApp } from '../../test/renderApp';
import { server } from '../../test/server';
import {
  json,
  makeComment,
  makePost,
  me,
  mockFeeds,
  signInAsMe,
} from '../../entities/post/posts.mocks';

const myComment = (overrides: Partial<Comment> = {}) =>
  makeComment({
    userId: me._id,
    username: me.username,
    firstName: me.firstName,
    lastName: me.lastName,
    ...overrides,
  });

async function openComments() {
  const [card] = await screen.findAllByTestId('post-card');
  if (!card) throw new Error('No post card.');
  return card;
}

describe('comments', () => {
  it('toggles under the card and says when there are none', async () => {
    signInAsMe();
    const post = makePost();
    mockFeeds({ home: [post] });
    server.use(http.get('/api/comments/:postId', () => json({ comments: [], nextCursor: null })));
    const { user } = renderApp('/');
    const card = await openComments();
    const toggle = within(card).getByRole('button', { name: 'Comments' });
    expect(toggle).toHaveAttribute('aria-expanded', 'false');

    await user.click(toggle);

    expect(toggle).toHaveAttribute('aria-expanded', 'true');
    expect(await within(card).findByText('No comments yet')).toBeInTheDocument();
    expect(within(card).getByLabelText('Add a new comment')).toHaveAttribute(
      'placeholder',
      'Add a new comment',
    );

    await user.click(toggle);
    expect(within(card).queryByText('No comments yet')).not.toBeInTheDocument();
  });

  it('sends a comment only when not blank and counts it on the card', async () => {
    signInAsMe();
    const post = makePost({ commentCount: 0 });
    mockFeeds({ home: [post] });
    const sent: unknown[] = [];
    server.use(
      http.get('/api/comments/:postId', () => json({ comments: [], nextCursor: null })),
      http.post('/api/comments/add/:postId', async ({ request }) => {
        const body = (await request.json()) as { commentData: { text: string } };
        sent.push(body);
        return json(
          {
            comment: myComment({ postId: post._id, text: body.commentData.text }),
            post: { ...post, commentCount: 1 },
          },
          201,
        );
      }),
    );
    const { user } = renderApp('/');
    const card = await openComments();
    await user.click(within(card).getByRole('button', { name: 'Comments' }));
    const input = await within(card).findByLabelText('Add a new comment');
    const submit = within(card).getByRole('button', { name: 'Comment' });

    expect(submit).toBeDisabled();
    await user.type(input, '   ');
    expect(submit).toBeDisabled();

    await user.clear(input);
    await user.type(input, 'Lovely!{Enter}');

    expect(await within(card).findByText('Lovely!')).toBeInTheDocument();
    expect(input).toHaveValue('');
    expect(sent).toEqual([{ commentData: { text: 'Lovely!' } }]);
    expect(within(card).getByRole('button', { name: 'Comments' })).toHaveTextContent('1');
  });

  it("editing puts the comment's text in the input, which then shows Update", async () => {
    signInAsMe();
    const post = makePost();
    const mine = myComment({ postId: post._id, text: 'First draft' });
    const theirs = makeComment({ postId: post._id, text: 'Not yours' });
    mockFeeds({ home: [post] });
    const edits: unknown[] = [];
    server.use(
      http.get('/api/comments/:postId', () => json({ comments: [theirs, mine], nextCursor: null })),
      http.post('/api/comments/edit/:postId/:commentId', async ({ request, params }) => {
        const body = (await request.json()) as { commentData: { text: string } };
        edits.push({ commentId: params.commentId, ...body });
        return json({ comment: { ...mine, text: body.commentData.text }, post }, 201);
      }),
    );
    const { user } = renderApp('/');
    const card = await openComments();
    await user.click(within(card).getByRole('button', { name: 'Comments' }));
    const items = await within(card).findAllByTestId('comment');
    expect(items).toHaveLength(2);
    const [theirItem, myItem] = items as [HTMLElement, HTMLElement];
    // Another member's comment on another member's post: no menu.
    expect(within(theirItem).queryByRole('button', { name: 'Comment menu' })).toBeNull();

    await user.click(within(myItem).getByRole('button', { name: 'Comment menu' }));
    await user.click(screen.getByRole('menuitem', { name: 'Edit' }));

    const input = within(card).getByLabelText('Add a new comment');
    expect(input).toHaveValue('First draft');
    expect(input).toHaveFocus();
    expect(within(card).getByRole('button', { name: 'Update' })).toBeInTheDocument();
    expect(within(card).queryByRole('button', { name: 'Comment' })).not.toBeInTheDocument();

    await user.clear(input);
    await user.type(input, 'Final words');
    await user.click(within(card).getByRole('button', { name: 'Update' }));

    expect(await screen.findByText('Post edited')).toBeInTheDocument();
    expect(within(card).getByText('Final words')).toBeInTheDocument();
    expect(input).toHaveValue('');
    expect(within(card).getByRole('button', { name: 'Comment' })).toBeInTheDocument();
    expect(edits).toEqual([{ commentId: mine._id, commentData: { text: 'Final words' } }]);
  });

  it("lets the post's author delete others' comments; shows Unknown for a gone author", async () => {
    signInAsMe();
    const post = makePost({
      author: {
        _id: me._id,
        id: me._id,
        username: me.username,
        firstName: 'Ada',
        lastName: 'Lovelace',
        avatarURL: null,
      },
      userId: me._id,
      username: me.username,
      commentCount: 2,
    });
    const theirs = makeComment({ postId: post._id, text: 'Spam spam' });
    const orphan = makeComment({
      postId: post._id,
      text: 'From the past',
      userId: null,
      username: null,
      firstName: null,
      lastName: null,
    });
    mockFeeds({ home: [post] });
    server.use(
      http.get('/api/comments/:postId', () =>
        json({ comments: [theirs, orphan], nextCursor: null }),
      ),
      http.delete('/api/comments/delete/:postId/:commentId', ({ params }) =>
        json({ commentId: params.commentId, post: { ...post, commentCount: 1 } }, 201),
      ),
    );
    const { user } = renderApp('/');
    const card = await openComments();
    await user.click(within(card).getByRole('button', { name: 'Comments' }));
    const [first, second] = (await within(card).findAllByTestId('comment')) as [
      HTMLElement,
      HTMLElement,
    ];
    expect(within(second).getByText('Unknown')).toBeInTheDocument();

    await user.click(within(first).getByRole('button', { name: 'Comment menu' }));
    expect(screen.getAllByRole('menuitem').map((item) => item.textContent)).toEqual(['Delete']);
    await user.click(screen.getByRole('menuitem', { name: 'Delete' }));

    expect(await screen.findByText('Comment deleted')).toBeInTheDocument();
    await waitFor(() => {
      expect(within(card).queryByText('Spam spam')).not.toBeInTheDocument();
    });
    expect(within(card).getByRole('button', { name: 'Comments' })).toHaveTextContent('1');
  });

  it('says so when adding or deleting fails', async () => {
    signInAsMe();
    const post = makePost();
    const mine = myComment({ postId: post._id, text: 'Keep me' });
    mockFeeds({ home: [post] });
    server.use(
      http.get('/api/comments/:postId', () => json({ comments: [mine], nextCursor: null })),
      http.post('/api/comments/add/:postId', () => json({ errors: ['x'] }, 500)),
      http.delete('/api/comments/delete/:postId/:commentId', () => json({ errors: ['x'] }, 500)),
    );
    const { user } = renderApp('/');
    const card = await openComments();
    await user.click(within(card).getByRole('button', { name: 'Comments' }));
    await user.type(await within(card).findByLabelText('Add a new comment'), 'Hello{Enter}');
    expect(await screen.findByText('Something went wrong!')).toBeInTheDocument();

    await user.click(within(card).getByRole('button', { name: 'Comment menu' }));
    await user.click(screen.getByRole('menuitem', { name: 'Delete' }));
    expect(await screen.findByText('Something went wrong')).toBeInTheDocument();
    expect(within(card).getByText('Keep me')).toBeInTheDocument();
  });

  it('loads more comments with the cursor', async () => {
    signInAsMe();
    const post = makePost();
    mockFeeds({ home: [post] });
    server.use(
      http.get('/api/comments/:postId', ({ request }) =>
        new URL(request.url).searchParams.get('cursor') === 'c2'
          ? json({ comments: [makeComment({ text: 'Second page' })], nextCursor: null })
          : json({ comments: [makeComment({ text: 'First page' })], nextCursor: 'c2' }),
      ),
    );
    const { user } = renderApp('/');
    const card = await openComments();
    await user.click(within(card).getByRole('button', { name: 'Comments' }));
    expect(await within(card).findByText('First page')).toBeInTheDocument();

    await user.click(within(card).getByRole('button', { name: 'Load more' }));

    expect(await within(card).findByText('Second page')).toBeInTheDocument();
    expect(within(card).queryByRole('button', { name: 'Load more' })).not.toBeInTheDocument();
  });
});
