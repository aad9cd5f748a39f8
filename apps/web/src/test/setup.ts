import 'fake-indexeddb/auto';
import '@testing-library/jest-dom/vitest';
import { cleanup } from '@testing-library/react';
import { toast } from 'react-hot-toast';
import { afterAll, afterEach, beforeAll, beforeEach, vi } from 'vitest';
import { server } from './server';

/** Forgets every draft kept in (fake) IndexedDB, so that no test finds another's. */
function deleteDrafts(): Promise<void> {
  return new Promise((resolve, reject) => {
    const request = indexedDB.deleteDatabase('perch-drafts');
    request.onsuccess = () => {
      resolve();
    };
    request.onerror = () => {
      reject(request.error ?? new Error('could not delete the drafts'));
    };
  });
}

beforeAll(() => {
  server.listen({ onUnhandledRequest: 'error' });
});

beforeEach(async () => {
  window.localStorage.clear();
  await deleteDrafts();
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
