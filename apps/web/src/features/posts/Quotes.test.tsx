import type { NotificationGroup, PostQuote } from '@perch/contract';
import { screen, within } from '@testing-library/react';
import { http } from 'msw';
import { describe, expect, it } from 'vitest';
import { renderApp } from '../../test/renderApp';
import { server } from '../../test/server';
import { grace, json, makePost, me, mockFeeds, signInAsMe } from '../../entities/post/posts.mocks';
import { notificationText } from '../notifications/notificationText';

const quoted = (overrides: Partial<Extract<PostQuote, { state: 'available' }>['post']> = {}) =>
  ({
    state: 'available',
    post: {
      _id: 'p-quoted',
      id: 'p-quoted',
      author: grace,
      content: 'The original words',
      entities: [],
      mediaURL: null,
      mediaAlt: null,
      contentWarning: null,
      sensitive: false,
      createdAt: '2026-11-20T10:00:00.000Z',
      quoteId: null,
      ...overrides,
    },
  }) satisfies PostQuote;

async function onlyCard() {
  const [card] = await screen.findAllByTestId('post-card');
  if (!card) throw new Error('No card.');
  return card;
}

describe('a quote on a card', () => {
  it('embeds the quoted post as a card linking to it', async () => {
    signInAsMe();
    mockFeeds({ home: [makePost({ content: 'Look', quote: quoted() })] });
    renderApp('/');
    const card = await onlyCard();
    const embed = within(card).getByRole('group', { name: 'Quoted post by @grace_h' });
    expect(within(embed).getByText('The original words')).toBeVisible();
    const link = within(embed).getByRole('link', { name: 'Quoted post by @grace_h' });
    expect(link).toHaveAttribute('href', '/post/p-quoted');
    expect(within(embed).queryByRole('link', { name: 'Quoting another post' })).toBeNull();
  });

  it('keeps the quoted text behind its content warning until Show more', async () => {
    signInAsMe();
    const quote = quoted({
      contentWarning: 'Spoilers',
      mediaURL: '/media/q.webp',
      sensitive: true,
    });
    mockFeeds({ home: [makePost({ content: 'Look', quote })] });
    const { user } = renderApp('/');
    const embed = within(await onlyCard()).getByRole('group', { name: 'Quoted post by @grace_h' });
    expect(within(embed).getByText('Spoilers')).toBeVisible();
    expect(within(embed).queryByText('The original words')).toBeNull();
    const toggle = within(embed).getByRole('button', { name: 'Show more' });
    expect(toggle).toHaveAttribute('aria-expanded', 'false');
    await user.click(toggle);
    expect(within(embed).getByText('The original words')).toBeVisible();
    expect(within(embed).getByRole('img', { name: 'Image posted by Grace Hopper' })).toBeVisible();
  });

  it('names a sensitive image instead of showing it', async () => {
    signInAsMe();
    const quote = quoted({ mediaURL: '/media/q.webp', sensitive: true });
    mockFeeds({ home: [makePost({ content: 'Look', quote })] });
    renderApp('/');
    const embed = within(await onlyCard()).getByRole('group', { name: 'Quoted post by @grace_h' });
    expect(within(embed).getByText('Sensitive image')).toBeVisible();
    expect(within(embed).queryByRole('img')).toBeNull();
  });

  it('says when the quoted post is unavailable, and links the inner quote of a quote', async () => {
    signInAsMe();
    mockFeeds({
      home: [
        makePost({ content: 'Gone', quote: { state: 'unavailable' } }),
        makePost({ content: 'Nested', quote: quoted({ quoteId: 'p-first' }) }),
      ],
    });
    renderApp('/');
    const [gone, nested] = await screen.findAllByTestId('post-card');
    if (!gone || !nested) throw new Error('Two cards expected.');
    expect(within(gone).getByText('This post is unavailable.')).toBeVisible();
    expect(within(gone).queryByRole('group', { name: /Quoted post/ })).toBeNull();
    const inner = within(nested).getByRole('link', { name: 'Quoting another post' });
    expect(inner).toHaveAttribute('href', '/post/p-first');
  });
});

describe('quoting a post', () => {
  it('opens the composer with the post quoted, removable, and sends its id', async () => {
    signInAsMe();
    const original = makePost({ _id: 'p-orig', content: 'Worth quoting', author: grace });
    mockFeeds({ home: [original] });
    const bodies: unknown[] = [];
    server.use(
      http.post('/api/posts', async ({ request }) => {
        const body = (await request.json()) as { postData: { content: string } };
        bodies.push(body);
        const made = makePost({ content: body.postData.content, userId: me._id, author: me });
        return json({ post: { ...made, quote: quoted({ _id: 'p-orig', id: 'p-orig' }) } }, 201);
      }),
    );
    const { user } = renderApp('/');
    const card = await onlyCard();
    await user.click(within(card).getByRole('button', { name: 'Post menu' }));
    await user.click(await screen.findByRole('menuitem', { name: 'Quote' }));

    const dialog = await screen.findByRole('dialog', { name: 'Quote post' });
    const embed = within(dialog).getByRole('group', { name: 'Quoted post by @grace_h' });
    expect(within(embed).getByText('Worth quoting')).toBeVisible();
    await user.type(within(dialog).getByRole('textbox', { name: 'Post text' }), 'So true');
    await user.click(within(dialog).getByRole('button', { name: 'Post' }));

    await screen.findByText('So true');
    expect(bodies).toEqual([
      { postData: { content: 'So true', mediaURL: null, quoteId: 'p-orig' } },
    ]);
    expect(screen.queryByRole('dialog', { name: 'Quote post' })).toBeNull();
  });

  it('sends no quote once the quote is removed', async () => {
    signInAsMe();
    mockFeeds({ home: [makePost({ content: 'Maybe quote' })] });
    const { user } = renderApp('/');
    await user.click(within(await onlyCard()).getByRole('button', { name: 'Post menu' }));
    await user.click(await screen.findByRole('menuitem', { name: 'Quote' }));
    const dialog = await screen.findByRole('dialog', { name: 'Quote post' });
    await user.click(within(dialog).getByRole('button', { name: 'Remove quote' }));
    expect(within(dialog).queryByRole('group', { name: /Quoted post/ })).toBeNull();
  });
});

describe('a quote notification', () => {
  it('reads "… quoted your post"', () => {
    const group: NotificationGroup = {
      _id: 'n1',
      id: 'n1',
      kind: 'quote',
      actors: [{ ...grace }],
      actorCount: 1,
      post: { _id: 'p1', id: 'p1', content: 'x', mediaURL: null },
      comment: null,
      latestAt: '2026-11-20T10:00:00.000Z',
      read: false,
    };
    expect(notificationText(group)).toBe('Grace Hopper quoted your post');
  });
});
