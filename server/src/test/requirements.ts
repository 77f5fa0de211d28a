import { TEST_DB } from './test-app.ts';

/**
 * Why a test that needs a shared PostgreSQL database is skipped here, or undefined when it runs.
 * Such tests run once, in the postgres project; without TEST_DATABASE_URL they are skipped with
 * this reason printed.
 */
export function postgresOnlySkipReason(): string | undefined {
  if (!process.env.TEST_DATABASE_URL) return 'needs PostgreSQL: set TEST_DATABASE_URL';
  if (TEST_DB !== 'postgres') return 'runs in the postgres project';
  return undefined;
}

