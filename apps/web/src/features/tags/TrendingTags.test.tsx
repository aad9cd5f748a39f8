import { screen, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { renderApp } from '../../test/renderApp';
import { server } from '../../test/server';
import { mockFeeds, signInAsMe } from '../../entities/post/posts.mocks';

function rightPanel() {
  return screen.getByRole('complementary', { name: 'Search and suggestions' });
}

describe('trending tags in the right panel', () => {
  it('lists trending tags as links with their counts', async () => {
    signInAsMe();
    mockFeeds();
    server.use(
      http.get('/api/trends/tags', () =>
        HttpResponse.json({
          tags: [
            { tag: 'perch', postCount: 12, memberCount: 4 },
            { tag: 'café', postCount: 1, memberCount: 2 },
          ],
        }),
      ),
    );
    renderApp('/');

    const trending = await within(rightPanel()).findByRole('region', { name: 'Trending' });
    const links = within(trending).getAllByRole('link');
    expect(links.map((link) => [link.textContent, link.getAttribute('href')])).toEqual([
      ['#perch12 posts', '/tags/perch'],
      ['#café1 post', '/tags/caf%C3%A9'],
    ]);
  });

  it('is hidden while nothing trends', async () => {
    signInAsMe();
    mockFeeds();
    renderApp('/');

    await within(rightPanel()).findByRole('heading', { name: 'Who to follow?' });
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(
      within(rightPanel()).queryByRole('region', { name: 'Trending' }),
    ).not.toBeInTheDocument();
  });
});
