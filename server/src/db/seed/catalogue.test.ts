import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { productFormSchema, type Product } from '@shop/contracts';
import { products } from '../schema.ts';
import { createTestApp, type TestApp } from '../../test/test-app.ts';
import { UPLOADS_URL_PREFIX } from '../../modules/uploads/upload-store.ts';
import { seedCatalogue, type CatalogueSeedResult } from './catalogue.ts';
import { demoImageKeys, fillDemoImages, isDemoImageStore } from './demo-images.ts';

describe('demo catalogue seed', () => {
  let t: TestApp;
  let result: CatalogueSeedResult;
  let ms: number;
  beforeAll(async () => {
    t = await createTestApp({ env: { SEED_DEMO_DATA: 'true' } });
    const started = Date.now();
    result = await seedCatalogue(t.database.db);
    ms = Date.now() - started;
  });
  afterAll(async () => { await t.close(); });

  it('fills an empty catalogue with at least 60 products over 8 categories and several brands', async () => {
    expect(result.products).toBeGreaterThanOrEqual(60);
    const categories = (await t.app.inject({ method: 'GET', url: '/api/products/categories' })).json() as string[];
    expect(categories.length).toBeGreaterThanOrEqual(8);
    const all: Product[] = [];
    for (let page = 1; ; page += 1) {
      const res = (await t.app.inject({ method: 'GET', url: `/api/products/search?page=${page}` })).json();
      all.push(...res.products);
      if (page >= res.pages) break;
    }
    expect(all).toHaveLength(result.products);
    expect(new Set(all.map((p) => p.brand)).size).toBeGreaterThanOrEqual(6);
    expect(all.filter((p) => p.isOnSale && p.saleDiscount > 0).length).toBeGreaterThanOrEqual(5);
    expect(all.filter((p) => p.isTodaysDeal).length).toBeGreaterThanOrEqual(5);
    expect(all.filter((p) => p.isGift).length).toBeGreaterThanOrEqual(5);
    expect(all.filter((p) => p.countInStock === 0).length).toBeGreaterThanOrEqual(3);
    expect(all.filter((p) => p.numReviews > 0).length).toBeGreaterThanOrEqual(40);
    expect(all.every((p) => p.image.startsWith('/uploads/') && p.images.length >= 2)).toBe(true);
    // Every tag and price bucket has something to show.
    for (const qs of ['tag=todays-deal', 'tag=gifts', 'tag=on-sale', 'price=1-50', 'price=51-200', 'price=201-1000', 'rating=4']) {
      expect((await t.app.inject({ method: 'GET', url: `/api/products/search?${qs}` })).json().countProducts, qs).toBeGreaterThan(0);
    }
  });

  it('stores no image while seeding, and draws each demo image (and its resized copies) on first request', async () => {
    expect(await t.app.ctx.uploads.list()).toEqual([]);
    const p = (await t.app.inject({ method: 'GET', url: '/api/products/slug/aurora-wireless-headphones' })).json() as Product;
    expect(p.reviews?.length).toBe(p.numReviews);
    expect(p.images).toHaveLength(2);
    const urls = [p.image, ...p.images];
    // Several requests at once for the same missing image: all answered with the same bytes.
    const [first, ...others] = await Promise.all([0, 1, 2].map(() => t.app.inject({ method: 'GET', url: p.image })));
    for (const res of [first!, ...others]) {
      expect(res.statusCode).toBe(200);
      expect(res.rawPayload.equals(first!.rawPayload)).toBe(true);
    }
    for (const url of urls) {
      const res = await t.app.inject({ method: 'GET', url });
      expect(res.statusCode, url).toBe(200);
      expect(res.headers['content-type']).toBe('image/webp');
      const meta = await sharp(res.rawPayload).metadata();
      expect([meta.format, meta.width, meta.height]).toEqual(['webp', 600, 600]);
    }
    expect(await t.app.ctx.uploads.list()).toEqual(urls.map((u) => u.slice(UPLOADS_URL_PREFIX.length)).sort());
    // A resized copy of an image not drawn yet: drawn first, then resized.
    const other = (await t.app.inject({ method: 'GET', url: '/api/products/slug/nova-x5-smartphone' })).json() as Product;
    const key = other.image.slice(UPLOADS_URL_PREFIX.length);
    expect(await t.app.ctx.uploads.list()).not.toContain(key);
    const small = await t.app.inject({ method: 'GET', url: `/uploads/w/200/${key}` });
    expect(small.statusCode).toBe(200);
    expect((await sharp(small.rawPayload).metadata()).width).toBe(200);
    expect(await t.app.ctx.uploads.list()).toContain(key);
    // A key that is no demo image is not drawn.
    expect((await t.app.inject({ method: 'GET', url: '/uploads/seed-no-such-product.webp' })).statusCode).toBe(404);
  });

  it('after the start, draws every image the seeded products show, once', async () => {
    const store = t.app.ctx.uploads;
    if (!isDemoImageStore(store)) throw new Error('the demo seed store should draw demo images');
    const all: Product[] = [];
    for (let page = 1; ; page += 1) {
      const res = (await t.app.inject({ method: 'GET', url: `/api/products/search?page=${page}` })).json();
      all.push(...res.products);
      if (page >= res.pages) break;
    }
    const keys = all.flatMap((p) => [p.image, ...p.images]).map((u) => u.slice(UPLOADS_URL_PREFIX.length));
    expect(keys).toHaveLength(result.products * 3);
    expect(new Set(demoImageKeys())).toEqual(new Set(keys));
    const stored = new Set(await store.list());
    const before = stored.size;
    expect(before).toBeGreaterThan(0);
    // A product left out of `referenced` (one with no image drawn yet): its images stay undrawn.
    const keysOf = (p: Product) => [p.image, ...p.images].map((u) => u.slice(UPLOADS_URL_PREFIX.length));
    const left = all.find((p) => !keysOf(p).some((k) => stored.has(k)))!;
    const leftKeys = keysOf(left);
    // Already drawn images, and the images of a few more products (drawing all takes seconds).
    const referenced = new Set([...stored, ...keys.filter((k) => !stored.has(k) && !leftKeys.includes(k)).slice(0, 9)]);
    const drawn = await fillDemoImages(store, referenced, () => false);
    expect(drawn).toBe(9);
    expect((await store.list()).sort()).toEqual([...referenced].sort());
    expect(leftKeys.some((k) => referenced.has(k))).toBe(false);
    expect(await fillDemoImages(store, referenced, () => false)).toBe(0);
    // Stopped: draws nothing.
    expect(await fillDemoImages(store, new Set(keys), () => true)).toBe(0);
    expect((await store.list()).length).toBe(before + 9);
  });

  it('seeds only products the product form accepts as they are (decimal money, whole stock, upload-store images)', async () => {
    const rows = await t.database.db.select().from(products);
    expect(rows.length).toBe(result.products);
    const refused = rows
      .map((p) => ({ slug: p.slug, result: productFormSchema.safeParse({ ...p, saleDiscount: p.isOnSale ? p.saleDiscount : 0 }) }))
      .filter((r) => !r.result.success)
      .map((r) => `${r.slug}: ${r.result.error?.issues.map((i) => `${String(i.path[0])} ${i.message}`).join('; ')}`);
    expect(refused).toEqual([]);
  });

  it('stores rating and count consistent with the seeded reviews', async () => {
    const rows = await t.database.query<{ bad: number }>(
      `select count(*)::int as bad from products p
       where p.num_reviews <> (select count(*) from reviews r where r.product_id = p.id)
          or abs(p.rating - coalesce((select avg(rating) from reviews r where r.product_id = p.id), 0)) > 0.01`,
    );
    expect(rows[0]?.bad).toBe(0);
  });

  it('adds nothing when products exist, and is quick', async () => {
    expect(await seedCatalogue(t.database.db)).toEqual({ products: 0, reviews: 0 });
    console.info(`catalogue seed took ${ms} ms`);
  });

  it('without the demo seed, the demo image keys are not drawn', async () => {
    const plain = await createTestApp();
    try {
      await seedCatalogue(plain.database.db);
      expect(isDemoImageStore(plain.app.ctx.uploads)).toBe(false);
      const p = (await plain.app.inject({ method: 'GET', url: '/api/products/slug/aurora-wireless-headphones' })).json() as Product;
      expect((await plain.app.inject({ method: 'GET', url: p.image })).statusCode).toBe(404);
      expect(await plain.app.ctx.uploads.list()).toEqual([]);
    } finally {
      await plain.close();
    }
  });
});
