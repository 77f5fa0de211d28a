import type { Order } from '@shop/contracts';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { products } from '../../db/schema.ts';
import { call, createProduct, placeOrderFor } from '../../test/commerce-factories.ts';
import { createAdmin, createTestApp, createUser, type TestApp } from '../../test/test-app.ts';

describe('GET /api/orders/:id says whether the order holds supplier products', () => {
  let t: TestApp;
  beforeAll(async () => { t = await createTestApp(); });
  afterAll(async () => { await t.close(); });

  it("false for an order of the shop's own products, true once a line is a supplier product; lists leave it out", async () => {
    const admin = await createAdmin(t);
    const buyer = await createUser(t);
    const own = await createProduct(t, { countInStock: 10 });
    const supplied = await createProduct(t, { countInStock: 10 });
    const plain = await placeOrderFor(t, buyer, [{ productId: own.id, quantity: 1 }]);
    const mixed = await placeOrderFor(t, buyer, [{ productId: own.id, quantity: 1 }, { productId: supplied.id, quantity: 1 }]);
    // Marked as a supplier product afterwards (the flag reads the products as they are now).
    await t.database.db.update(products).set({ cjData: { pid: 'P-1', vid: 'V-1' } as never }).where(eq(products.id, supplied.id));
    expect((await call<Order>(t, buyer, 'GET', `/api/orders/${plain._id}`)).body.hasSupplierLines).toBe(false);
    expect((await call<Order>(t, admin, 'GET', `/api/orders/${mixed._id}`)).body.hasSupplierLines).toBe(true);
    const mine = await call<{ orders: Order[] } | Order[]>(t, buyer, 'GET', '/api/orders/mine');
    expect(mine.status).toBe(200);
    const list = Array.isArray(mine.body) ? mine.body : mine.body.orders;
    expect(list).toHaveLength(2);
    expect(list.every((o) => o.hasSupplierLines === undefined)).toBe(true);
  });
});
