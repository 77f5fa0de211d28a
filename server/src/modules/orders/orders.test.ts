import type { Cart, Order, OrderActionResponse } from '@shop/contracts';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { orders, products, users } from '../../db/schema.ts';
import {
  addToCart, call, createAddressFor, createProduct, placeOrderFor, sampleAddress, stockOf,
} from '../../test/commerce-factories.ts';
import { createAdmin, createTestApp, createUser, type TestApp, type TestUser } from '../../test/test-app.ts';
import { expireUnpaidOrders } from './release-stock.ts';

const ORDER_NOT_FOUND = { status: 404, body: { message: 'Order Not Found', code: 'NOT_FOUND' } };
const minutes = (n: number) => n * 60_000;

describe('orders API', () => {
  let t: TestApp;
  let admin: TestUser;
  let alice: TestUser;
  let bob: TestUser;
  beforeAll(async () => {
    t = await createTestApp({ env: { ORDER_EXPIRY_MINUTES: '30' } });
    admin = await createAdmin(t);
    alice = await createUser(t, { name: 'Alice' });
    bob = await createUser(t, { name: 'Bob' });
  });
  afterAll(async () => { await t.close(); });

  describe('placing an order', () => {
    it('builds the order from the server cart with the true prices, ignoring amounts in the body', async () => {
      const u = await createUser(t, { name: 'Tamper' });
      const sale = await createProduct(t, { name: 'Sale Kettle', price: 19.99, isOnSale: true, saleDiscount: 15, countInStock: 10 });
      const plain = await createProduct(t, { name: 'Plain Cup', price: 5.5, countInStock: 4 });
      await addToCart(t, u, sale.id, 3);
      await addToCart(t, u, plain.id, 1);
      const address = await createAddressFor(t, u, sampleAddress(5));

      const res = await call<Order>(t, u, 'POST', '/api/orders', {
        addressId: address._id,
        paymentMethod: 'PayPal',
        orderItems: [{ _id: sale.id, product: sale.id, name: 'Sale Kettle', quantity: 30, price: 0.01 }],
        itemsPrice: 0.01, shippingPrice: 0, taxPrice: 0, totalPrice: 0.01,
      });
      expect(res.status).toBe(201);
      const order = res.body;
      expect(order.orderItems.map((i) => ({ product: i.product, name: i.name, price: i.price, quantity: i.quantity }))).toEqual([
        { product: sale.id, name: 'Sale Kettle', price: 16.99, quantity: 3 },
        { product: plain.id, name: 'Plain Cup', price: 5.5, quantity: 1 },
      ]);
      expect(order).toMatchObject({
        itemsPrice: 56.47, shippingPrice: 0, taxPrice: 0, totalPrice: 56.47, currency: 'USD', paymentMethod: 'PayPal',
        isPaid: false, paidAt: null, paymentResult: null, isDelivered: false, deliveredAt: null, isExpired: false,
        user: { _id: u.id, name: 'Tamper' },
        shippingAddress: { fullName: 'Jane Doe 5', address: '5 Main Street', city: 'Springfield', postalCode: '10005', country: 'USA' },
      });
      expect(order.orderItems[0]).toMatchObject({ slug: sale.slug, image: sale.image });
      expect(order.orderItems[0]!._id).toMatch(/^[0-9a-f]{24}$/);
      const expiresIn = new Date(order.expiresAt!).getTime() - new Date(order.createdAt).getTime();
      expect(expiresIn).toBe(minutes(30));
      // Stock is reserved at once; the cart stays until payment.
      expect(await stockOf(t, sale.id)).toBe(7);
      expect(await stockOf(t, plain.id)).toBe(3);
      expect((await call<Cart>(t, u, 'GET', '/api/cart')).body.cartItems).toHaveLength(2);
    });

    it('accepts a typed shipping address, and requires one', async () => {
      const u = await createUser(t);
      const p = await createProduct(t);
      await addToCart(t, u, p.id, 1);
      expect(await call(t, u, 'POST', '/api/orders', { paymentMethod: 'PayPal' })).toEqual({
        status: 400,
        body: { message: 'Shipping address is required', code: 'BAD_REQUEST', fieldErrors: { shippingAddress: 'Shipping address is required' } },
      });
      const bad = await call(t, u, 'POST', '/api/orders', { shippingAddress: { ...sampleAddress(), city: '' } });
      expect(bad.status).toBe(400);
      expect(bad.body).toMatchObject({ message: 'City is required' });
      expect((await call(t, u, 'POST', '/api/orders', { shippingAddress: sampleAddress(), paymentMethod: 'Stripe' })).body)
        .toMatchObject({ message: 'Payment method is not supported' });
      const ok = await call<Order>(t, u, 'POST', '/api/orders', { shippingAddress: sampleAddress(3) });
      expect(ok.status).toBe(201);
      expect(ok.body.shippingAddress.address).toBe('3 Main Street');
    });

    it("refuses another customer's address book entry", async () => {
      const p = await createProduct(t);
      await addToCart(t, bob, p.id, 1);
      const alicesAddress = await createAddressFor(t, alice, sampleAddress(6));
      expect(await call(t, bob, 'POST', '/api/orders', { addressId: alicesAddress._id }))
        .toEqual({ status: 404, body: { message: 'Address not found', code: 'NOT_FOUND' } });
      await call(t, bob, 'DELETE', '/api/cart');
    });

    it("answers 'Cart is empty' for an empty cart", async () => {
      const u = await createUser(t);
      expect(await call(t, u, 'POST', '/api/orders', { shippingAddress: sampleAddress() }))
        .toEqual({ status: 400, body: { message: 'Cart is empty', code: 'CART_EMPTY' } });
    });

    it("answers 'Sorry. Product is out of stock' and takes nothing when one line is short", async () => {
      const u = await createUser(t);
      const a = await createProduct(t, { countInStock: 5 });
      const b = await createProduct(t, { countInStock: 2 });
      await addToCart(t, u, a.id, 2);
      await addToCart(t, u, b.id, 2);
      await t.database.db.update(products).set({ countInStock: 1 }).where(eq(products.id, b.id));
      expect(await call(t, u, 'POST', '/api/orders', { shippingAddress: sampleAddress() }))
        .toEqual({ status: 400, body: { message: 'Sorry. Product is out of stock', code: 'OUT_OF_STOCK' } });
      expect(await stockOf(t, a.id)).toBe(5); // rolled back
      expect(await stockOf(t, b.id)).toBe(1);
    });

    it('refuses when a product in the cart was deleted', async () => {
      const u = await createUser(t);
      const p = await createProduct(t);
      await addToCart(t, u, p.id, 1);
      await t.database.db.delete(products).where(eq(products.id, p.id));
      expect((await call(t, u, 'POST', '/api/orders', { shippingAddress: sampleAddress() })).body).toMatchObject({
        message: 'Some products in your cart are no longer available. Please review your cart.',
      });
    });

    it('a double submit answers the first order and reserves stock once', async () => {
      const u = await createUser(t);
      const p = await createProduct(t, { countInStock: 10 });
      await addToCart(t, u, p.id, 2);
      const first = await call<Order>(t, u, 'POST', '/api/orders', { shippingAddress: sampleAddress() });
      const second = await call<Order>(t, u, 'POST', '/api/orders', { shippingAddress: sampleAddress() });
      expect(first.status).toBe(201);
      expect(second.status).toBe(200);
      expect(second.body._id).toBe(first.body._id);
      expect(await stockOf(t, p.id)).toBe(8);
      // A different address is a different order.
      const third = await call<Order>(t, u, 'POST', '/api/orders', { shippingAddress: sampleAddress(2) });
      expect(third.status).toBe(201);
      expect(await stockOf(t, p.id)).toBe(6);
    });

    it('a double submit sent concurrently (a double click) places one order: the others answer it, stock is taken once', async () => {
      const u = await createUser(t);
      const p = await createProduct(t, { countInStock: 10 });
      const q = await createProduct(t, { countInStock: 10 });
      await addToCart(t, u, p.id, 2);
      await addToCart(t, u, q.id, 1);
      const results = await Promise.all(Array.from({ length: 5 }, () =>
        call<Order>(t, u, 'POST', '/api/orders', { shippingAddress: sampleAddress() })));
      expect(results.map((r) => r.status).sort()).toEqual([200, 200, 200, 200, 201]);
      expect(new Set(results.map((r) => r.body._id)).size).toBe(1);
      expect(await stockOf(t, p.id)).toBe(8);
      expect(await stockOf(t, q.id)).toBe(9);
    });

    it('50 concurrent orders for a product with 5 in stock give exactly 5 orders and stock 0', async () => {
      const p = await createProduct(t, { name: 'Hot Item', countInStock: 5 });
      const buyers = await Promise.all(Array.from({ length: 50 }, (_, i) => createUser(t, { name: `Buyer ${i}` })));
      for (const b of buyers) await addToCart(t, b, p.id, 1);
      const results = await Promise.all(buyers.map((b) => call<Order>(t, b, 'POST', '/api/orders', { shippingAddress: sampleAddress() })));
      const created = results.filter((r) => r.status === 201);
      const refused = results.filter((r) => r.status !== 201);
      expect(created).toHaveLength(5);
      expect(refused).toHaveLength(45);
      for (const r of refused) expect(r).toEqual({ status: 400, body: { message: 'Sorry. Product is out of stock', code: 'OUT_OF_STOCK' } });
      expect(await stockOf(t, p.id)).toBe(0);
      const all = (await call<{ orders: Order[] }>(t, admin, 'GET', '/api/orders?pageSize=100')).body.orders;
      expect(all.filter((o) => o.orderItems.some((i) => i.product === p.id))).toHaveLength(5);
    }, 120_000);
  });

  describe('expiry', () => {
    it('an unpaid order expires and releases its stock exactly once', async () => {
      const u = await createUser(t);
      const p = await createProduct(t, { countInStock: 10 });
      const order = await placeOrderFor(t, u, [{ productId: p.id, quantity: 3 }]);
      expect(await stockOf(t, p.id)).toBe(7);

      // Not yet due.
      expect(await expireUnpaidOrders(t.database.db, new Date(Date.now() + minutes(29)))).not.toContain(order._id);
      expect(await stockOf(t, p.id)).toBe(7);

      const later = new Date(Date.now() + minutes(31));
      const [a, b] = await Promise.all([expireUnpaidOrders(t.database.db, later), expireUnpaidOrders(t.database.db, later)]);
      expect([...a!, ...b!].filter((id) => id === order._id)).toHaveLength(1);
      expect(await stockOf(t, p.id)).toBe(10);
      expect(await expireUnpaidOrders(t.database.db, new Date(Date.now() + minutes(60)))).not.toContain(order._id);
      expect(await stockOf(t, p.id)).toBe(10);

      const seen = await call<Order>(t, u, 'GET', `/api/orders/${order._id}`);
      expect(seen.body).toMatchObject({ isPaid: false, isExpired: true });
      // An expired order can no longer be paid (demo mode in tests).
      expect(await call(t, u, 'PUT', `/api/orders/${order._id}/pay`, { demo: true }))
        .toEqual({ status: 400, body: { message: 'This order has expired. Please place a new order.', code: 'ORDER_EXPIRED' } });
      // Deleting it later does not release the stock a second time.
      expect((await call(t, admin, 'DELETE', `/api/orders/${order._id}`)).status).toBe(200);
      expect(await stockOf(t, p.id)).toBe(10);
    });

    it('paid orders never expire', async () => {
      const u = await createUser(t);
      const p = await createProduct(t, { countInStock: 4 });
      const order = await placeOrderFor(t, u, [{ productId: p.id, quantity: 2 }]);
      expect((await call(t, u, 'PUT', `/api/orders/${order._id}/pay`, { demo: true })).status).toBe(200);
      expect(await expireUnpaidOrders(t.database.db, new Date(Date.now() + minutes(600)))).not.toContain(order._id);
      expect(await stockOf(t, p.id)).toBe(2);
    });

    it('the periodic expiry job releases expired stock on its own', async () => {
      const t2 = await createTestApp({ env: { ORDER_EXPIRY_MINUTES: '0.02', JOBS_POLL_MS: '200' } }); // 1.2 s expiry, 1 s sweep (a job)
      try {
        const u = await createUser(t2);
        const p = await createProduct(t2, { countInStock: 3 });
        await placeOrderFor(t2, u, [{ productId: p.id, quantity: 3 }]);
        expect(await stockOf(t2, p.id)).toBe(0);
        await expect.poll(() => stockOf(t2, p.id), { timeout: 10_000, interval: 200 }).toBe(3);
      } finally {
        await t2.close();
      }
    }, 90_000);
  });

  describe('reading orders', () => {
    it("GET orders/{id}: owner and admin see it; another customer gets 404 'Order Not Found'", async () => {
      const p = await createProduct(t);
      const order = await placeOrderFor(t, alice, [{ productId: p.id, quantity: 1 }]);
      // The one-order read adds its refunds and timeline to what placing it answered.
      expect((await call<Order>(t, alice, 'GET', `/api/orders/${order._id}`)).body).toEqual({
        ...order, refunds: [], events: [{ _id: expect.any(String), type: 'placed', message: 'Order placed', createdAt: order.createdAt, internal: false }],
      });
      expect(order.hasSupplierLines).toBe(false);
      expect((await call<Order>(t, admin, 'GET', `/api/orders/${order._id}`)).status).toBe(200);
      expect(await call(t, bob, 'GET', `/api/orders/${order._id}`)).toEqual(ORDER_NOT_FOUND);
      expect(await call(t, alice, 'GET', '/api/orders/aaaaaaaaaaaaaaaaaaaaaaaa')).toEqual(ORDER_NOT_FOUND);
      expect(await call(t, alice, 'GET', '/api/orders/nonsense')).toEqual(ORDER_NOT_FOUND);
      expect((await call(t, null, 'GET', `/api/orders/${order._id}`)).status).toBe(401);
      await call(t, alice, 'DELETE', '/api/cart');
    });

    it('GET orders/mine lists only my orders, newest first', async () => {
      const u = await createUser(t);
      const p = await createProduct(t);
      const first = await placeOrderFor(t, u, [{ productId: p.id, quantity: 1 }]);
      await call(t, u, 'DELETE', '/api/cart');
      const second = await placeOrderFor(t, u, [{ productId: p.id, quantity: 2 }]);
      const mine = await call<Order[]>(t, u, 'GET', '/api/orders/mine');
      expect(mine.body.map((o) => o._id)).toEqual([second._id, first._id]);
      expect((await call<Order[]>(t, bob, 'GET', '/api/orders/mine')).body.some((o) => o._id === first._id)).toBe(false);
    });

    it('GET orders (admin) includes the user name, or null once the user is deleted', async () => {
      const gone = await createUser(t, { name: 'Soon Gone' });
      const p = await createProduct(t);
      const order = await placeOrderFor(t, gone, [{ productId: p.id, quantity: 1 }]);
      let all = (await call<{ orders: Order[] }>(t, admin, 'GET', '/api/orders?pageSize=100')).body.orders;
      expect(all.find((o) => o._id === order._id)!.user).toEqual({ _id: gone.id, name: 'Soon Gone' });
      await t.database.db.delete(users).where(eq(users.id, gone.id));
      all = (await call<{ orders: Order[] }>(t, admin, 'GET', '/api/orders?pageSize=100')).body.orders;
      expect(all.find((o) => o._id === order._id)!.user).toBeNull();
    });
  });

  describe('admin actions', () => {
    it('admin-only endpoints refuse customers (403) and guests (401)', async () => {
      const p = await createProduct(t);
      const order = await placeOrderFor(t, alice, [{ productId: p.id, quantity: 1 }]);
      await call(t, alice, 'DELETE', '/api/cart');
      const routes = [
        ['GET', '/api/orders'], ['DELETE', `/api/orders/${order._id}`],
        ['PUT', `/api/orders/${order._id}/deliver`], ['PUT', `/api/orders/${order._id}/undeliver`],
      ] as const;
      for (const [method, url] of routes) {
        expect(await call(t, alice, method, url), `${method} ${url}`)
          .toEqual({ status: 403, body: { message: 'Admin access required', code: 'FORBIDDEN' } });
        expect((await call(t, null, method, url)).status).toBe(401);
      }
      expect((await call<Order>(t, alice, 'GET', `/api/orders/${order._id}`)).body.isDelivered).toBe(false);
    });

    it('delivers only a paid order, and can revert it', async () => {
      const p = await createProduct(t);
      const order = await placeOrderFor(t, alice, [{ productId: p.id, quantity: 1 }]);
      expect(await call(t, admin, 'PUT', `/api/orders/${order._id}/deliver`))
        .toEqual({ status: 400, body: { message: 'Order is not paid yet', code: 'ORDER_NOT_PAID' } });
      const paid = await call<OrderActionResponse>(t, admin, 'PUT', `/api/orders/${order._id}/pay`, { demo: true });
      expect(paid.body.message).toBe('Order is paid successfully');

      const delivered = await call<OrderActionResponse>(t, admin, 'PUT', `/api/orders/${order._id}/deliver`);
      expect(delivered.status).toBe(200);
      expect(delivered.body.message).toBe('Order is delivered');
      expect(delivered.body.order).toMatchObject({ _id: order._id, isPaid: true, isDelivered: true });
      expect(delivered.body.order.deliveredAt).toEqual(expect.any(String));

      const reverted = await call<OrderActionResponse>(t, admin, 'PUT', `/api/orders/${order._id}/undeliver`);
      expect(reverted.body).toMatchObject({ message: 'Order status updated to not delivered', order: { isDelivered: false, deliveredAt: null } });
      expect(await call(t, admin, 'PUT', '/api/orders/aaaaaaaaaaaaaaaaaaaaaaaa/deliver')).toEqual(ORDER_NOT_FOUND);
    });

    it('deleting an unpaid order releases its stock; a paid one is refused and keeps it', async () => {
      const p = await createProduct(t, { countInStock: 10 });
      const u = await createUser(t);
      const unpaid = await placeOrderFor(t, u, [{ productId: p.id, quantity: 4 }]);
      expect(await stockOf(t, p.id)).toBe(6);
      expect(await call(t, admin, 'DELETE', `/api/orders/${unpaid._id}`)).toEqual({ status: 200, body: { message: 'Order deleted successfully' } });
      expect(await stockOf(t, p.id)).toBe(10);
      expect(await call(t, admin, 'DELETE', `/api/orders/${unpaid._id}`)).toEqual(ORDER_NOT_FOUND);
      expect(await t.database.db.select().from(orders).where(eq(orders.id, unpaid._id))).toEqual([]);

      const paid = await placeOrderFor(t, u, [{ productId: p.id, quantity: 1 }]);
      await call(t, u, 'PUT', `/api/orders/${paid._id}/pay`, { demo: true });
      expect(await call(t, admin, 'DELETE', `/api/orders/${paid._id}`)).toEqual({
        status: 409, body: { message: 'Refund or cancel a paid order before deleting it', code: 'ORDER_PAID' },
      });
      expect(await stockOf(t, p.id)).toBe(9);
    });
  });
});
