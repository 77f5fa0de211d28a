import { defineConfig } from 'vitest/config';
import SlowFirstSequencer from './src/test/sequencer.ts';

// Server tests run against the embedded PGlite always, and against PostgreSQL too when
// TEST_DATABASE_URL is set (as .ci/run does): same files, two projects, one summary.
//
// Speed (docs/testing.md, "How long the suite takes"): test files share their worker process
// (isolate: false), so the app's modules and PGlite's WebAssembly are loaded once per worker
// instead of once per file; each project's test databases start from one migrated template
// (test/pglite-template.ts, test/postgres-template.ts). The files of one project are queued together (test/sequencer.ts, the
// slowest first), so that a worker is handed the next file of its own project and can be reused.
const projects = [
  {
    extends: true as const,
    test: {
      name: 'pglite',
      env: { TEST_DB: 'pglite' },
      globalSetup: ['src/test/pglite-template.ts'],
    },
  },
  ...(process.env.TEST_DATABASE_URL
    ? [{
        extends: true as const,
        test: { name: 'postgres', env: { TEST_DB: 'postgres' }, globalSetup: ['src/test/postgres-template.ts'] },
      }]
    : []),
];

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts'],
    // Ceilings, not expectations: a test that passes ends at once, and on a busy 2-core machine
    // (another lane or process on the other core) a fresh app's PGlite start and migrations have
    // taken over a minute in a setup hook. Timing is never what a test checks (docs/testing.md).
    testTimeout: 120_000,
    // No retry here (unlike the web and browser tests): many server test files build on state their
    // earlier tests left (a fleet already restarted, rows already inserted), so a second try fails
    // for that reason and can leave a shared connection in an aborted transaction for the next test.
    hookTimeout: 300_000,
    pool: 'forks',
    isolate: false,
    maxWorkers: 2,
    sequence: { sequencer: SlowFirstSequencer },
    projects,
  },
});
