import { ErrorMessages } from '@perch/contract';
import { screen, waitFor, within } from '@testing-library/react';
import { delay, http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { apiRequest } from '../../shared/lib/api';
import { makeUser, readStoredSession, storeSession } from '../../test/fixtures';
import { renderApp } from '../../test/renderApp';
import { server } from '../../test/server';

function mockMe(respond: (authorization: string | null) => Response) {
  const seen: (string | null)[] = [];
  server.use(
    http.get('/api/auth/me', ({ request }) => {
      const authorization = request.headers.get('authorization');
      seen.push(authorization);
      return respond(authorization);
    }),
  );
  return seen;
}

describe('route protection', () => {
  it.each(['/', '/explore', '/bookmarks', '/likedPost', '/profile/ada'])(
    'redirects %s to /login without a token',
    async (path) => {
      const { router } = renderApp(path);

      expect(await screen.findByRole('button', { name: 'Login' })).toBeInTheDocument();
      expect(router.state.location.pathname).toBe('/login');
    },
  );

  it('shows the 404 page for unknown paths, with links home', async () => {
    const { user, router } = renderApp('/no/such/page');

    expect(screen.getByRole('heading', { name: 'Page not found' })).toBeInTheDocument();
    expect(
      screen.getByText("Sorry, we couldn't find the page you're looking for."),
    ).toBeInTheDocument();
    expect(screen.getByRole('link', { name: /Contact support/ })).toHaveAttribute('href', '/');

    await user.click(screen.getByRole('link', { name: 'Go back home' }));
    // Home needs a session, so a visitor ends on the login screen.
    await waitFor(() => {
      expect(router.state.location.pathname).toBe('/login');
    });
  });
});

describe('session restored at start-up', () => {
  it('is checked with /api/auth/me and kept when the server accepts it', async () => {
    const stored = makeUser();
    const fresh = makeUser({ firstName: 'Augusta', postsCount: 3 });
    storeSession({ token: 'token-ok', user: stored });
    const seen = mockMe(() => HttpResponse.json({ user: fresh }));
    const { router } = renderApp('/');

    expect(await screen.findByRole('heading', { level: 1, name: 'Home' })).toBeInTheDocument();
    await waitFor(() => {
      expect(readStoredSession()).toEqual({ token: 'token-ok', user: fresh });
    });
    expect(seen).toEqual(['token-ok']);
    expect(router.state.location.pathname).toBe('/');
    expect(await screen.findAllByText('Augusta Lovelace')).not.toHaveLength(0);
  });

  it.each([
    [401, ErrorMessages.invalidToken],
    [404, ErrorMessages.notRegistered],
  ])('is cleared and sends the visitor to /login when /me answers %i', async (status, message) => {
    storeSession({ token: 'token-stale', user: makeUser() });
    mockMe(() => HttpResponse.json({ errors: [message] }, { status }));
    const { router } = renderApp('/bookmarks');

    await waitFor(() => {
      expect(router.state.location.pathname).toBe('/login');
    });
    expect(readStoredSession()).toBeNull();
    expect(await screen.findByRole('button', { name: 'Login' })).toBeInTheDocument();
  });

  it('gets the session cookie once the server accepts it', async () => {
    const ada = makeUser();
    storeSession({ token: 'token-ok', user: ada });
    const order: string[] = [];
    mockMe(() => {
      order.push('me');
      return HttpResponse.json({ user: ada });
    });
    server.use(
      http.post('/api/auth/session', ({ request }) => {
        order.push(`session ${request.headers.get('authorization') ?? ''}`);
        return new HttpResponse(null, { status: 204 });
      }),
    );
    renderApp('/');

    await waitFor(() => {
      expect(order).toEqual(['me', 'session token-ok']);
    });
  });

  it('is confirmed even when the session cookie cannot be set', async () => {
    const ada = makeUser();
    storeSession({ token: 'token-ok', user: ada });
    mockMe(() => HttpResponse.json({ user: ada }));
    server.use(
      http.post('/api/auth/session', () =>
        HttpResponse.json({ errors: ['Internal server error'] }, { status: 500 }),
      ),
    );
    const { router } = renderApp('/login');

    // Only a confirmed session leaves /login by itself.
    expect(await screen.findByRole('heading', { level: 1, name: 'Home' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/');
    expect(readStoredSession()).toEqual({ token: 'token-ok', user: ada });
  });

  it('is kept when the server cannot be reached', async () => {
    const ada = makeUser();
    storeSession({ token: 'token-offline', user: ada });
    const seen = mockMe(() => HttpResponse.error());
    const { router } = renderApp('/explore');

    await waitFor(() => {
      expect(seen).toHaveLength(1);
    });
    expect(screen.getByRole('heading', { level: 1, name: 'Explore' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/explore');
    expect(readStoredSession()).toEqual({ token: 'token-offline', user: ada });
  });

  it('sends a confirmed member away from /login to /', async () => {
    const ada = makeUser();
    storeSession({ token: 'token-ok', user: ada });
    mockMe(() => HttpResponse.json({ user: ada }));
    const { router } = renderApp('/login');

    expect(await screen.findByRole('heading', { level: 1, name: 'Home' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/');
  });

  it('ignores a malformed record', async () => {
    window.localStorage.setItem('loginDetails', '{"token":42}');
    const { router } = renderApp('/');

    expect(await screen.findByRole('button', { name: 'Login' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/login');
    expect(readStoredSession()).toBeNull();
  });

  it('is cleared when any authenticated call answers 401', async () => {
    storeSession({ token: 'token-live', user: makeUser() });
    mockMe(() => HttpResponse.json({ user: makeUser() }));
    server.use(
      http.get('/api/posts', () =>
        HttpResponse.json({ errors: [ErrorMessages.invalidToken] }, { status: 401 }),
      ),
    );
    const { router } = renderApp('/');
    expect(await screen.findByRole('heading', { level: 1, name: 'Home' })).toBeInTheDocument();

    await expect(apiRequest('/api/posts', { token: 'token-live' })).rejects.toMatchObject({
      status: 401,
    });

    await waitFor(() => {
      expect(router.state.location.pathname).toBe('/login');
    });
    expect(readStoredSession()).toBeNull();
  });
});

describe('signed-in layout', () => {
  it('shows the member, links to their profile and logs out from the account menu', async () => {
    const ada = makeUser();
    storeSession({ token: 'token-ada', user: ada });
    mockMe(() => HttpResponse.json({ user: ada }));
    const { user, router } = renderApp('/');

    const sidebar = await screen.findByRole('complementary', { name: 'Sidebar' });
    expect(within(sidebar).getByText('Ada Lovelace')).toBeInTheDocument();
    expect(within(sidebar).getByText('@ada')).toBeInTheDocument();
    expect(within(sidebar).getByRole('link', { name: 'Profile' })).toHaveAttribute(
      'href',
      '/profile/ada',
    );

    const toggle = within(sidebar).getByRole('button', { name: 'Account menu' });
    await user.click(toggle);
    expect(toggle).toHaveAttribute('aria-expanded', 'true');
    expect(within(sidebar).getByRole('button', { name: 'Log out' })).toBeInTheDocument();

    // A click anywhere else closes the menu.
    await user.click(screen.getByRole('heading', { level: 1, name: 'Home' }));
    expect(within(sidebar).queryByRole('button', { name: 'Log out' })).not.toBeInTheDocument();
    expect(toggle).toHaveAttribute('aria-expanded', 'false');

    await user.click(toggle);
    await user.click(within(sidebar).getByRole('button', { name: 'Log out' }));

    expect(await screen.findByText('Logged out successfully!')).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/login');
    expect(readStoredSession()).toBeNull();
  });

  it('tells the server on logout without waiting for its answer', async () => {
    const ada = makeUser();
    storeSession({ token: 'token-ada', user: ada });
    mockMe(() => HttpResponse.json({ user: ada }));
    const logouts: (string | null)[] = [];
    server.use(
      http.post('/api/auth/logout', async ({ request }) => {
        logouts.push(request.headers.get('authorization'));
        await delay('infinite');
        return new HttpResponse(null, { status: 204 });
      }),
    );
    const { user, router } = renderApp('/');

    const bar = await screen.findByRole('navigation', { name: 'Quick navigation' });
    await user.click(within(bar).getByRole('button', { name: 'Account menu' }));
    await user.click(within(bar).getByRole('button', { name: 'Log out' }));

    expect(await screen.findByText('Logged out successfully!')).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/login');
    expect(readStoredSession()).toBeNull();
    expect(logouts).toEqual(['token-ada']);
  });

  it('opens the Create Post modal and closes it with its X', async () => {
    const ada = makeUser();
    storeSession({ token: 'token-ada', user: ada });
    mockMe(() => HttpResponse.json({ user: ada }));
    const { user } = renderApp('/');

    const sidebar = await screen.findByRole('complementary', { name: 'Sidebar' });
    const opener = within(sidebar).getByRole('button', { name: 'Create a new Post' });
    await user.click(opener);

    const dialog = screen.getByRole('dialog', { name: 'Create Post' });
    await user.click(within(dialog).getByRole('button', { name: 'Close' }));

    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(opener).toHaveFocus();
  });

  it('labels every bottom-bar icon', async () => {
    const ada = makeUser();
    storeSession({ token: 'token-ada', user: ada });
    mockMe(() => HttpResponse.json({ user: ada }));
    renderApp('/');

    const bar = await screen.findByRole('navigation', { name: 'Quick navigation' });
    const names = [...within(bar).getAllByRole('link'), ...within(bar).getAllByRole('button')].map(
      (element) => element.getAttribute('aria-label'),
    );
    expect(names.sort()).toEqual(
      [
        'Bookmarks',
        'Explore',
        'Home',
        'Account menu',
        'Liked posts',
        'New post',
        'Notifications',
        'Profile',
        'Search',
      ].sort(),
    );
  });
});
