import fc from 'fast-check';
import { inArray, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../db/client.ts';
import { products } from '../db/schema.ts';
import { openTestDatabase } from '../test/test-app.ts';
import { newId } from './ids.ts';
import { finalPrice, formatMoney, roundMoney } from './money.ts';

const priced = fc.record({
  // numeric(12,2): up to 9,999,999,999.99; keep within what a shop sells but cover big values too.
  cents: fc.oneof(fc.integer({ min: 0, max: 100_000 }), fc.integer({ min: 0, max: 99_999_999_999 })),
  isOnSale: fc.boolean(),
  saleDiscount: fc.integer({ min: 0, max: 100 }),
});

describe('finalPrice', () => {
  it('rounds half away from zero to cents, exactly', () => {
    expect(finalPrice({ price: 12345.67, isOnSale: true, saleDiscount: 15 })).toBe(10493.82);
    // 92708.25 * 0.42 = 38937.465 exactly; binary floating point would round it down.
    expect(finalPrice({ price: 92708.25, isOnSale: true, saleDiscount: 58 })).toBe(38937.47);
    expect(finalPrice({ price: 36902.5, isOnSale: true, saleDiscount: 73 })).toBe(9963.68);
    expect(finalPrice({ price: 0.05, isOnSale: true, saleDiscount: 50 })).toBe(0.03);
    expect(finalPrice({ price: 12.5, isOnSale: true, saleDiscount: 10 })).toBe(11.25);
    expect(finalPrice({ price: 89.99, isOnSale: true, saleDiscount: 50 })).toBe(45);
    expect(finalPrice({ price: 19.99, isOnSale: false, saleDiscount: 50 })).toBe(19.99);
    expect(finalPrice({ price: 19.99, isOnSale: true, saleDiscount: 100 })).toBe(0);
    expect(roundMoney(1.005)).toBe(1.01);
  });

  it('never exceeds the price, equals it when not on sale, and falls as the discount grows', () => {
    fc.assert(
      fc.property(priced, ({ cents, isOnSale, saleDiscount }) => {
        const price = cents / 100;
        const fp = finalPrice({ price, isOnSale, saleDiscount });
        expect(fp).toBeGreaterThanOrEqual(0);
        expect(fp).toBeLessThanOrEqual(price);
        expect(Math.round(fp * 100) / 100).toBe(fp);
        if (!isOnSale) expect(fp).toBe(price);
        if (saleDiscount < 100) {
          expect(finalPrice({ price, isOnSale: true, saleDiscount: saleDiscount + 1 })).toBeLessThanOrEqual(finalPrice({ price, isOnSale: true, saleDiscount }));
        }
      }),
      { numRuns: 2000 },
    );
  });
});

describe('products.final_price column mirrors finalPrice()', () => {
  let database: Database;
  let cleanup: () => Promise<void>;
  beforeAll(async () => {
    ({ database, cleanup } = await openTestDatabase());
  });
  afterAll(async () => { await cleanup(); });

  it('agrees for thousands of generated prices and discounts', async () => {
    const edge = [
      { cents: 1234567, isOnSale: true, saleDiscount: 15 },
      { cents: 5, isOnSale: true, saleDiscount: 50 },
      { cents: 1, isOnSale: true, saleDiscount: 50 },
      { cents: 99_999_999_999, isOnSale: true, saleDiscount: 33 },
      { cents: 0, isOnSale: true, saleDiscount: 100 },
      { cents: 101, isOnSale: true, saleDiscount: 50 },
      { cents: 9_270_825, isOnSale: true, saleDiscount: 58 },
      { cents: 3_690_250, isOnSale: true, saleDiscount: 73 },
    ];
    const samples = [...edge, ...fc.sample(priced, { numRuns: 3000, seed: 20_240_601 })];
    const ids: string[] = [];
    for (let i = 0; i < samples.length; i += 500) {
      const batch = samples.slice(i, i + 500).map((s) => {
        const id = newId();
        ids.push(id);
        // Drafts: the samples include free products, which only a draft may be (products_published_min_price).
        return { id, name: `P ${id}`, slug: `p-${id}`, price: s.cents / 100, isOnSale: s.isOnSale, saleDiscount: s.saleDiscount, isDraft: true };
      });
      await database.db.insert(products).values(batch);
    }
    const rows = await database.db
      .select({ id: products.id, finalPrice: sql<string>`${products.finalPrice}::text` })
      .from(products)
      .where(inArray(products.id, ids));
    const byId = new Map(rows.map((r) => [r.id, r.finalPrice]));
    const mismatches = samples
      .map((s, i) => ({ s, db: Number(byId.get(ids[i] ?? '')), js: finalPrice({ price: s.cents / 100, isOnSale: s.isOnSale, saleDiscount: s.saleDiscount }) }))
      .filter((m) => m.db !== m.js);
    expect(rows).toHaveLength(samples.length);
    expect(mismatches).toEqual([]);
  });
});

describe('formatMoney', () => {
  it('prints dollars with thousands separators and cents', () => {
    expect(formatMoney(3750.18)).toBe('$3,750.18');
    expect(formatMoney(1234567.891)).toBe('$1,234,567.89');
    expect(formatMoney(7)).toBe('$7.00');
    expect(formatMoney(-5)).toBe('-$5.00');
  });
});
