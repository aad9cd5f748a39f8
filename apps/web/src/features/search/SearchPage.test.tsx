import { SearchErrors } from '@perch/contract';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { makeUser } from '../../test/fixtures';
import { renderApp } from '../../test/renderApp';
import { makePost, signInAsMe } from '../../entities/post/posts.mocks';
import { mockDirectory, signIn } from '../../entities/member/users.mocks';
import { mockDiscovery } from './search.mocks';

const main = () => screen.getByRole('main');

async function searchBox() {
  return within(main()).findByRole('searchbox', { name: 'Search' });
}

describe('search page', () => {
  it('offers trending tags while there is nothing to search for', async () => {
    signInAsMe();
    mockDiscovery({ trending: [{ tag: 'sourdough', postCount: 3, memberCount: 2 }] });
    renderApp('/search');

    await searchBox();
    const trending = await within(main()).findByRole('region', { name: 'Trending' });
    const link = within(trending).getByRole('link', { name: /#sourdough/ });
    expect(link).toHaveAttribute('href', '/tags/sourdough');
    expect(link).toHaveTextContent('3 posts');
    expect(within(main()).queryByRole('tablist')).not.toBeInTheDocument();
  });

  it('searches on Enter, keeps the search in the address, and switches Latest and Top', async () => {
    signInAsMe();
    const received = mockDiscovery({ posts: [makePost({ content: 'Fresh bread today' })] });
    const { user, router } = renderApp('/search');

    await user.type(await searchBox(), 'bread{Enter}');

    expect(router.state.location.search).toBe('?q=bread');
    expect(await within(main()).findByText('Fresh bread today')).toBeInTheDocument();
    const tab = within(main()).getByRole('tab', { name: 'Posts' });
    expect(tab).toHaveAttribute('aria-selected', 'true');
    expect(within(main()).getByRole('tabpanel', { name: 'Posts' })).toBeInTheDocument();
    expect(received.posts.map((params) => params.toString())).toEqual(['q=bread&sort=latest']);

    const latest = within(main()).getByRole('button', { name: 'Latest' });
    expect(latest).toHaveAttribute('aria-pressed', 'true');
    await user.click(within(main()).getByRole('button', { name: 'Top' }));

    expect(router.state.location.search).toBe('?q=bread&sort=top');
    await waitFor(() => {
      expect(received.posts.at(-1)?.get('sort')).toBe('top');
    });
    expect(within(main()).getByRole('button', { name: 'Top' })).toHaveAttribute(
      'aria-pressed',
      'true',
    );
  });

  it('moves between Posts, Members and Tags with the arrow keys', async () => {
    signInAsMe();
    const grace = makeUser({ _id: 'u-g', id: 'u-g', username: 'grace_h', firstName: 'Grace' });
    const received = mockDiscovery({
      members: [grace],
      tags: [{ tag: 'grace', postCount: 1 }],
    });
    const { user, router } = renderApp('/search?q=grace');

    const tablist = await within(main()).findByRole('tablist', { name: 'Search results' });
    const [posts, members, tags] = within(tablist).getAllByRole('tab');
    if (!posts || !members || !tags) throw new Error('Three tabs expected.');
    expect([posts, members, tags].map((tab) => tab.textContent)).toEqual([
      'Posts',
      'Members',
      'Tags',
    ]);
    expect([posts, members, tags].map((tab) => tab.tabIndex)).toEqual([0, -1, -1]);

    posts.focus();
    await user.keyboard('{ArrowRight}');
    expect(members).toHaveFocus();
    expect(members).toHaveAttribute('aria-selected', 'true');
    expect(router.state.location.search).toBe('?q=grace&tab=members');
    const panel = within(main()).getByRole('tabpanel', { name: 'Members' });
    expect(await within(panel).findByRole('link', { name: /Grace/ })).toHaveAttribute(
      'href',
      '/profile/grace_h',
    );
    expect(within(panel).getByRole('button', { name: 'Follow' })).toBeInTheDocument();

    await user.keyboard('{ArrowRight}');
    expect(tags).toHaveFocus();
    const tagPanel = within(main()).getByRole('tabpanel', { name: 'Tags' });
    const tagLink = await within(tagPanel).findByRole('link', { name: /#grace/ });
    expect(tagLink).toHaveAttribute('href', '/tags/grace');
    expect(tagLink).toHaveTextContent('1 post');
    expect(received.tags.map((params) => params.get('q'))).toEqual(['grace']);

    await user.keyboard('{ArrowRight}');
    expect(posts).toHaveFocus();
    await user.keyboard('{ArrowLeft}');
    expect(tags).toHaveFocus();
    await user.keyboard('{Home}');
    expect(posts).toHaveFocus();
    await user.keyboard('{End}');
    expect(tags).toHaveAttribute('aria-selected', 'true');
    expect(received.members.map((params) => params.get('q'))).toEqual(['grace']);
  });

  it('follows a member from the Members tab at once', async () => {
    signIn();
    mockDirectory();
    const { user } = renderApp('/search?q=grace&tab=members');

    const panel = await within(main()).findByRole('tabpanel', { name: 'Members' });
    await user.click(await within(panel).findByRole('button', { name: 'Follow' }));

    expect(within(panel).getByRole('button', { name: 'Unfollow' })).toBeInTheDocument();
    expect(await screen.findByText('Followed @grace_h')).toBeInTheDocument();
  });

  it("shows the server's reason for a refused search under the box, not as a toast", async () => {
    signInAsMe();
    mockDiscovery({ postError: SearchErrors.unclosedQuote });
    renderApp('/search?q=%22open');

    const box = await searchBox();
    expect(box).toHaveValue('"open');
    const alert = await within(main()).findByRole('alert');
    expect(alert).toHaveTextContent(SearchErrors.unclosedQuote);
    expect(box).toHaveAttribute('aria-invalid', 'true');
    expect(box).toHaveAccessibleDescription(SearchErrors.unclosedQuote);
    expect(screen.getAllByText(SearchErrors.unclosedQuote)).toHaveLength(1);
    expect(within(main()).queryByText('Posts could not be loaded.')).not.toBeInTheDocument();
  });
});
