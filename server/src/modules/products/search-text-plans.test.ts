import { productSearchQuerySchema, type ProductSearchParams } from '@shop/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/test-app.ts';
import { createCatalogueCache } from './catalogue-cache.ts';
import { chooseTextPlan, searchProducts } from './search-products.ts';

const TOTAL = 600;
const WORDS = ['Wireless', 'Leather', 'Ceramic', 'Bamboo'];
const NOUNS = ['Headphones', 'Wallet', 'Mug', 'Desk', 'Lamp'];

/**
 * Text pages are found either by walking the sort index (common words) or through the GIN index
 * (rare words, or deep pages): both forms, and the choice between them, must give exactly the
 * page the plain ordered match would — same rows, same order, same totals — for every order,
 * with filters, drafts and ties on the sort key in the way.
 */
describe('search: full-text pages through the sort index or the GIN index', () => {
  let t: TestApp;
  const search = (params: ProductSearchParams, textPlan?: 'walk' | 'index') =>
    // A fresh cache each time: nothing is shared between the forms.
    searchProducts(t.database.db, createCatalogueCache(), productSearchQuerySchema.parse(params), textPlan ? { textPlan } : {});
  const expected = async (tsquery: string, where: string, order: string) =>
    (await t.database.query<{ id: string }>(
      `select trim(id) as id from products where not is_draft and search_vector @@ to_tsquery('english', $1) ${where} order by ${order}`,
      [tsquery],
    )).map((r) => r.id);

  beforeAll(async () => {
    t = await createTestApp();
    // Every fourth product shares its creation time with the next; prices and ratings repeat; 1 in 10 is a draft.
    await t.database.exec(`
      INSERT INTO products (id, name, slug, price, image, category, brand, count_in_stock, description, rating, num_reviews, is_draft, created_at)
      SELECT lpad(to_hex(g), 24, '0'),
             (ARRAY['${WORDS.join("','")}'])[1 + g % ${WORDS.length}] || ' ' || (ARRAY['${NOUNS.join("','")}'])[1 + (g / 7) % ${NOUNS.length}] || ' ' || g,
             'plan-' || g, (g % 23) + 0.5, '/images/p.jpg', CASE WHEN g % 3 = 0 THEN 'Audio' ELSE 'Home' END, 'Brand', 5,
             CASE WHEN g % 50 = 7 THEN 'A rare gadget' ELSE 'An everyday thing' END, (g % 5)::real, g % 4, g % 10 = 0,
             timestamptz '2026-01-01 00:00:00+00' + make_interval(secs => (g / 2) * 1.5)
      FROM generate_series(1, ${TOTAL}) g`);
  });
  afterAll(async () => { await t.close(); });

  const cases: Array<{ params: ProductSearchParams; tsquery: string; where: string }> = [
    { params: { query: 'wireless' }, tsquery: 'wireless:*', where: '' },
    { params: { query: 'leather wallet' }, tsquery: 'leather & wallet:*', where: '' },
    { params: { query: 'rare' }, tsquery: 'rare:*', where: '' },
    { params: { query: 'ceramic', category: 'Audio' }, tsquery: 'ceramic:*', where: `and category = 'Audio'` },
    { params: { query: 'bamboo', price: '1-10', rating: '2' }, tsquery: 'bamboo:*', where: 'and final_price >= 1 and final_price < 11 and rating >= 2' },
  ];
  const orders = [
    ['newest', 'created_at desc, id desc'],
    ['lowest', 'final_price asc, id asc'],
    ['highest', 'final_price desc, id desc'],
    ['toprated', 'rating desc, num_reviews desc, id asc'],
  ] as const;

  for (const c of cases) {
    for (const [order, sqlOrder] of orders) {
      it(`"${c.params.query}" ${JSON.stringify({ ...c.params, query: undefined })} in ${order} order: every page is the same through either index`, async () => {
        const all = await expected(c.tsquery, c.where, sqlOrder);
        expect(all.length).toBeGreaterThan(0);
        const pages = Math.ceil(all.length / 12);
        // Every page, a literal-offset page past the tenth and one past the end.
        for (const page of [...Array.from({ length: pages }, (_, i) => i + 1), pages + 1]) {
          const params = { ...c.params, order, page: String(page) };
          const [walk, index, chosen] = await Promise.all([search(params, 'walk'), search(params, 'index'), search(params)]);
          const wanted = all.slice((Math.min(page, pages) - 1) * 12, Math.min(page, pages) * 12);
          expect(walk.products.map((p) => p._id)).toEqual(wanted);
          expect(index).toEqual(walk);
          expect(chosen).toEqual(walk);
          expect(walk).toMatchObject({ countProducts: all.length, pages, page: Math.min(page, pages) });
        }
      });
    }
  }

  it('walks the sort index for a common word and uses the GIN index for a rare one or a deep page', () => {
    // 100,000 products: "wireless" matches 5 %, "leather wallet" 0.16 %.
    expect(chooseTextPlan(5_000, 100_000, 0)).toBe('walk');
    expect(chooseTextPlan(5_000, 100_000, 12)).toBe('walk');
    expect(chooseTextPlan(164, 100_000, 0)).toBe('index');
    expect(chooseTextPlan(5_000, 100_000, 12 * 1_000)).toBe('index');
    // Filters leave few candidates: walking them is cheap.
    expect(chooseTextPlan(40, 300, 0)).toBe('walk');
  });
});
