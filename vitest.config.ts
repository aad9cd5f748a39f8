import { defineConfig, type TestProjectConfiguration } from 'vitest/config';

const serverProject = (kind: 'sqlite' | 'postgres'): TestProjectConfiguration => ({
  extends: './apps/server/vitest.config.ts',
  root: './apps/server',
  test: { name: `server:${kind}`, env: { PERCH_TEST_DB: kind } },
});

// The server suite runs on PostgreSQL too when one is configured (or required).
const withPostgres = Boolean(process.env.TEST_DATABASE_URL) || process.env.REQUIRE_POSTGRES === '1';
if (!withPostgres) {
  console.info('TEST_DATABASE_URL is not set: the server suite runs on SQLite only.');
}

export default defineConfig({
  test: {
    projects: [
      'packages/contract',
      'apps/web',
      { test: { name: 'bench', root: './bench', include: ['**/*.test.ts'] } },
      serverProject('sqlite'),
      ...(withPostgres ? [serverProject('postgres')] : []),
    ],
  },
});
