import { defineConfig } from 'vitest/config';

// Server tests run against the embedded PGlite always, and against PostgreSQL too when
// TEST_DATABASE_URL is set (as .ci/run does): same files, two projects, one summary.
//
// Speed (docs/testing.md, "How long the suite takes"): test files share their worker process
// (isolate: false), so the app's modules and PGlite's WebAssembly are loaded once per worker
// instead of once per file; the pglite project's databases start from one migrated template
// (test/pglite-template.ts). The two projects run one after the other (groupOrder), so that a
// worker is handed the next file of its own project and can be reused.
const projects = [
  {
    extends: true as const,
    test: {
      name: 'pglite',
      env: { TEST_DB: 'pglite' },
      globalSetup: ['src/test/pglite-template.ts'],
      sequence: { groupOrder: 0 },
    },
  },
  ...(process.env.TEST_DATABASE_URL
    ? [{ extends: true as const, test: { name: 'postgres', env: { TEST_DB: 'postgres' }, sequence: { groupOrder: 1 } } }]
    : []),
];

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    isolate: false,
    maxWorkers: 2,
    projects,
  },
});
