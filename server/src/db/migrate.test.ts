import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { newId } from '../lib/ids.ts';
import { createScratchPostgres, TEST_DB } from '../test/test-app.ts';
import { openDatabase, type Database } from './client.ts';
import { listMigrations, migrate } from './migrate.ts';
import { users } from './schema.ts';

const ALL = listMigrations().map((m) => m.name);
const appliedNames = async (database: Database) =>
  (await database.query<{ name: string }>('SELECT name FROM schema_migrations ORDER BY name')).map((r) => r.name);

describe(`migrations on ${TEST_DB}`, () => {
  it('finds the migration files in order', () => {
    expect(ALL[0]).toBe('0001_foundation.sql');
    expect([...ALL].sort()).toEqual(ALL);
  });

  it.runIf(TEST_DB === 'pglite')('apply once on PGlite: a second run on the same database applies nothing', async () => {
    const database = await openDatabase({ pgliteDir: 'memory://' });
    try {
      expect(await migrate(database)).toEqual(ALL);
      expect(await migrate(database)).toEqual([]);
      expect(await appliedNames(database)).toEqual(ALL);
    } finally {
      await database.close();
    }
  });

  it.runIf(TEST_DB === 'pglite')('a PGlite data directory reopened keeps its data and needs no migration', async () => {
    const dir = path.join(mkdtempSync(path.join(tmpdir(), 'shop-pglite-')), 'pglite');
    const id = newId();
    const first = await openDatabase({ pgliteDir: dir });
    expect(await migrate(first)).toEqual(ALL);
    await first.db.insert(users).values({ id, name: 'Persisted', email: 'persisted@example.com', passwordHash: 'x' });
    await first.close();

    const second = await openDatabase({ pgliteDir: dir });
    try {
      expect(await migrate(second)).toEqual([]);
      const [row] = await second.db.select().from(users).where(eq(users.id, id));
      expect(row?.name).toBe('Persisted');
    } finally {
      await second.close();
    }
  }, 120_000);

  it.runIf(TEST_DB === 'postgres')('apply once on PostgreSQL: a second run applies nothing, and concurrent starts migrate once', async () => {
    const scratch = await createScratchPostgres();
    const a = await openDatabase({ databaseUrl: scratch.url, poolSize: 2 });
    const b = await openDatabase({ databaseUrl: scratch.url, poolSize: 2 });
    try {
      // two instances starting together: the advisory lock serialises them
      const [ra, rb] = await Promise.all([migrate(a), migrate(b)]);
      expect([...ra, ...rb].sort()).toEqual(ALL);
      expect(await migrate(a)).toEqual([]);
      expect(await migrate(b)).toEqual([]);
      expect(await appliedNames(a)).toEqual(ALL);
    } finally {
      await a.close();
      await b.close();
      await scratch.drop();
    }
  });

  it.runIf(TEST_DB === 'postgres')('a reopened PostgreSQL database keeps its data and needs no migration', async () => {
    const scratch = await createScratchPostgres();
    const id = newId();
    try {
      const first = await openDatabase({ databaseUrl: scratch.url, poolSize: 2 });
      expect(await migrate(first)).toEqual(ALL);
      await first.db.insert(users).values({ id, name: 'Persisted', email: 'persisted@example.com', passwordHash: 'x' });
      await first.close();
      const second = await openDatabase({ databaseUrl: scratch.url, poolSize: 2 });
      expect(await migrate(second)).toEqual([]);
      const [row] = await second.db.select().from(users).where(eq(users.id, id));
      expect(row?.name).toBe('Persisted');
      await second.close();
    } finally {
      await scratch.drop();
    }
  });
});
