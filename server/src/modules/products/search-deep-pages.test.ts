import type { ProductSearchResponse } from '@shop/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, TEST_DB, type TestApp } from '../../test/test-app.ts';
import { CHECKPOINT_EVERY } from './search-products.ts';

const TOTAL = 1_000;

/**
 * Deep pages start from cached keyset checkpoints: walking every page must give exactly the rows
 * of the plain ordered listing — none skipped, none twice — including rows that tie on the sort key
 * (same timestamp to the microsecond, same price) and with drafts and filters in the way.
 */
describe('search: deep pages read through keyset checkpoints', () => {
  let t: TestApp;
  const page = async (qs: string) => {
    const res = await t.app.inject({ method: 'GET', url: `/api/products/search?${qs}`, headers: { 'cache-control': 'no-cache' } });
    expect(res.statusCode).toBe(200);
    return res.json() as ProductSearchResponse;
  };
  const walk = async (qs: string) => {
    const first = await page(`${qs}&page=1`);
    const ids = first.products.map((p) => p._id);
    for (let n = 2; n <= first.pages; n += 1) ids.push(...(await page(`${qs}&page=${n}`)).products.map((p) => p._id));
    return ids;
  };
  const expected = async (where: string, order: string) =>
    (await t.database.query<{ id: string }>(`select trim(id) as id from products where not is_draft ${where} order by ${order}`)).map((r) => r.id);

  beforeAll(async () => {
    t = await createTestApp();
    // Every third product shares its creation time (to the microsecond) and prices repeat; 1 in 9 is a draft.
    await t.database.exec(`
      INSERT INTO products (id, name, slug, price, image, category, brand, count_in_stock, description, is_draft, created_at)
      SELECT lpad(to_hex(g), 24, '0'), 'Deep ' || g, 'deep-' || g, (g % 37) + 0.99, '/images/p.jpg',
             CASE WHEN g % 2 = 0 THEN 'Even' ELSE 'Odd' END, 'Brand', 5, 'A deep page product', g % 9 = 0,
             timestamptz '2026-01-01 00:00:00.123456+00' + make_interval(secs => (g / 3) * 1.000001)
      FROM generate_series(1, ${TOTAL}) g`);
  });
  afterAll(async () => { await t.close(); });

  it('has more rows than a checkpoint spacing, so pages past it take the keyset path', async () => {
    const all = await expected('', 'created_at desc, id desc');
    expect(all.length).toBeGreaterThan(3 * CHECKPOINT_EVERY);
  });

  for (const [order, sqlOrder] of [
    ['newest', 'created_at desc, id desc'],
    ['lowest', 'final_price asc, id asc'],
    ['highest', 'final_price desc, id desc'],
    ['toprated', 'rating desc, num_reviews desc, id asc'],
  ] as const) {
    it(`walks every page in ${order} order exactly once`, async () => {
      expect(await walk(`order=${order}`)).toEqual(await expected('', sqlOrder));
    });
    it(`walks every page of a category filter in ${order} order exactly once`, async () => {
      expect(await walk(`order=${order}&category=Even`)).toEqual(await expected(`and category = 'Even'`, sqlOrder));
    });
  }

  // One session on PGlite, so its prepared statements are the ones the pages ran on.
  it.runIf(TEST_DB === 'pglite')('plans a listing\'s deep pages once: their statements settle on a generic plan', async () => {
    const deep = Math.ceil((2 * CHECKPOINT_EVERY) / 12) + 1;
    for (let round = 0; round < 4; round += 1) {
      for (let n = deep; n < deep + 4; n += 1) await page(`order=lowest&page=${n}`);
    }
    const rows = await t.database.query<{ generic: number; custom: number }>(
      'select generic_plans::int as generic, custom_plans::int as custom from pg_prepared_statements where statement like $1',
      ['%(select $1::numeric), (select $2::char(24))%'],
    );
    expect(rows.length).toBeGreaterThan(0);
    // PostgreSQL tries five custom plans first; every later run reuses the generic one.
    expect(rows.reduce((n, r) => n + r.generic, 0)).toBeGreaterThan(0);
    for (const r of rows) expect(r.custom).toBeLessThanOrEqual(5);
  });

  it('a page past the end answers the last page, through the checkpoints too', async () => {
    const last = await page('order=newest&page=1');
    const beyond = await page(`order=newest&page=${last.pages + 50}`);
    expect(beyond.page).toBe(last.pages);
    expect(beyond.products.map((p) => p._id)).toEqual((await expected('', 'created_at desc, id desc')).slice((last.pages - 1) * 12));
  });
});
