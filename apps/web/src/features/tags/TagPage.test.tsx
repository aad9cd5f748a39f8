import { SearchErrors, type Post, type TagPage } from '@perch/contract';
import { screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { renderApp } from '../../test/renderApp';
import { server } from '../../test/server';
import { makePost, signInAsMe } from '../../entities/post/posts.mocks';

/** Answers GET /api/tags/:tag with the posts and this count; returns the tags asked for. */
function mockTag(posts: Post[], postCount = posts.length) {
  const asked: string[] = [];
  server.use(
    http.get<{ tag: string }>('/api/tags/:tag', ({ params }) => {
      asked.push(params.tag);
      const tag = params.tag.toLowerCase();
      return HttpResponse.json({
        tag: { tag, postCount },
        posts,
        nextCursor: null,
      } satisfies TagPage);
    }),
  );
  return asked;
}

describe('tag page', () => {
  it('names the tag, counts its posts and lists them', async () => {
    signInAsMe();
    const content = 'Proofing overnight #SourDough';
    const asked = mockTag(
      [
        makePost({
          content,
          entities: [{ type: 'tag', tag: 'sourdough', start: 19, end: 29 }],
        }),
        makePost({ content: 'Second #sourdough loaf' }),
        makePost({ content: 'Third' }),
      ],
      3,
    );
    renderApp('/tags/SourDough');

    expect(
      await screen.findByRole('heading', { level: 1, name: '#sourdough' }),
    ).toBeInTheDocument();
    expect(await screen.findByText('3 posts')).toBeInTheDocument();
    const [card] = await screen.findAllByTestId('post-card');
    if (!card) throw new Error('No post card.');
    expect(within(card).getByRole('link', { name: '#SourDough' })).toHaveAttribute(
      'href',
      '/tags/sourdough',
    );
    expect(asked).toEqual(['sourdough']);
    await waitFor(() => {
      expect(document.title).toContain('#sourdough');
    });
  });

  it('says "1 post" for one', async () => {
    signInAsMe();
    mockTag([makePost({ content: 'Only one' })]);
    renderApp('/tags/lonely');

    expect(await screen.findByText('1 post')).toBeInTheDocument();
  });

  it('says when a tag has no posts', async () => {
    signInAsMe();
    mockTag([]);
    renderApp('/tags/quiet');

    expect(await screen.findByText('0 posts')).toBeInTheDocument();
    expect(screen.getByText('No posts with #quiet yet.')).toBeInTheDocument();
  });

  it('explains an address that cannot be a tag, without asking the server', async () => {
    signInAsMe();
    const asked = mockTag([]);
    renderApp('/tags/not-a-tag');

    expect(await screen.findByRole('alert')).toHaveTextContent(SearchErrors.badTag);
    expect(asked).toEqual([]);
  });
});
