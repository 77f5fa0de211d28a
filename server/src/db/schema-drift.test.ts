import { getTableConfig } from 'drizzle-orm/pg-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestDatabase, TEST_DB } from '../test/test-app.ts';
import { createScratchPostgres } from '../test/test-app.ts';
import { describeSchema, type TableShape } from './catalog.ts';
import { openDatabase, type Database } from './client.ts';
import { ddlFromDrizzle, tablesOf } from './schema-ddl.ts';
import * as schema from './schema.ts';

/** Differences between the database the migrations built and the one the Drizzle schema declares. */
function compare(migrated: Record<string, TableShape>, declared: Record<string, TableShape>): string[] {
  const diffs: string[] = [];
  const migratedTables = Object.keys(migrated).filter((t) => t !== 'schema_migrations').sort();
  const declaredTables = Object.keys(declared).sort();
  for (const t of migratedTables) if (!declared[t]) diffs.push(`table ${t}: made by a migration, missing from the Drizzle schema`);
  for (const t of declaredTables) if (!migrated[t]) diffs.push(`table ${t}: in the Drizzle schema, made by no migration`);
  for (const t of declaredTables.filter((x) => migrated[x])) {
    const m = migrated[t]!;
    const d = declared[t]!;
    const mCols = m.columns.map((c) => c.name);
    const dCols = d.columns.map((c) => c.name);
    if (mCols.join() !== dCols.join()) diffs.push(`${t}: columns (in order) are [${mCols.join(', ')}] in the database, [${dCols.join(', ')}] in Drizzle`);
    for (const dc of d.columns) {
      const mc = m.columns.find((c) => c.name === dc.name);
      if (!mc) continue;
      for (const key of ['type', 'notNull', 'default', 'generated', 'identity'] as const) {
        if (mc[key] !== dc[key]) diffs.push(`${t}.${dc.name}: ${key} is ${JSON.stringify(mc[key])} in the database, ${JSON.stringify(dc[key])} in Drizzle`);
      }
    }
    const sameMap = (what: string, a: Record<string, string>, b: Record<string, string>) => {
      for (const name of new Set([...Object.keys(a), ...Object.keys(b)])) {
        if (a[name] !== b[name]) diffs.push(`${t}: ${what} ${name} is ${JSON.stringify(a[name] ?? null)} in the database, ${JSON.stringify(b[name] ?? null)} in Drizzle`);
      }
    };
    sameMap('key', m.keys, d.keys);
    sameMap('index', m.indexes, d.indexes);
    // Checks Drizzle declares must be in the database as declared. (Column checks written only in
    // SQL, like `quantity >= 1`, need no Drizzle counterpart: Drizzle never reads them.)
    sameMap('check', Object.fromEntries(Object.keys(d.checks).map((k) => [k, m.checks[k] ?? ''])), d.checks);
    if (m.foreignKeys.join('\n') !== d.foreignKeys.join('\n')) {
      diffs.push(`${t}: foreign keys are [${m.foreignKeys.join('; ')}] in the database, [${d.foreignKeys.join('; ')}] in Drizzle`);
    }
  }
  return diffs;
}

describe(`schema drift on ${TEST_DB}: migrations on an empty database match the Drizzle schema`, () => {
  let migrated: Database;
  let declared: Database;
  const cleanups: Array<() => Promise<void>> = [];

  beforeAll(async () => {
    const a = await openTestDatabase(); // empty database + every migration
    migrated = a.database;
    cleanups.push(a.cleanup);
    if (TEST_DB === 'postgres') {
      const scratch = await createScratchPostgres();
      declared = await openDatabase({ databaseUrl: scratch.url, poolSize: 2 });
      cleanups.push(async () => { await declared.close(); await scratch.drop(); });
    } else {
      declared = await openDatabase({ pgliteDir: 'memory://' });
      cleanups.push(() => declared.close());
    }
    // Extensions are created by migrations, not by the schema; the declared side needs them too.
    await declared.exec('CREATE EXTENSION IF NOT EXISTS pg_trgm');
    for (const statement of ddlFromDrizzle(tablesOf(schema))) await declared.exec(statement);
  });
  afterAll(async () => { for (const c of cleanups.reverse()) await c(); });

  it('covers every table the Drizzle schema exports', async () => {
    const exported = tablesOf(schema).map((t) => getTableConfig(t).name).sort();
    expect(exported).toContain('uploads');
    expect(exported.length).toBeGreaterThanOrEqual(13);
    expect(Object.keys(await describeSchema(declared)).sort()).toEqual(exported);
  });

  it('has the same tables, columns (order, types, nullability, defaults, generated), keys, checks, foreign keys and indexes', async () => {
    const diffs = compare(await describeSchema(migrated), await describeSchema(declared));
    expect(diffs).toEqual([]);
  });

  it('notices drift: defaults, generated columns, checks, keys, foreign keys, indexes and extra columns are reported', async () => {
    const m = await describeSchema(migrated);
    const d = await describeSchema(declared);
    const users = structuredClone(m.users!);
    users.columns.find((c) => c.name === 'is_admin')!.default = 'true';
    users.columns.push({ name: 'nickname', type: 'text', notNull: false, default: null, generated: '', identity: '' });
    delete users.indexes.users_email_lower_key;
    const products = structuredClone(m.products!);
    products.checks.products_price_nonneg = 'CHECK (price > 0::numeric)';
    products.columns.find((c) => c.name === 'final_price')!.generated = '';
    const sessions = structuredClone(m.sessions!);
    sessions.foreignKeys = [];
    sessions.keys = {};
    expect(compare({ ...m, users, products, sessions }, d)).toEqual([
      'products.final_price: generated is "" in the database, "s" in Drizzle',
      'products: check products_price_nonneg is "CHECK (price > 0::numeric)" in the database, "CHECK (price >= 0::numeric)" in Drizzle',
      'sessions: key sessions_pkey is null in the database, "PRIMARY KEY (id)" in Drizzle',
      'sessions: foreign keys are [] in the database, [FOREIGN KEY (user_id) REFERENCES users(id) ON DELETE CASCADE] in Drizzle',
      'users: columns (in order) are [id, name, email, password_hash, is_admin, created_at, updated_at, nickname] in the database, [id, name, email, password_hash, is_admin, created_at, updated_at] in Drizzle',
      'users.is_admin: default is "true" in the database, "false" in Drizzle',
      'users: index users_email_lower_key is null in the database, "CREATE UNIQUE INDEX users_email_lower_key ON public.users USING btree (lower(email))" in Drizzle',
    ]);
  });
});
