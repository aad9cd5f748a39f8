import { screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { makeUser, storeSession } from '../../test/fixtures';
import { renderApp } from '../../test/renderApp';
import { server } from '../../test/server';
import { leavePage } from './AuthorizePage';

const ada = makeUser({ username: 'ada_l' });
const QUERY =
  '?response_type=code&client_id=c1&redirect_uri=https%3A%2F%2Fclient.example%2Fcb&scope=read+write&state=s1';

function signIn() {
  storeSession({ token: 'token-ada', user: ada });
  server.use(http.get('/api/auth/me', () => HttpResponse.json({ user: ada })));
}

/** The server's side: describes the request, records the answers and sends `answer` back. */
function mockAuthorization(
  answer = (decision: string) => ({
    redirectUrl: `https://client.example/cb?${decision === 'approve' ? 'code=abc' : 'error=access_denied'}&state=s1`,
    code: null as string | null,
  }),
) {
  const decisions: Record<string, unknown>[] = [];
  server.use(
    http.get('/api/oauth/authorization', ({ request }) => {
      const url = new URL(request.url);
      expect(url.searchParams.get('client_id')).toBe('c1');
      return HttpResponse.json({
        app: { name: 'Toot Client', website: 'https://client.example' },
        scopes: ['read', 'write'],
        outOfBand: false,
      });
    }),
    http.post('/api/oauth/authorization', async ({ request }) => {
      expect(request.headers.get('authorization')).toBe('token-ada');
      const body = (await request.json()) as Record<string, unknown>;
      decisions.push(body);
      return HttpResponse.json(answer(String(body.decision)));
    }),
  );
  return decisions;
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe('authorizing an app', () => {
  it('asks a signed-out visitor to log in first', async () => {
    mockAuthorization();
    renderApp(`/oauth/authorize${QUERY}`);
    expect(await screen.findByRole('heading', { name: 'Welcome back' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Authorize' })).not.toBeInTheDocument();
  });

  it('names the app and the scopes, and sends the member back with the code on Authorize', async () => {
    signIn();
    const decisions = mockAuthorization();
    const leave = vi.spyOn(leavePage, 'to').mockImplementation(() => undefined);
    const { user } = renderApp(`/oauth/authorize${QUERY}`);

    expect(await screen.findByRole('heading', { name: 'Toot Client' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'https://client.example' })).toBeVisible();
    const scopes = within(screen.getByRole('list', { name: 'Permissions' })).getAllByRole(
      'listitem',
    );
    expect(scopes.map((item) => item.textContent)).toEqual([
      expect.stringMatching(/^read — Read your account/),
      expect.stringMatching(/^write — Post, reply/),
    ]);

    await user.click(screen.getByRole('button', { name: 'Authorize' }));
    await waitFor(() => {
      expect(leave).toHaveBeenCalledWith('https://client.example/cb?code=abc&state=s1');
    });
    expect(decisions).toEqual([
      expect.objectContaining({
        decision: 'approve',
        client_id: 'c1',
        redirect_uri: 'https://client.example/cb',
        scope: 'read write',
        state: 's1',
      }),
    ]);
  });

  it('sends the member back with access_denied on Deny', async () => {
    signIn();
    const decisions = mockAuthorization();
    const leave = vi.spyOn(leavePage, 'to').mockImplementation(() => undefined);
    const { user } = renderApp(`/oauth/authorize${QUERY}`);
    await user.click(await screen.findByRole('button', { name: 'Deny' }));
    await waitFor(() => {
      expect(leave).toHaveBeenCalledWith('https://client.example/cb?error=access_denied&state=s1');
    });
    expect(decisions[0]).toMatchObject({ decision: 'deny' });
  });

  it('shows the code when the app asked for it out of band', async () => {
    signIn();
    mockAuthorization(() => ({ redirectUrl: null, code: 'the-code-123' }));
    const leave = vi.spyOn(leavePage, 'to').mockImplementation(() => undefined);
    const { user } = renderApp(`/oauth/authorize${QUERY}`);
    await user.click(await screen.findByRole('button', { name: 'Authorize' }));
    expect(await screen.findByText('the-code-123')).toBeInTheDocument();
    expect(leave).not.toHaveBeenCalled();
  });

  it('says why a request cannot be shown', async () => {
    signIn();
    server.use(
      http.get('/api/oauth/authorization', () =>
        HttpResponse.json(
          {
            errors: [
              "The requested redirect uri is malformed or doesn't match client redirect URI.",
            ],
          },
          { status: 400 },
        ),
      ),
    );
    renderApp(`/oauth/authorize${QUERY}`);
    expect(await screen.findByRole('alert')).toHaveTextContent(/redirect uri is malformed/);
    expect(screen.queryByRole('button', { name: 'Authorize' })).not.toBeInTheDocument();
  });
});
