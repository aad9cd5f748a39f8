import { ErrorMessages, GUEST_CREDENTIALS, type LoginBody } from '@perch/contract';
import { screen, waitFor } from '@testing-library/react';
import { delay, http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { makeUser, readStoredSession } from '../../test/fixtures';
import { renderApp } from '../../test/renderApp';
import { server } from '../../test/server';

function mockLogin(respond: (body: LoginBody) => Response | Promise<Response>) {
  const received: LoginBody[] = [];
  server.use(
    http.post('/api/auth/login', async ({ request }) => {
      const body = (await request.json()) as LoginBody;
      received.push(body);
      return respond(body);
    }),
  );
  return received;
}

describe('LoginPage', () => {
  it('asks to fill every field and sends nothing when both are empty', async () => {
    const received = mockLogin(() => HttpResponse.json({}, { status: 500 }));
    const { user, router } = renderApp('/login');

    await user.click(screen.getByRole('button', { name: 'Login' }));

    expect(await screen.findByText('Please fill all inputfields')).toBeInTheDocument();
    expect(received).toHaveLength(0);
    expect(router.state.location.pathname).toBe('/login');
  });

  it('asks to fill every field when the password is missing', async () => {
    const received = mockLogin(() => HttpResponse.json({}, { status: 500 }));
    const { user } = renderApp('/login');

    await user.type(screen.getByLabelText('Username'), 'ada');
    await user.click(screen.getByRole('button', { name: 'Login' }));

    expect(await screen.findByText('Please fill all inputfields')).toBeInTheDocument();
    expect(received).toHaveLength(0);
  });

  it('stores loginDetails, greets the member and goes home on success', async () => {
    const ada = makeUser();
    const received = mockLogin(() =>
      HttpResponse.json({ encodedToken: 'token-ada', foundUser: ada }, { status: 200 }),
    );
    const { user, router } = renderApp('/login');

    await user.type(screen.getByLabelText('Username'), 'ada');
    await user.type(screen.getByLabelText('Password'), 'correct horse');
    await user.click(screen.getByRole('button', { name: 'Login' }));

    expect(await screen.findByText('Welcome back, Ada!')).toBeInTheDocument();
    expect(await screen.findByRole('heading', { level: 1, name: 'Home' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/');
    expect(received).toEqual([{ username: 'ada', password: 'correct horse' }]);
    expect(readStoredSession()).toEqual({ token: 'token-ada', user: ada });
  });

  it('says the credentials are invalid and stores nothing on failure', async () => {
    mockLogin(() =>
      HttpResponse.json({ errors: [ErrorMessages.invalidCredentials] }, { status: 401 }),
    );
    const { user, router } = renderApp('/login');

    await user.type(screen.getByLabelText('Username'), 'ada');
    await user.type(screen.getByLabelText('Password'), 'wrong');
    await user.click(screen.getByRole('button', { name: 'Login' }));

    expect(await screen.findByText('Invalid username and password')).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/login');
    expect(readStoredSession()).toBeNull();
    expect(screen.getByRole('button', { name: 'Login' })).toBeEnabled();
  });

  it('disables both buttons while the login is in flight', async () => {
    mockLogin(async () => {
      await delay(150);
      return HttpResponse.json({ encodedToken: 't', foundUser: makeUser() });
    });
    const { user } = renderApp('/login');

    await user.type(screen.getByLabelText('Username'), 'ada');
    await user.type(screen.getByLabelText('Password'), 'secret-pass');
    await user.click(screen.getByRole('button', { name: 'Login' }));

    expect(screen.getByRole('button', { name: 'Login' })).toBeDisabled();
    expect(screen.getByRole('button', { name: 'Login as guest' })).toBeDisabled();
    expect(await screen.findByText('Welcome back, Ada!')).toBeInTheDocument();
  });

  it('fills the guest credentials and logs in as guest', async () => {
    const guest = makeUser({ username: 'guest', firstName: 'Guest', lastName: 'User' });
    const received = mockLogin(async () => {
      await delay(50);
      return HttpResponse.json({ encodedToken: 'token-guest', foundUser: guest });
    });
    const { user, router } = renderApp('/login');

    await user.click(screen.getByRole('button', { name: 'Login as guest' }));

    expect(screen.getByLabelText('Username')).toHaveValue(GUEST_CREDENTIALS.username);
    expect(screen.getByLabelText('Password')).toHaveValue(GUEST_CREDENTIALS.password);
    expect(await screen.findByText('Welcome back, Guest!')).toBeInTheDocument();
    await waitFor(() => {
      expect(router.state.location.pathname).toBe('/');
    });
    expect(received).toEqual([GUEST_CREDENTIALS]);
  });

  it('links to the signup screen', async () => {
    const { user, router } = renderApp('/login');

    await user.click(screen.getByRole('link', { name: 'Create one' }));

    expect(router.state.location.pathname).toBe('/signup');
    expect(screen.getByRole('button', { name: 'Signup' })).toBeInTheDocument();
  });
});
