import 'fake-indexeddb/auto';
import '@testing-library/jest-dom/vitest';
import { cleanup } from '@testing-library/react';
import { toast } from 'react-hot-toast';
import { afterAll, afterEach, beforeAll, beforeEach, vi } from 'vitest';
import { server } from './server';

/** Forgets what a test kept in (fake) IndexedDB (drafts, queued posts), so no test finds another's. */
function deleteDatabase(name: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const request = indexedDB.deleteDatabase(name);
    request.onsuccess = () => {
      resolve();
    };
    request.onerror = () => {
      reject(request.error ?? new Error(`could not delete ${name}`));
    };
  });
}

beforeAll(() => {
  server.listen({ onUnhandledRequest: 'error' });
});

beforeEach(async () => {
  window.localStorage.clear();
  await Promise.all([deleteDatabase('perch-drafts'), deleteDatabase('perch-outbox')]);
  // jsdom draws nothing: a canvas has no context, as in a browser that cannot make one.
  vi.spyOn(HTMLCanvasElement.prototype, 'getContext').mockReturnValue(null);
  // jsdom has no layout engine: provide the few browser APIs the app touches.
  vi.stubGlobal('matchMedia', (query: string): Partial<MediaQueryList> => ({
    matches: false,
    media: query,
    onchange: null,
    addEventListener: () => undefined,
    removeEventListener: () => undefined,
    dispatchEvent: () => false,
  }));
  vi.spyOn(window, 'scrollTo').mockImplementation(() => undefined);
});

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  toast.remove();
  server.resetHandlers();
});

afterAll(() => {
  server.close();
});
