import { ORDER_MESSAGES, PRODUCT_FORM_MESSAGES as M, type Product } from '@shop/contracts';
import { count, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../../db/client.ts';
import { listMigrations, migrate } from '../../db/migrate.ts';
import { orders, products } from '../../db/schema.ts';
import { newId } from '../../lib/ids.ts';
import { addToCart, call, createProduct, sampleAddress, stockOf } from '../../test/commerce-factories.ts';
import { createAdmin, createScratchPostgres, createTestApp, createUser, TEST_DB, type TestApp, type TestUser } from '../../test/test-app.ts';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

describe('money: what the shopper pays is at least $0.01 after rounding and the sale discount', () => {
  let t: TestApp;
  let admin: TestUser;
  const validBody = (id: string, over: Record<string, unknown> = {}) => ({
    _id: id, name: 'Penny Sweet', slug: `penny-${id}`, price: 1, image: '/uploads/p.webp', images: [],
    category: 'Sweets', brand: 'Acme', countInStock: 7, description: 'Cheap.', isTodaysDeal: false, isGift: false,
    isOnSale: false, saleDiscount: 0, ...over,
  });
  const createDraft = async () => {
    const res = await t.app.inject({ method: 'POST', url: '/api/products', headers: { cookie: admin.cookie } });
    return (res.json() as { product: Product }).product;
  };
  const put = (id: string, body: object) => t.app.inject({ method: 'PUT', url: `/api/products/${id}`, headers: { cookie: admin.cookie }, payload: body });
  const stored = async (id: string) => (await t.database.db.select().from(products).where(eq(products.id, id)))[0];

  beforeAll(async () => {
    t = await createTestApp();
    admin = await createAdmin(t);
  });
  afterAll(async () => { await t.close(); });

  it.each([
    ['a price of less than a cent (0.004: more than 2 decimals are refused, not rounded away)', { price: 0.004 }, 'price', M.priceDecimals],
    ['the same as a form string', { price: '0.004' }, 'price', M.priceDecimals],
    ['a price of 0', { price: 0 }, 'price', M.price],
    ['a price of the wrong type', { price: { amount: 1 } }, 'price', M.price],
    ['a discount below 1 when on sale', { isOnSale: true, saleDiscount: 0 }, 'saleDiscount', M.saleDiscount],
    ['a discount above 100', { isOnSale: true, saleDiscount: 101 }, 'saleDiscount', M.saleDiscount],
    ['a discount of the wrong type', { isOnSale: true, saleDiscount: [5] }, 'saleDiscount', M.saleDiscount],
    ['a 100 % discount (free)', { isOnSale: true, saleDiscount: 100 }, 'saleDiscount', M.finalPriceMin],
    ['a discount that leaves less than a cent', { price: 0.01, isOnSale: true, saleDiscount: 51 }, 'saleDiscount', M.finalPriceMin],
    ['99 % off $0.40 (0.004 rounds to 0)', { price: 0.4, isOnSale: true, saleDiscount: 99 }, 'saleDiscount', M.finalPriceMin],
  ])('refuses %s with the spec message on the field; nothing changes', async (_label, over, field, message) => {
    const draft = await createDraft();
    const res = await put(draft._id, validBody(draft._id, over));
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ message, code: 'VALIDATION_ERROR', fieldErrors: { [field]: message } });
    expect(await stored(draft._id)).toMatchObject({ isDraft: true, price: 0, name: 'Sample name' });
  });

  it('accepts the smallest prices that still cost a cent: 0.01, 0.01 at 50 % is 0.01, 99 % of $1 is 0.01', async () => {
    for (const [over, price, final] of [
      [{ price: 0.01 }, 0.01, 0.01],
      [{ price: 0.01, isOnSale: true, saleDiscount: 50 }, 0.01, 0.01],
      [{ price: 1, isOnSale: true, saleDiscount: 99 }, 1, 0.01],
      [{ price: 0.5, isOnSale: true, saleDiscount: 99 }, 0.5, 0.01],
    ] as const) {
      const draft = await createDraft();
      const res = await put(draft._id, validBody(draft._id, over));
      expect(res.statusCode, JSON.stringify(over)).toBe(200);
      expect(res.json().product).toMatchObject({ price, finalPrice: final, isDraft: false });
    }
  });

  it('the database refuses a published product that costs less than a cent, and keeps drafts possible', async () => {
    const draft = await createProduct(t, { price: 0, isDraft: true });
    expect(draft.finalPrice).toBe(0);
    await expect(createProduct(t, { price: 0 })).rejects.toThrow();
    await expect(createProduct(t, { price: 10, isOnSale: true, saleDiscount: 100 })).rejects.toThrow();
    await expect(t.database.db.update(products).set({ isDraft: false }).where(eq(products.id, draft.id))).rejects.toThrow();
    const cheap = await createProduct(t, { price: 0.01 });
    await expect(t.database.db.update(products).set({ isOnSale: true, saleDiscount: 60 }).where(eq(products.id, cheap.id))).rejects.toThrow();
    expect(await stored(cheap.id)).toMatchObject({ price: 0.01, isOnSale: false, finalPrice: 0.01 });
  });
});

