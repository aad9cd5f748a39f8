import { PASSWORD_MISMATCH, type SignupBody } from '@perch/contract';
import { screen } from '@testing-library/react';
import type { UserEvent } from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { makeUser, readStoredSession } from '../../test/fixtures';
import { renderApp } from '../../test/renderApp';
import { server } from '../../test/server';

function mockSignup(respond: (body: SignupBody) => Response) {
  const received: SignupBody[] = [];
  server.use(
    http.post('/api/auth/signup', async ({ request }) => {
      const body = (await request.json()) as SignupBody;
      received.push(body);
      return respond(body);
    }),
  );
  return received;
}

async function fillForm(user: UserEvent, overrides: Partial<SignupBody> = {}) {
  const values: SignupBody = {
    firstName: 'Ada',
    lastName: 'Lovelace',
    email: 'ada@example.com',
    username: 'ada',
    password: 'analytical-engine',
    confirmPassword: 'analytical-engine',
    ...overrides,
  };
  await user.type(screen.getByLabelText('First Name'), values.firstName);
  await user.type(screen.getByLabelText('Last Name'), values.lastName);
  await user.type(screen.getByLabelText('Email'), values.email);
  await user.type(screen.getByLabelText('Username'), values.username);
  await user.type(screen.getByLabelText('Password'), values.password);
  await user.type(screen.getByLabelText('Confirm Password'), values.confirmPassword);
  return values;
}

describe('SignupPage', () => {
  it('marks every field required and the email as an email', () => {
    renderApp('/signup');
    for (const label of [
      'First Name',
      'Last Name',
      'Email',
      'Username',
      'Password',
      'Confirm Password',
    ]) {
      expect(screen.getByLabelText(label)).toBeRequired();
    }
    expect(screen.getByLabelText('Email')).toHaveAttribute('type', 'email');
  });

  it('reports a password mismatch and sends nothing', async () => {
    const received = mockSignup(() => HttpResponse.json({}, { status: 500 }));
    const { user, router } = renderApp('/signup');

    await fillForm(user, { confirmPassword: 'something-else' });
    await user.click(screen.getByRole('button', { name: 'Signup' }));

    expect(await screen.findByText(PASSWORD_MISMATCH)).toBeInTheDocument();
    expect(received).toHaveLength(0);
    expect(router.state.location.pathname).toBe('/signup');
    expect(readStoredSession()).toBeNull();
  });

  it('stores the session, greets the member and goes home on success', async () => {
    const ada = makeUser();
    const received = mockSignup(() =>
      HttpResponse.json({ encodedToken: 'token-new', createdUser: ada }, { status: 201 }),
    );
    const { user, router } = renderApp('/signup');

    const values = await fillForm(user);
    await user.click(screen.getByRole('button', { name: 'Signup' }));

    expect(await screen.findByText('Hey! Ada')).toBeInTheDocument();
    expect(await screen.findByRole('heading', { level: 1, name: 'Home' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/');
    expect(received).toEqual([values]);
    expect(readStoredSession()).toEqual({ token: 'token-new', user: ada });
  });

  it("says signup failed and shows the server's reason", async () => {
    mockSignup(() =>
      HttpResponse.json({ errors: ['Password must be at least 8 characters.'] }, { status: 400 }),
    );
    const { user, router } = renderApp('/signup');

    await fillForm(user, { password: 'short', confirmPassword: 'short' });
    await user.click(screen.getByRole('button', { name: 'Signup' }));

    expect(await screen.findByText('There was an error signing you up')).toBeInTheDocument();
    expect(screen.getByRole('alert')).toHaveTextContent('Password must be at least 8 characters.');
    expect(router.state.location.pathname).toBe('/signup');
    expect(readStoredSession()).toBeNull();
  });

  it('links to the login screen', async () => {
    const { user, router } = renderApp('/signup');
    await user.click(screen.getByRole('link', { name: 'Log in' }));
    expect(router.state.location.pathname).toBe('/login');
  });
});
