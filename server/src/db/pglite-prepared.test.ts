import { PGlite } from '@electric-sql/pglite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { prepareRepeatedPgliteQueries } from './pglite-prepared.ts';

// PGlite only by nature (the wrapper is PGlite's query path); runs under both test projects alike.
describe('prepared PGlite queries', () => {
  let plain: PGlite;
  let prepared: PGlite;
  const setup = `
    create table items (id int primary key, name text not null, price numeric(10,2), tags jsonb, made timestamptz, note text);
    insert into items values
      (1, 'mug', 9.50, '["kitchen"]', '2026-01-02T03:04:05.678Z', null),
      (2, 'lamp', 24.00, '{"room":"desk"}', '2026-02-03T04:05:06Z', 'bright');`;

  beforeAll(async () => {
    plain = await PGlite.create();
    prepared = await PGlite.create();
    await plain.exec(setup);
    await prepared.exec(setup);
    prepareRepeatedPgliteQueries(prepared);
  });
  afterAll(async () => {
    await plain.close();
    await prepared.close();
  });

  const select = 'select id, name, price, tags, made, note from items where id >= $1 order by id';

  it('answers as PGlite\'s own query does, every time the statement runs (typed values, columns, array rows)', async () => {
    const expected = await plain.query(select, [1]);
    const expectedArray = await plain.query(select, [2], { rowMode: 'array' });
    for (let i = 0; i < 3; i++) {
      const got = await prepared.query(select, [1]);
      expect(got.rows).toEqual(expected.rows);
      expect(got.fields).toEqual(expected.fields);
      expect((got.rows[0] as { made: unknown }).made).toBeInstanceOf(Date);
      expect((got.rows[1] as { tags: unknown }).tags).toEqual({ room: 'desk' });
      expect(await prepared.query(select, [2], { rowMode: 'array' })).toMatchObject({ rows: expectedArray.rows, fields: expectedArray.fields });
    }
    expect((await prepared.query(select, [3])).rows).toEqual([]);
  });

  it('counts the rows a write changed, with and without RETURNING', async () => {
    const update = await prepared.query('update items set note = $1 where id <= $2', ['seen', 2]);
    expect(update.affectedRows).toBe(2);
    expect(update.rows).toEqual([]);
    const returning = await prepared.query<{ id: number; note: string }>('update items set note = $1 where id = $2 returning id, note', ['again', 1]);
    expect(returning.rows).toEqual([{ id: 1, note: 'again' }]);
    expect(returning.affectedRows).toBe(1);
  });

  it('fails a statement whose result columns changed under it, as PostgreSQL does, instead of mislabelling them', async () => {
    const text = 'select * from items where id = $1';
    expect((await prepared.query(text, [1])).fields.map((f) => f.name)).toEqual(['id', 'name', 'price', 'tags', 'made', 'note']);
    await prepared.exec('alter table items add column colour text');
    await expect(prepared.query(text, [1])).rejects.toThrow(/cached plan must not change result type/);
  });
});
