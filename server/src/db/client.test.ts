import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postgresOnlySkipReason } from '../test/requirements.ts';
import { createScratchPostgres } from '../test/test-app.ts';
import { openDatabase, PGLITE_SHARED_BUFFERS, pgliteWasmModule, type Database } from './client.ts';
import { migrate } from './migrate.ts';
import { products } from './schema.ts';

const skip = postgresOnlySkipReason();

/** What this connection has prepared (a pool of one, so every query shares the connection). */
async function preparedOnConnection(database: Database): Promise<string[]> {
  const rows = await database.query<{ name: string }>('select name from pg_prepared_statements where name <> $1', ['']);
  return rows.map((r) => r.name);
}

describe.skipIf(skip)('PostgreSQL client: parameterised queries as prepared statements', () => {
  let scratch: { url: string; drop: () => Promise<void> };
  beforeAll(async () => {
    scratch = await createScratchPostgres();
    const database = await openDatabase({ databaseUrl: scratch.url, poolSize: 1 });
    await migrate(database);
    await database.close();
  });
  afterAll(async () => { await scratch?.drop(); });

  it('prepares a repeated query once per connection, under a name derived from its text', async () => {
    const database = await openDatabase({ databaseUrl: scratch.url, poolSize: 1 });
    try {
      const bySlug = (slug: string) => database.db.select({ id: products.id }).from(products).where(eq(products.slug, slug));
      await bySlug('a');
      await bySlug('b');
      await database.db.execute(sql`select ${1}::int + 1 as n`);
      const names = await preparedOnConnection(database);
      // The slug query (twice, one statement), the raw query and the probe itself.
      expect(names.filter((n) => n.startsWith('q'))).toHaveLength(3);
      // Same text, different values: still answers each one.
      expect(await bySlug('missing')).toEqual([]);
      expect((await preparedOnConnection(database)).length).toBe(names.length);
      // Queries without parameters and multi-statement text run unprepared.
      await database.exec('select 1; select 2');
      await database.db.execute(sql`select 1`);
      expect((await preparedOnConnection(database)).length).toBe(names.length);
    } finally {
      await database.close();
    }
  });

  it('can be turned off (poolers in transaction mode)', async () => {
    const database = await openDatabase({ databaseUrl: scratch.url, poolSize: 1, preparedStatements: false });
    try {
      await database.db.select({ id: products.id }).from(products).where(eq(products.slug, 'a'));
      expect(await preparedOnConnection(database)).toEqual([]);
    } finally {
      await database.close();
    }
  });

  it('keeps transactions on one connection working with prepared statements', async () => {
    const database = await openDatabase({ databaseUrl: scratch.url, poolSize: 2 });
    try {
      const n = await database.db.transaction(async (tx) => {
        const first = await tx.execute(sql`select ${41}::int + 1 as n`);
        const again = await tx.execute(sql`select ${41}::int + 1 as n`);
        return [first, again].map((r) => Number((r as unknown as { rows: Array<{ n: number }> }).rows[0]?.n));
      });
      expect(n).toEqual([42, 42]);
    } finally {
      await database.close();
    }
  });
});

describe('PGlite client: buffer cache', () => {
  const sharedBuffers = async (database: Database) =>
    (await database.query<{ shared_buffers: string }>('show shared_buffers'))[0]?.shared_buffers;

  it("starts PostgreSQL with the shop's shared_buffers, not PGlite 0.3's fixed 128MB", async () => {
    const database = await openDatabase({ pgliteDir: 'memory://' });
    try {
      expect(PGLITE_SHARED_BUFFERS).not.toBe('128MB');
      expect(await sharedBuffers(database)).toBe(PGLITE_SHARED_BUFFERS);
    } finally {
      await database.close();
    }
    const small = await openDatabase({ pgliteDir: 'memory://', pgliteSharedBuffers: '8MB' });
    try {
      expect(await sharedBuffers(small)).toBe('8MB');
    } finally {
      await small.close();
    }
    // Two new PGlite instances and a second WebAssembly compile: about 10 s of CPU, which takes
    // longer than the default 30 s on a busy 2-core machine.
  }, 120_000);

  it('refuses a setting that is not a plain size or does not fit in place', async () => {
    await expect(pgliteWasmModule('1024MB')).rejects.toThrow(/shared_buffers/);
    await expect(pgliteWasmModule('8MB -c x=1')).rejects.toThrow(/shared_buffers/);
  });
});
