import type { Product, ProductSearchResponse } from '@shop/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/test-app.ts';
import { insertProduct } from './test-factories.ts';
import { toPrefixTsQuery } from './search-products.ts';

const DAY = 86_400_000;
const base = Date.now() - 100 * DAY;
const at = (day: number) => new Date(base + day * DAY);

describe('GET /api/products/search', () => {
  let t: TestApp;
  const search = async (qs: string) => {
    const res = await t.app.inject({ method: 'GET', url: `/api/products/search${qs ? `?${qs}` : ''}` });
    return { status: res.statusCode, body: res.json() as ProductSearchResponse & { message?: string } };
  };
  const names = (b: ProductSearchResponse) => b.products.map((p: Product) => p.name);

  beforeAll(async () => {
    t = await createTestApp();
    // Newest first by day: larger day = newer.
    await insertProduct(t, { name: 'Aurora Wireless Headphones', brand: 'SoundMax', category: 'Electronics', price: 120, isOnSale: true, saleDiscount: 20, rating: 4.5, numReviews: 10, description: 'Over-ear headphones with deep bass and 30 hour battery.', createdAt: at(50) });
    await insertProduct(t, { name: 'Studio Monitor Speakers', brand: 'SoundMax', category: 'Electronics', price: 300, rating: 3.2, numReviews: 4, isTodaysDeal: true, description: 'A pair of near-field speakers for the home studio.', createdAt: at(49) });
    await insertProduct(t, { name: 'Classic Leather Wallet', brand: 'Urbano', category: 'Fashion', price: 45, rating: 4.8, numReviews: 20, isGift: true, description: 'Hand-stitched wallet made from full-grain leather.', createdAt: at(48) });
    await insertProduct(t, { name: 'Ceramic Coffee Mug', brand: 'HomeCo', category: 'Home', price: 12.5, isOnSale: true, saleDiscount: 10, rating: 2.1, numReviews: 3, description: 'Glazed mug that keeps coffee warm.', createdAt: at(47) });
    await insertProduct(t, { name: 'Trail Running Shoes', brand: 'Stride', category: 'Sports', price: 89.99, isOnSale: true, saleDiscount: 50, rating: 4, numReviews: 8, isTodaysDeal: true, description: 'Grippy shoes for muddy trails.', createdAt: at(46) });
    await insertProduct(t, { name: 'Yoga Mat Pro', brand: 'Stride', category: 'Sports', price: 55, rating: 0, numReviews: 0, description: 'Non-slip mat for yoga and pilates.', createdAt: at(45) });
    await insertProduct(t, { name: 'Smart Watch X', brand: 'TechOne', category: 'Electronics', price: 250, isOnSale: true, saleDiscount: 25, rating: 3.9, numReviews: 7, isGift: true, description: 'Tracks steps, sleep and heart rate.', createdAt: at(44) });
    await insertProduct(t, { name: 'Board Game Night', brand: 'FunCo', category: 'Toys', price: 50.5, rating: 3, numReviews: 2, isGift: true, description: 'A party game for the whole family.', createdAt: at(43) });
    await insertProduct(t, { name: 'Noise Cancelling Earbuds', brand: 'SoundMax', category: 'Electronics', price: 150, rating: 4.2, numReviews: 5, description: 'Tiny earbuds, a travel alternative to big headphones.', createdAt: at(42) });
    await insertProduct(t, { name: 'Draft Headphones Prototype', brand: 'SoundMax', category: 'Electronics', price: 99, isDraft: true, rating: 5, numReviews: 1, isGift: true, isTodaysDeal: true, isOnSale: true, saleDiscount: 10, createdAt: at(60) });
    // On sale with no discount: not "on sale" for the tag, price unchanged.
    await insertProduct(t, { name: 'Desk Lamp', brand: 'HomeCo', category: 'Home', price: 30, isOnSale: true, saleDiscount: 0, rating: 3.5, numReviews: 2, createdAt: at(41) });
    for (let i = 1; i <= 14; i += 1) {
      await insertProduct(t, { name: `Novel Volume ${i}`, brand: 'PageTurner', category: 'Books', price: 10 + i, rating: 1 + (i % 5), numReviews: i, description: 'A page-turning mystery novel.', createdAt: at(i) });
    }
  });
  afterAll(async () => { await t.close(); });

  it('answers the defaults: every published product, newest first, 12 per page', async () => {
    const { status, body } = await search('');
    expect(status).toBe(200);
    expect(body.countProducts).toBe(24);
    expect(body.page).toBe(1);
    expect(body.pages).toBe(2);
    expect(body.products).toHaveLength(12);
    expect(names(body).slice(0, 3)).toEqual(['Aurora Wireless Headphones', 'Studio Monitor Speakers', 'Classic Leather Wallet']);
    expect(names(body)).not.toContain('Draft Headphones Prototype');
    const explicit = await search('query=all&category=all&price=all&rating=all&order=newest&page=1&tag=all');
    expect(explicit.body).toEqual(body);
  });

  it('returns full product JSON with _id, finalPrice and ISO dates', async () => {
    const { body } = await search('query=aurora');
    const p = body.products[0];
    expect(p).toMatchObject({
      name: 'Aurora Wireless Headphones', price: 120, finalPrice: 96, isOnSale: true, saleDiscount: 20, category: 'Electronics',
      brand: 'SoundMax', rating: 4.5, numReviews: 10, isGift: false, isTodaysDeal: false, countInStock: 5, images: [], cjData: null,
    });
    expect(p?._id).toMatch(/^[0-9a-f]{24}$/);
    expect(p?.createdAt).toBe(at(50).toISOString());
    expect(p).not.toHaveProperty('isDraft');
    expect(p).not.toHaveProperty('searchVector');
  });

  it('pages through results and handles the edges', async () => {
    const p2 = await search('page=2');
    expect(p2.body).toMatchObject({ page: 2, pages: 2, countProducts: 24 });
    expect(p2.body.products).toHaveLength(12);
    expect(names(p2.body).at(-1)).toBe('Novel Volume 1');
    const p1 = await search('page=1');
    const all = [...names(p1.body), ...names(p2.body)];
    expect(new Set(all).size).toBe(24);
    const beyond = await search('page=3');
    expect(beyond.status).toBe(200);
    // Past the end: the last page, and the response says which page it is.
    expect(beyond.body).toEqual({ ...p2.body });
    expect((await search('page=99')).body).toMatchObject({ page: 2, pages: 2, countProducts: 24 });
    const partial = await search('category=Books&page=2');
    expect(partial.body).toMatchObject({ page: 2, pages: 2, countProducts: 14 });
    expect(partial.body.products).toHaveLength(2);
    const none = await search('category=Nothing');
    expect(none.body).toEqual({ products: [], page: 1, pages: 0, countProducts: 0 });
  });

  it('finds text in name, brand, category and description with full-text search', async () => {
    expect(names((await search('query=headphones')).body).sort()).toEqual(['Aurora Wireless Headphones', 'Noise Cancelling Earbuds']);
    expect(names((await search('query=SoundMax')).body).sort()).toEqual(['Aurora Wireless Headphones', 'Noise Cancelling Earbuds', 'Studio Monitor Speakers']);
    expect((await search('query=electronics')).body.countProducts).toBe(4);
    expect(names((await search('query=leather%20wallet')).body)).toEqual(['Classic Leather Wallet']);
    // Stemming: "running shoe" finds "Running Shoes".
    expect(names((await search('query=running%20shoe')).body)).toEqual(['Trail Running Shoes']);
    // The last word matches as a prefix, for search as you type.
    expect(names((await search('query=head')).body).sort()).toEqual(['Aurora Wireless Headphones', 'Noise Cancelling Earbuds']);
    // Surrounding spaces are ignored.
    expect((await search('query=%20%20wallet%20')).body.countProducts).toBe(1);
  });

  it('tolerates typos through trigram similarity on the name', async () => {
    const typo = await search('query=hedphones');
    expect(typo.status).toBe(200);
    expect(names(typo.body)).toContain('Aurora Wireless Headphones');
    expect(names(typo.body)).not.toContain('Draft Headphones Prototype');
    expect(names((await search('query=wallett')).body)).toEqual(['Classic Leather Wallet']);
    expect(names((await search('query=cofee%20mug')).body)).toEqual(['Ceramic Coffee Mug']);
    const nothing = await search('query=zzzzqqqq');
    expect(nothing.body).toMatchObject({ products: [], page: 1, pages: 0, countProducts: 0 });
  });

  it('never lets search text reach SQL or tsquery syntax', async () => {
    for (const q of ["headphones' OR 1=1 --", 'a & b | !c', '(((', ':*', '%_%', '\\', "'; drop table products; --", '<script>', '!!!', 'ü', '日本']) {
      const res = await search(`query=${encodeURIComponent(q)}`);
      expect(res.status, q).toBe(200);
      expect(Array.isArray(res.body.products), q).toBe(true);
    }
    expect((await search('')).body.countProducts).toBe(24);
    expect(toPrefixTsQuery("it's a b&c:*")).toBe('it & s & a & b & c:*');
    expect(toPrefixTsQuery('!!!')).toBeNull();
  });

  it('filters by category', async () => {
    const { body } = await search('category=Electronics');
    expect(names(body)).toEqual(['Aurora Wireless Headphones', 'Studio Monitor Speakers', 'Smart Watch X', 'Noise Cancelling Earbuds']);
    expect((await search('category=electronics')).body.countProducts).toBe(0);
    expect((await search(`category=${encodeURIComponent("Home' OR '1'='1")}`)).body.countProducts).toBe(0);
  });

  it('filters by the price the shopper pays, after the sale discount', async () => {
    // Shoes 89.99 at 50% off = 45.00 lands in 1-50; Board Game 50.50 too (buckets cover their cents).
    expect(names((await search('price=1-50&category=Sports')).body)).toEqual(['Trail Running Shoes']);
    expect(names((await search('price=1-50&category=Toys')).body)).toEqual(['Board Game Night']);
    expect(names((await search('price=51-200&category=Sports')).body)).toEqual(['Yoga Mat Pro']);
    expect((await search('price=1-50')).body.countProducts).toBe(19);
    const mid = names((await search('price=51-200&order=lowest')).body);
    // Smart Watch 250 at 25% off = 187.50; Headphones 120 at 20% off = 96.
    expect(mid).toEqual(['Yoga Mat Pro', 'Aurora Wireless Headphones', 'Noise Cancelling Earbuds', 'Smart Watch X']);
    const high = names((await search('price=201-1000')).body);
    expect(high).toEqual(['Studio Monitor Speakers']);
    const custom = names((await search('price=11.25-11.25')).body);
    expect(custom).toEqual(['Ceramic Coffee Mug']);
    const mug = (await search('query=mug')).body.products[0];
    expect(mug?.finalPrice).toBe(11.25);
  });

  it('filters by rating, N stars and up', async () => {
    const four = (await search('rating=4&order=toprated')).body;
    expect(names(four).slice(0, 4)).toEqual(['Novel Volume 14', 'Novel Volume 9', 'Novel Volume 4', 'Classic Leather Wallet']);
    expect(four.products.every((p) => p.rating >= 4)).toBe(true);
    expect(four.countProducts).toBe(10);
    const one = (await search('rating=1')).body;
    expect(one.countProducts).toBe(23); // the unrated yoga mat is out
  });

  it('sorts by newest, lowest, highest and top rated', async () => {
    const cat = 'category=Electronics';
    expect(names((await search(`${cat}&order=newest`)).body)).toEqual(['Aurora Wireless Headphones', 'Studio Monitor Speakers', 'Smart Watch X', 'Noise Cancelling Earbuds']);
    expect(names((await search(`${cat}&order=lowest`)).body)).toEqual(['Aurora Wireless Headphones', 'Noise Cancelling Earbuds', 'Smart Watch X', 'Studio Monitor Speakers']);
    expect(names((await search(`${cat}&order=highest`)).body)).toEqual(['Studio Monitor Speakers', 'Smart Watch X', 'Noise Cancelling Earbuds', 'Aurora Wireless Headphones']);
    expect(names((await search(`${cat}&order=toprated`)).body)).toEqual(['Aurora Wireless Headphones', 'Noise Cancelling Earbuds', 'Smart Watch X', 'Studio Monitor Speakers']);
    const all = (await search('order=lowest&page=1')).body.products.map((p) => p.finalPrice);
    expect(all).toEqual([...all].sort((a, b) => a - b));
    const high = (await search('order=highest')).body.products.map((p) => p.finalPrice);
    expect(high).toEqual([...high].sort((a, b) => b - a));
  });

  it('filters by tag', async () => {
    expect(names((await search('tag=todays-deal')).body)).toEqual(['Studio Monitor Speakers', 'Trail Running Shoes']);
    expect(names((await search('tag=gifts')).body)).toEqual(['Classic Leather Wallet', 'Smart Watch X', 'Board Game Night']);
    expect(names((await search('tag=on-sale')).body)).toEqual(['Aurora Wireless Headphones', 'Ceramic Coffee Mug', 'Trail Running Shoes', 'Smart Watch X']);
  });

  it('combines every parameter', async () => {
    expect(names((await search('category=Electronics&price=51-200&order=lowest')).body)).toEqual(['Aurora Wireless Headphones', 'Noise Cancelling Earbuds', 'Smart Watch X']);
    expect(names((await search('query=headphones&category=Electronics&rating=4&order=highest')).body)).toEqual(['Noise Cancelling Earbuds', 'Aurora Wireless Headphones']);
    expect(names((await search('query=soundmax&price=201-1000')).body)).toEqual(['Studio Monitor Speakers']);
    expect(names((await search('tag=gifts&category=Electronics&price=51-200&rating=3')).body)).toEqual(['Smart Watch X']);
    expect(names((await search('tag=on-sale&price=1-50&order=highest')).body)).toEqual(['Trail Running Shoes', 'Ceramic Coffee Mug']);
    expect(names((await search('query=hedphones&tag=on-sale&category=Electronics')).body)).toEqual(['Aurora Wireless Headphones']);
    const r = (await search('query=novel&category=Books&price=1-50&rating=2&order=lowest&page=2&tag=all')).body;
    expect(r.countProducts).toBe(12);
    expect(r.pages).toBe(1);
    // Page 2 of 1: the last page.
    expect(r.page).toBe(1);
    expect(r.products).toHaveLength(12);
    const novels = (await search('query=novel&category=Books&price=1-50&rating=2&order=lowest&page=1')).body;
    expect(novels.products.every((p) => p.rating >= 2 && p.category === 'Books')).toBe(true);
    expect(novels.products).toHaveLength(12);
  });

  it.each([
    ['order=cheapest', 'Sort order must be one of: newest, lowest, highest, toprated'],
    ['price=abc', "Price must be 'all' or a range like 1-50"],
    ['price=50-1', "Price must be 'all' or a range like 1-50"],
    ['price=-5-10', "Price must be 'all' or a range like 1-50"],
    ['price=1-50-200', "Price must be 'all' or a range like 1-50"],
    ['page=0', 'Page must be a whole number of at least 1'],
    ['page=-1', 'Page must be a whole number of at least 1'],
    ['page=1.5', 'Page must be a whole number of at least 1'],
    ['page=abc', 'Page must be a whole number of at least 1'],
    ['page=999999999', 'Page must be at most 100000'],
    ['rating=0', "Rating must be 'all' or a whole number from 1 to 5"],
    ['rating=6', "Rating must be 'all' or a whole number from 1 to 5"],
    ['rating=4.5', "Rating must be 'all' or a whole number from 1 to 5"],
    ['tag=cheap', "Tag must be 'all' or one of: todays-deal, gifts, on-sale"],
    [`query=${'a'.repeat(201)}`, 'Search text must be at most 200 characters'],
    ['order=lowest&order=highest', 'Sort order must be one of: newest, lowest, highest, toprated'],
  ])('answers 400 for %s', async (qs, message) => {
    const { status, body } = await search(qs);
    expect(status).toBe(400);
    expect(body.message).toBe(message);
  });

  it('ignores unknown parameters and treats empty ones as defaults', async () => {
    const { status, body } = await search('foo=bar&query=&category=&page=&order=');
    expect(status).toBe(200);
    expect(body.countProducts).toBe(24);
  });
});

