import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { inject } from 'vitest';
import { buildApp, type App } from '../app.ts';
import { loadConfig, type Config } from '../config.ts';
import { openDatabase, type Database } from '../db/client.ts';
import { migrate } from '../db/migrate.ts';
import { createScratchDatabase } from '../db/scratch.ts';
import { users } from '../db/schema.ts';
import { ACCESS_COOKIE, REFRESH_COOKIE, startSession } from '../lib/auth.ts';
import { newId } from '../lib/ids.ts';
import { hashPassword } from '../lib/passwords.ts';

export const TEST_DB: 'pglite' | 'postgres' = process.env.TEST_DB === 'postgres' ? 'postgres' : 'pglite';

/** Creates a throwaway PostgreSQL database on TEST_DATABASE_URL (dropped by the returned cleanup). */
export async function createScratchPostgres(opts: { template?: string } = {}): Promise<{ url: string; drop: () => Promise<void> }> {
  const base = process.env.TEST_DATABASE_URL;
  if (!base) throw new Error('TEST_DATABASE_URL is not set');
  return createScratchDatabase(base, 'shop_t', opts.template);
}

/** Opens an empty, migrated database of the kind under test. */
export async function openTestDatabase(): Promise<{ database: Database; cleanup: () => Promise<void> }> {
  if (TEST_DB === 'postgres') {
    // A copy of the migrated template made once per run (test/postgres-template.ts).
    const scratch = await createScratchPostgres({ template: inject('postgresTemplate') });
    const database = await openDatabase({ databaseUrl: scratch.url, poolSize: 10 });
    await migrate(database);
    return { database, cleanup: async () => { await database.close(); await scratch.drop(); } };
  }
  const database = await openDatabase({ pgliteDir: 'memory://', pgliteLoadDataDir: pgliteTemplate() });
  await migrate(database);
  return { database, cleanup: () => database.close() };
}

let template: Blob | undefined;
/** The migrated empty database made once per run by test/pglite-template.ts (undefined outside the pglite project). */
export function pgliteTemplate(): Blob | undefined {
  const file = inject('pgliteTemplate');
  if (!file) return undefined;
  template ??= new Blob([readFileSync(file)]);
  return template;
}

export function testConfig(overrides: Record<string, string> = {}): Config {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'shop-test-'));
  return loadConfig({
    NODE_ENV: 'test',
    DATA_DIR: dataDir,
    JWT_SECRET: 'test-secret-test-secret-test-secret-123',
    LOG_LEVEL: 'silent',
    WEB_DIST_DIR: path.join(dataDir, 'no-web-build'),
    SEED_DEMO_DATA: 'false',
    AUTH_RATE_LIMIT_MAX: '1000',
    // Background jobs run only when a test calls app.ctx.jobs.runDue().
    JOBS_POLL_MS: '0',
    ...overrides,
  });
}

export interface TestApp {
  app: App;
  database: Database;
  config: Config;
  close: () => Promise<void>;
}

/** A full app on a fresh database. Call `close()` in afterAll. */
export async function createTestApp(opts: { env?: Record<string, string>; deps?: Partial<Parameters<typeof buildApp>[0]> } = {}): Promise<TestApp> {
  const { database, cleanup } = await openTestDatabase();
  const config = testConfig(opts.env);
  const app = await buildApp({ config, database, logger: false, ...opts.deps });
  await app.ready();
  return {
    app,
    database,
    config,
    close: async () => {
      await app.close();
      await cleanup();
    },
  };
}

let userCounter = 0;

export interface TestUser {
  id: string;
  name: string;
  email: string;
  password: string;
  isAdmin: boolean;
  /** Cookie header value carrying a valid session for app.inject. */
  cookie: string;
  accessToken: string;
  refreshToken: string;
}

/** Inserts a user directly and starts a session for it, without going through the sign-in route. */
export async function createUser(t: TestApp, opts: { isAdmin?: boolean; name?: string; email?: string; password?: string } = {}): Promise<TestUser> {
  userCounter += 1;
  const id = newId();
  const name = opts.name ?? `User ${userCounter}`;
  const email = (opts.email ?? `user${userCounter}-${id.slice(-6)}@example.com`).toLowerCase();
  const password = opts.password ?? 'password123';
  await t.database.db.insert(users).values({ id, name, email, passwordHash: await hashPassword(password), isAdmin: opts.isAdmin ?? false });
  const session = await startSession(t.database.db, { signer: t.app.ctx.signer, refreshTokenTtlDays: t.config.refreshTokenTtlDays }, id);
  return {
    id, name, email, password, isAdmin: opts.isAdmin ?? false,
    accessToken: session.accessToken,
    refreshToken: session.refreshToken,
    cookie: `${ACCESS_COOKIE}=${session.accessToken}; ${REFRESH_COOKIE}=${session.refreshToken}`,
  };
}

export const createAdmin = (t: TestApp, opts: { name?: string; email?: string } = {}) => createUser(t, { ...opts, isAdmin: true });
