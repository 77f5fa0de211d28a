import type { TestProject } from 'vitest/node';
import { openDatabase } from '../db/client.ts';
import { migrate } from '../db/migrate.ts';
import { createScratchDatabase } from '../db/scratch.ts';
import './pglite-template.ts';

/**
 * Global setup of the postgres project: migrates one scratch database once per run; openTestDatabase
 * creates each test database as a copy of it (CREATE DATABASE ... TEMPLATE), which is several times
 * faster than running every migration again. It still runs migrate() on the copy, which finds every
 * migration applied.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const base = process.env.TEST_DATABASE_URL;
  if (!base) throw new Error('TEST_DATABASE_URL is not set');
  const template = await createScratchDatabase(base, 'shop_tpl');
  const database = await openDatabase({ databaseUrl: template.url, poolSize: 1 });
  try {
    await migrate(database);
  } finally {
    await database.close();
  }
  project.provide('postgresTemplate', new URL(template.url).pathname.slice(1));
  return template.drop;
}
