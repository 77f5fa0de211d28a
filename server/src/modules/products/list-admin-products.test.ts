import { ADMIN_LOW_STOCK_MAX, ADMIN_PRODUCT_QUERY_MESSAGES as QM, type AdminProductListResponse } from '@shop/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAdmin, createTestApp, createUser, type TestApp, type TestUser } from '../../test/test-app.ts';
import { insertProduct } from './test-factories.ts';

describe('GET /api/products/admin: search, filters and sort', () => {
  let t: TestApp;
  let admin: TestUser;
  let customer: TestUser;
  const minute = 60_000;
  const get = async (qs: string, user: TestUser | null = admin) =>
    t.app.inject({ method: 'GET', url: `/api/products/admin${qs}`, headers: user ? { cookie: user.cookie } : {} });
  const list = async (qs: string) => {
    const res = await get(qs);
    expect(res.statusCode, res.body).toBe(200);
    return res.json() as AdminProductListResponse;
  };
  const names = (r: AdminProductListResponse) => r.products.map((p) => p.name);

  beforeAll(async () => {
    t = await createTestApp();
    admin = await createAdmin(t);
    customer = await createUser(t);
    const now = Date.now();
    await insertProduct(t, { name: 'Zebra Lamp', category: 'Lighting', price: 30, countInStock: 0, createdAt: new Date(now - 5 * minute) });
    await insertProduct(t, { name: 'Alpha Lamp', category: 'Lighting', price: 80, countInStock: ADMIN_LOW_STOCK_MAX, createdAt: new Date(now - 4 * minute) });
    await insertProduct(t, { name: 'Mango Chair', category: 'Furniture', price: 10, countInStock: 1, createdAt: new Date(now - 3 * minute) });
    await insertProduct(t, { name: 'Desk 100%_off', category: 'Furniture', price: 55, countInStock: ADMIN_LOW_STOCK_MAX + 1, createdAt: new Date(now - 2 * minute) });
    await insertProduct(t, { name: 'Draft Thing', category: 'Sample category', price: 0, countInStock: 0, isDraft: true, createdAt: new Date(now - minute) });
  });
  afterAll(async () => { await t.close(); });

  it('answers 401 to anonymous visitors and 403 to customers', async () => {
    expect((await get('?search=lamp', null)).statusCode).toBe(401);
    expect((await get('?search=lamp', customer)).statusCode).toBe(403);
  });

  it('lists every product newest first with the categories in use, drafts included', async () => {
    const r = await list('');
    expect(names(r)).toEqual(['Draft Thing', 'Desk 100%_off', 'Mango Chair', 'Alpha Lamp', 'Zebra Lamp']);
    expect(r.countProducts).toBe(5);
    expect(r.categories).toEqual(['Furniture', 'Lighting', 'Sample category']);
    expect(r.products[0]!.isDraft).toBe(true);
  });

  it('searches the name case-insensitively, wildcards taken literally', async () => {
    expect(names(await list('?search=LAMP'))).toEqual(['Alpha Lamp', 'Zebra Lamp']);
    expect(names(await list('?search=%25_'))).toEqual(['Desk 100%_off']);
    expect(names(await list('?search=_'))).toEqual(['Desk 100%_off']);
    expect((await list('?search=nothing-like-this')).countProducts).toBe(0);
  });

  it('filters by category and by stock (out = 0, low = 1 to the threshold)', async () => {
    expect(names(await list('?category=Furniture'))).toEqual(['Desk 100%_off', 'Mango Chair']);
    expect(names(await list('?category=all'))).toHaveLength(5);
    expect(names(await list('?stock=out'))).toEqual(['Draft Thing', 'Zebra Lamp']);
    expect(names(await list('?stock=low'))).toEqual(['Mango Chair', 'Alpha Lamp']);
    expect(names(await list('?stock=low&category=Lighting&search=alpha'))).toEqual(['Alpha Lamp']);
  });

  it('sorts by name, price (low to high) and stock (low to high)', async () => {
    expect(names(await list('?sort=name'))).toEqual(['Alpha Lamp', 'Desk 100%_off', 'Draft Thing', 'Mango Chair', 'Zebra Lamp']);
    expect(names(await list('?sort=price&stock=all'))).toEqual(['Draft Thing', 'Mango Chair', 'Zebra Lamp', 'Desk 100%_off', 'Alpha Lamp']);
    expect(names(await list('?sort=stock'))).toEqual(['Draft Thing', 'Zebra Lamp', 'Mango Chair', 'Alpha Lamp', 'Desk 100%_off']);
  });

  it('pages the filtered list; a page past the last answers no products and the real page count', async () => {
    const p2 = await list('?sort=name&pageSize=2&page=2');
    expect(names(p2)).toEqual(['Draft Thing', 'Mango Chair']);
    expect(p2.pages).toBe(3);
    const beyond = await list('?sort=name&pageSize=2&page=9');
    expect(beyond.products).toEqual([]);
    expect(beyond.page).toBe(9);
    expect(beyond.pages).toBe(3);
    expect(beyond.countProducts).toBe(5);
  });

  it('refuses bad parameters with 400 and a clear message', async () => {
    const cases: Array<[string, string]> = [
      ['?stock=few', QM.stock],
      ['?sort=cheapest', QM.sort],
      [`?search=${'x'.repeat(101)}`, QM.search],
      [`?category=${'c'.repeat(101)}`, QM.category],
      ['?page=abc', 'Page must be a whole number of at least 1'],
      ['?page=-1', 'Page must be a whole number of at least 1'],
      ['?pageSize=0', 'Page size must be a whole number from 1 to 100'],
    ];
    for (const [qs, message] of cases) {
      const res = await get(qs);
      expect(res.statusCode, qs).toBe(400);
      expect(res.json().message, qs).toBe(message);
    }
    const repeated = await get('?stock=out&stock=low');
    expect(repeated.statusCode).toBe(400);
  });
});
