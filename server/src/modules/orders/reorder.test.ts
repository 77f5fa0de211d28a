import type { Cart, Order } from '@shop/contracts';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { products } from '../../db/schema.ts';
import { addToCart, call, createProduct, placeOrderFor } from '../../test/commerce-factories.ts';
import { createAdmin, createTestApp, createUser, type TestApp } from '../../test/test-app.ts';
import { expireUnpaidOrders } from './release-stock.ts';

const later = () => new Date(Date.now() + 31 * 60_000);

describe('POST /api/orders/:id/reorder (order again after an unpaid order expired)', () => {
  let t: TestApp;
  beforeAll(async () => { t = await createTestApp(); });
  afterAll(async () => { await t.close(); });

  it("refills the owner's cart with the expired order's lines at today's prices", async () => {
    const u = await createUser(t);
    const a = await createProduct(t, { price: 10, countInStock: 10 });
    const b = await createProduct(t, { price: 5, countInStock: 10 });
    const order = await placeOrderFor(t, u, [{ productId: a.id, quantity: 2 }, { productId: b.id, quantity: 1 }]);
    // The cart is emptied (as after a payment elsewhere) before the order expires.
    expect((await call<Cart>(t, u, 'DELETE', '/api/cart')).status).toBe(200);
    await expireUnpaidOrders(t.database.db, later());
    expect((await call<Order>(t, u, 'GET', `/api/orders/${order._id}`)).body).toMatchObject({ isExpired: true, isPaid: false });

    await t.database.db.update(products).set({ price: 12 }).where(eq(products.id, a.id));
    const res = await call<Cart>(t, u, 'POST', `/api/orders/${order._id}/reorder`);
    expect(res.status).toBe(200);
    const lines = res.body.cartItems.map((i) => ({ id: i._id, quantity: i.quantity, price: i.price })).sort((x, y) => x.id.localeCompare(y.id));
    expect(lines).toEqual([{ id: a.id, quantity: 2, price: 12 }, { id: b.id, quantity: 1, price: 5 }].sort((x, y) => x.id.localeCompare(y.id)));
    expect(res.body.notices ?? []).toEqual([]);
    expect((await call<Cart>(t, u, 'GET', '/api/cart')).body.cartItems).toHaveLength(2);
  });

  it('adds to what is already in the cart, caps at stock and reports unavailable products', async () => {
    const u = await createUser(t);
    const a = await createProduct(t, { countInStock: 10 });
    const gone = await createProduct(t, { countInStock: 10 });
    const order = await placeOrderFor(t, u, [{ productId: a.id, quantity: 3 }, { productId: gone.id, quantity: 1 }]);
    await expireUnpaidOrders(t.database.db, later());
    await t.database.db.update(products).set({ countInStock: 4 }).where(eq(products.id, a.id));
    await t.database.db.update(products).set({ isDraft: true }).where(eq(products.id, gone.id));
    await call(t, u, 'DELETE', '/api/cart');
    await addToCart(t, u, a.id, 2);
    const res = await call<Cart>(t, u, 'POST', `/api/orders/${order._id}/reorder`);
    expect(res.status).toBe(200);
    expect(res.body.cartItems.map((i) => [i._id, i.quantity])).toEqual([[a.id, 4]]);
    expect(res.body.notices).toEqual([
      `Only 4 of '${a.name}' in stock: quantity set to 4`,
      'A product in this order is no longer available and was not added',
    ]);
  });

  it("answers 404 for someone else's order (admins too), 401 anonymous, 404 for a bad id", async () => {
    const owner = await createUser(t);
    const other = await createUser(t);
    const admin = await createAdmin(t);
    const p = await createProduct(t);
    const order = await placeOrderFor(t, owner, [{ productId: p.id, quantity: 1 }]);
    expect(await call(t, other, 'POST', `/api/orders/${order._id}/reorder`)).toEqual({ status: 404, body: { message: 'Order Not Found', code: 'NOT_FOUND' } });
    expect((await call(t, admin, 'POST', `/api/orders/${order._id}/reorder`)).status).toBe(404);
    expect((await call(t, null, 'POST', `/api/orders/${order._id}/reorder`)).status).toBe(401);
    expect((await call(t, owner, 'POST', '/api/orders/not-an-id/reorder')).status).toBe(404);
    expect((await call<Cart>(t, other, 'GET', '/api/cart')).body.cartItems).toEqual([]);
  });
});
