import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Product } from '@shop/contracts';
import { createTestApp, type TestApp } from '../../test/test-app.ts';
import { seedCatalogue, type CatalogueSeedResult } from './catalogue.ts';

describe('demo catalogue seed', () => {
  let t: TestApp;
  let result: CatalogueSeedResult;
  let ms: number;
  beforeAll(async () => {
    t = await createTestApp();
    const started = Date.now();
    result = await seedCatalogue(t.database.db, t.app.ctx.uploads);
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

  it('writes real WebP images to the upload store and serves them', async () => {
    const files = await t.app.ctx.uploads.list();
    expect(files.length).toBe(result.images);
    expect(result.images).toBe(result.products * 3);
    const p = (await t.app.inject({ method: 'GET', url: '/api/products/slug/aurora-wireless-headphones' })).json() as Product;
    expect(p.reviews?.length).toBe(p.numReviews);
    for (const url of [p.image, ...p.images]) {
      const res = await t.app.inject({ method: 'GET', url });
      expect(res.statusCode, url).toBe(200);
      const meta = await sharp(res.rawPayload).metadata();
      expect([meta.format, meta.width, meta.height]).toEqual(['webp', 600, 600]);
    }
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
    expect(await seedCatalogue(t.database.db, t.app.ctx.uploads)).toEqual({ products: 0, reviews: 0, images: 0 });
    console.info(`catalogue seed took ${ms} ms`);
  });
});
