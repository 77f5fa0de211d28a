import { defineConfig } from 'vitest/config';

// Server tests run against the embedded PGlite always, and against PostgreSQL too when
// TEST_DATABASE_URL is set (as .ci/run does): same files, two projects, one summary.
const projects = [
  { extends: true as const, test: { name: 'pglite', env: { TEST_DB: 'pglite' } } },
  ...(process.env.TEST_DATABASE_URL
    ? [{ extends: true as const, test: { name: 'postgres', env: { TEST_DB: 'postgres' } } }]
    : []),
];

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    maxWorkers: 2,
    projects,
  },
});
