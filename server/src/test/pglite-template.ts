import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { openDatabase } from '../db/client.ts';
import { migrate } from '../db/migrate.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    /** A migrated, empty PGlite data directory (dumpDataDir tarball) that openTestDatabase starts from. */
    pgliteTemplate: string;
    /** A migrated, empty PostgreSQL database on TEST_DATABASE_URL's server that openTestDatabase copies. */
    postgresTemplate: string;
  }
}

/**
 * Global setup of the pglite project: migrates one empty PGlite database once per run and hands its
 * data directory to the test files, so each test database is a copy (about 1 s of CPU) instead of a
 * new initdb plus every migration (about 3 s). openTestDatabase still runs migrate() on the copy, which
 * finds every migration applied.
 */
export default async function setup(project: TestProject): Promise<() => void> {
  const dir = mkdtempSync(path.join(tmpdir(), 'shop-pglite-template-'));
  const file = path.join(dir, 'pgdata.tar');
  const database = await openDatabase({ pgliteDir: 'memory://' });
  try {
    await migrate(database);
    if (!database.dumpDataDir) throw new Error('the template database is not a PGlite one');
    writeFileSync(file, Buffer.from(await (await database.dumpDataDir()).arrayBuffer()));
  } finally {
    await database.close();
  }
  project.provide('pgliteTemplate', file);
  return () => rmSync(dir, { recursive: true, force: true });
}