describe('GET /api/products/search: deep pages', () => {
  let t: TestApp;
  const rows: Array<{ name: string; finalPrice: number; rating: number; numReviews: number; createdAt: number; id: string }> = [];
  beforeAll(async () => {
    t = await createTestApp();
    const now = Date.now();
    for (let i = 0; i < 150; i += 1) {
      const price = 10 + ((i * 37) % 97);
      const p = await insertProduct(t, {
        name: `Deep Item ${i}`, category: 'Deep', price, rating: (i * 7) % 6, numReviews: i % 9,
        createdAt: new Date(now - ((i * 53) % 150) * 60_000),
        isDraft: i % 25 === 0,
      });
      if (!p.isDraft) rows.push({ name: p.name, finalPrice: price, rating: p.rating, numReviews: p.numReviews, createdAt: p.createdAt.getTime(), id: p.id });
    }
  });
  afterAll(async () => { await t.close(); });

  it.each(['newest', 'lowest', 'highest', 'toprated'] as const)('answers the same rows in the same order past the deferred-join offset (%s)', async (order) => {
    const cmp = {
      newest: (a: typeof rows[0], b: typeof rows[0]) => b.createdAt - a.createdAt || (b.id > a.id ? 1 : -1),
      lowest: (a: typeof rows[0], b: typeof rows[0]) => a.finalPrice - b.finalPrice || (a.id > b.id ? 1 : -1),
      highest: (a: typeof rows[0], b: typeof rows[0]) => b.finalPrice - a.finalPrice || (b.id > a.id ? 1 : -1),
      toprated: (a: typeof rows[0], b: typeof rows[0]) => b.rating - a.rating || b.numReviews - a.numReviews || (a.id > b.id ? 1 : -1),
    }[order];
    const expected = [...rows].sort(cmp).map((r) => r.name);
    const got: string[] = [];
    const pages = Math.ceil(rows.length / 12);
    for (let page = 1; page <= pages; page += 1) {
      const res = await t.app.inject({ method: 'GET', url: `/api/products/search?category=Deep&order=${order}&page=${page}` });
      const body = res.json() as ProductSearchResponse;
      expect(body.countProducts).toBe(rows.length);
      expect(body.pages).toBe(pages);
      got.push(...body.products.map((p) => p.name));
    }
    expect(got).toEqual(expected);
  });
});
