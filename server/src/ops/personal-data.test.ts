import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listTables } from '../db/catalog.ts';
import type { Database } from '../db/client.ts';
import { openTestDatabase } from '../test/test-app.ts';
import { personalDataOf, TABLE_PERSONAL_DATA } from './personal-data.ts';

describe('personal data classification', () => {
  let database: Database;
  let cleanup: () => Promise<void>;
  beforeAll(async () => { ({ database, cleanup } = await openTestDatabase()); });
  afterAll(async () => { await cleanup(); });

  it('classifies every table of the migrated schema (add a line to ops/personal-data.ts for a new table)', async () => {
    const tables = await listTables(database);
    expect(tables.length).toBeGreaterThan(10);
    const unclassified = tables.filter((t) => !(t in TABLE_PERSONAL_DATA));
    expect(unclassified, `tables missing from TABLE_PERSONAL_DATA: ${unclassified.join(', ')}`).toEqual([]);
    // …and names no table the schema does not have (a renamed or dropped table).
    expect(Object.keys(TABLE_PERSONAL_DATA).filter((t) => !tables.includes(t))).toEqual([]);
  });

  it('sums up the kinds present: only tables with rows count, unknown tables are reported', () => {
    const summary = personalDataOf([
      { name: 'users', rows: 2 }, { name: 'addresses', rows: 0 }, { name: 'products', rows: 5 }, { name: 'mystery', rows: 1 },
    ]);
    expect(summary.kinds.map((k) => k.kind)).toEqual(['identity', 'credentials']);
    expect(summary.kinds[0]!.tables).toEqual(['users']);
    expect(summary.unclassified).toEqual(['mystery']);
  });
});