describe('money: order placement never makes a $0 line', () => {
  let t: TestApp;
  let customer: TestUser;
  beforeAll(async () => {
    t = await createTestApp();
    customer = await createUser(t);
  });
  afterAll(async () => { await t.close(); });

  it('refuses an order with a product that would be free, even if the catalogue held one; nothing is taken', async () => {
    const paid = await createProduct(t, { price: 5, countInStock: 3 });
    const free = await createProduct(t, { price: 5, countInStock: 3 });
    await addToCart(t, customer, paid.id, 1);
    await addToCart(t, customer, free.id, 1);
    // Simulate a catalogue from before the rule: lift the database check and make the product free.
    await t.database.exec('ALTER TABLE products DROP CONSTRAINT products_published_min_price');
    try {
      await t.database.db.update(products).set({ isOnSale: true, saleDiscount: 100 }).where(eq(products.id, free.id));
      const res = await call(t, customer, 'POST', '/api/orders', { shippingAddress: sampleAddress(), paymentMethod: 'PayPal' });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ message: ORDER_MESSAGES.productsUnavailable, code: 'CART_CHANGED' });
      expect(await stockOf(t, paid.id)).toBe(3);
      expect(await stockOf(t, free.id)).toBe(3);
      expect((await t.database.db.select({ n: count() }).from(orders))[0]?.n).toBe(0);
    } finally {
      await t.database.db.update(products).set({ isOnSale: false, saleDiscount: 0 }).where(eq(products.id, free.id));
      await t.database.exec('ALTER TABLE products ADD CONSTRAINT products_published_min_price CHECK (is_draft OR final_price >= 0.01)');
    }
  });
});

describe('migration 0004: published products that break the rule become drafts', () => {
  it('keeps the catalogue migratable and hides only the free products', async () => {
    // Apply 0001-0003, insert a catalogue from before the rule, then apply the rest.
    const before = mkdtempSync(path.join(tmpdir(), 'shop-mig-'));
    for (const m of listMigrations().filter((x) => x.name < '0004')) writeFileSync(path.join(before, m.name), m.sql);
    let database: Database;
    let drop = async () => {};
    if (TEST_DB === 'postgres') {
      const scratch = await createScratchPostgres();
      database = await openDatabase({ databaseUrl: scratch.url, poolSize: 2 });
      drop = scratch.drop;
    } else {
      database = await openDatabase({ pgliteDir: 'memory://' });
    }
    try {
      await migrate(database, before);
      const ids = { fine: newId(), free: newId(), rounded: newId(), draft: newId() };
      // Raw SQL: the Drizzle schema already has columns that later migrations add.
      await database.exec(`INSERT INTO products (id, name, slug, price, is_on_sale, sale_discount, is_draft) VALUES
        ('${ids.fine}', 'Fine', 'fine', 3, true, 50, false),
        ('${ids.free}', 'Free', 'free', 3, true, 100, false),
        ('${ids.rounded}', 'Rounded', 'rounded', 0, false, 0, false),
        ('${ids.draft}', 'Draft', 'draft', 0, false, 0, true)`);
      expect(await migrate(database)).toContain('0004_hardening.sql');
      const rows = await database.db.select({ id: products.id, isDraft: products.isDraft }).from(products);
      const draftOf = Object.fromEntries(rows.map((r) => [r.id, r.isDraft]));
      expect(draftOf).toEqual({ [ids.fine]: false, [ids.free]: true, [ids.rounded]: true, [ids.draft]: true });
    } finally {
      await database.close();
      await drop();
    }
  });
});
