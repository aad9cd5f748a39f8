import { defineConfig } from 'vitest/config';

/**
 * Browser tests: the real built server (API + web app) on a free port with a fresh data
 * directory, driven by Chromium. Build first (`npm run build` at the repository root).
 */
export default defineConfig({
  test: {
    name: 'web-e2e',
    environment: 'node',
    include: ['e2e/**/*.e2e.ts'],
    globalSetup: ['e2e/global-setup.ts'],
    fileParallelism: false,
    testTimeout: 60_000,
    hookTimeout: 120_000,
    teardownTimeout: 30_000,
    retry: 0,
  },
});
