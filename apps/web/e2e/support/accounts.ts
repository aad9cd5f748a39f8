import { signupResponseSchema, type SignupBody } from '@perch/contract';
import type { Page } from 'playwright-core';
import { atPath, visible, visit } from './app';

export interface TestAccount {
  firstName: string;
  lastName: string;
  username: string;
  password: string;
}

let created = 0;

/** A member nobody has used yet (unique per run and per call). */
export function newAccount(prefix: string): TestAccount {
  created += 1;
  const suffix = `${Date.now().toString(36)}${String(created)}`;
  return {
    firstName: 'Mira',
    lastName: 'Test',
    username: `${prefix}_${suffix}`.slice(0, 30),
    password: `perch-e2e-${suffix}`,
  };
}

/**
 * Creates the member through the API (the signup screen has its own tests), then ends the
 * session signup opened, so that only the browsers' own logins are the member's devices.
 */
export async function signUpThroughApi(baseURL: string, account: TestAccount): Promise<void> {
  const body: SignupBody = {
    ...account,
    email: `${account.username}@example.com`,
    confirmPassword: account.password,
  };
  const response = await fetch(`${baseURL}/api/auth/signup`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  if (response.status !== 201) {
    throw new Error(`Signup answered ${String(response.status)}: ${await response.text()}`);
  }
  const { encodedToken } = signupResponseSchema.parse(await response.json());
  const logout = await fetch(`${baseURL}/api/auth/logout`, {
    method: 'POST',
    headers: { authorization: encodedToken },
  });
  if (logout.status !== 204) throw new Error(`Logout answered ${String(logout.status)}.`);
}

/** Fills the login form with the credentials and submits it (the outcome is the caller's). */
export async function submitLogin(page: Page, username: string, password: string): Promise<void> {
  await visit(page, '/login');
  await page.getByLabel('Username', { exact: true }).fill(username);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Login', exact: true }).click();
}

/** Logs in through the login screen and waits for Home. */
export async function logIn(page: Page, username: string, password: string): Promise<void> {
  await submitLogin(page, username, password);
  await atPath(page, '/');
  await visible(page.getByRole('heading', { level: 1, name: 'Home', exact: true }));
}
