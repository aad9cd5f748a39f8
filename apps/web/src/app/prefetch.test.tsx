import { screen, waitFor } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { mockFeeds, signInAsMe } from '../entities/post/posts.mocks';
import { isReloading } from '../shared/lib/reloading';
import { loadSchemas } from '../shared/lib/schemas';
import type * as SchemasModule from '../shared/lib/schemas';
import { readStoredSession } from '../test/fixtures';
import { renderApp } from '../test/renderApp';
import { server } from '../test/server';
import { screens } from './screens';

vi.mock('../shared/lib/schemas', async (importOriginal) => {
  const actual = await importOriginal<typeof SchemasModule>();
  return { ...actual, loadSchemas: vi.fn(actual.loadSchemas) };
});

vi.mock('../shared/lib/reloading', () => ({
  isReloading: vi.fn(() => false),
  markReloading: vi.fn(),
}));

/** The browser's idle callbacks, run when the test says so. */
function idleQueue() {
  const waiting: (() => void)[] = [];
  vi.stubGlobal('requestIdleCallback', (task: () => void) => waiting.push(task));
  vi.stubGlobal('cancelIdleCallback', (handle: number) => {
    waiting[handle - 1] = () => undefined;
  });
  /** Runs what waits now and what that queued in turn, until nothing is left. */
  return async () => {
    // The queue grows while it runs: the iterator reaches what was added.
    for (const task of waiting) {
      task();
      // Each screen's fetch settles before the next one is queued.
      await new Promise((resolve) => setTimeout(resolve, 0));
    }
  };
}

describe('what loads after the first screen', () => {
  beforeEach(() => {
    vi.mocked(loadSchemas).mockClear();
    vi.mocked(isReloading).mockReturnValue(false);
  });

  it('a visitor on the login page gets the response schemas only once they start on the form', async () => {
    const runIdle = idleQueue();
    const { user } = renderApp('/login');
    const username = await screen.findByLabelText('Username');
    await runIdle();
    expect(loadSchemas).not.toHaveBeenCalled();

    await user.click(username);

    expect(loadSchemas).toHaveBeenCalledTimes(1);
  });

  it('a tap outside the screen, on a toast, is not a start on the form', async () => {
    const runIdle = idleQueue();
    const { user } = renderApp('/login');
    await screen.findByLabelText('Username');
    const toastButton = document.createElement('button');
    toastButton.textContent = 'Reload';
    document.body.append(toastButton);
    try {
      await user.click(toastButton);
      await runIdle();
      expect(loadSchemas).not.toHaveBeenCalled();
    } finally {
      toastButton.remove();
    }
  });

  it('preloads nothing more once the page is reloading into a new version', async () => {
    const preloads = (['explore', 'notifications', 'profile'] as const).map((name) =>
      vi.spyOn(screens[name], 'preload'),
    );
    const runIdle = idleQueue();
    signInAsMe();
    mockFeeds({ home: [] });
    renderApp('/');
    await screen.findByRole('heading', { level: 1, name: 'Home' });
    vi.mocked(isReloading).mockReturnValue(true);

    await runIdle();

    for (const preload of preloads) expect(preload).not.toHaveBeenCalled();
  });

  it('a signed-in member gets the likely next screens when the browser is idle', async () => {
    const preloads = (['explore', 'notifications', 'profile', 'post', 'search'] as const).map(
      (name) => vi.spyOn(screens[name], 'preload'),
    );
    const runIdle = idleQueue();
    signInAsMe();
    mockFeeds({ home: [] });
    renderApp('/');
    await screen.findByRole('heading', { level: 1, name: 'Home' });
    for (const preload of preloads) expect(preload).not.toHaveBeenCalled();

    await runIdle();

    for (const preload of preloads) expect(preload).toHaveBeenCalledTimes(1);
  });

  it('still refuses a login answer that does not fit the schema, once the schemas arrive', async () => {
    server.use(
      http.post('/api/auth/login', () => HttpResponse.json({ encodedToken: 42 }, { status: 200 })),
    );
    const { user } = renderApp('/login');
    await user.type(await screen.findByLabelText('Username'), 'ada');
    await user.type(screen.getByLabelText('Password'), 'correct horse');
    await user.click(screen.getByRole('button', { name: 'Login' }));

    expect(await screen.findByText('Invalid username and password')).toBeInTheDocument();
    await waitFor(() => {
      expect(screen.getByRole('button', { name: 'Login' })).toBeEnabled();
    });
    expect(readStoredSession()).toBeNull();
  });
});
