import type { OrderSummary } from '@shop/contracts';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { orders, products, users } from '../../db/schema.ts';
import { newId } from '../../lib/ids.ts';
import { call } from '../../test/commerce-factories.ts';
import { createAdmin, createTestApp, createUser, type TestApp, type TestUser } from '../../test/test-app.ts';
import { insertProduct } from '../products/test-factories.ts';

const address = { fullName: 'A', address: 'a', city: 'c', postalCode: '1', country: 'X' };

describe('GET /api/orders/summary', () => {
  let t: TestApp;
  let admin: TestUser;
  let customer: TestUser;
  const insertOrder = async (o: { total: number; paidAt?: string; createdAt: string; expiresAt?: string; stockReleased?: boolean }) => {
    const id = newId();
    await t.database.db.insert(orders).values({
      id, userId: customer.id, shippingAddress: address, paymentMethod: 'PayPal', itemsPrice: o.total, shippingPrice: 0, taxPrice: 0, totalPrice: o.total,
      isPaid: Boolean(o.paidAt), paidAt: o.paidAt ? new Date(o.paidAt) : null, paymentId: o.paidAt ? `demo-${id}` : null, createdAt: new Date(o.createdAt),
      expiresAt: o.expiresAt ? new Date(o.expiresAt) : null, stockReleasedAt: o.stockReleased ? new Date(o.createdAt) : null,
    });
    return id;
  };

  beforeAll(async () => {
    t = await createTestApp();
    admin = await createAdmin(t);
    customer = await createUser(t);
    // In range 2026-03-01..2026-03-03: two paid orders on the 1st, one on the 3rd.
    await insertOrder({ total: 10.1, paidAt: '2026-03-01T00:00:01Z', createdAt: '2026-03-01T00:00:00Z' });
    await insertOrder({ total: 20.2, paidAt: '2026-03-01T23:59:59Z', createdAt: '2026-03-01T22:00:00Z' });
    await insertOrder({ total: 5, paidAt: '2026-03-03T12:00:00Z', createdAt: '2026-03-03T11:00:00Z' });
    // Unpaid and expired orders in range never count.
    await insertOrder({ total: 999, createdAt: '2026-03-02T10:00:00Z' });
    await insertOrder({ total: 888, createdAt: '2026-03-02T10:00:00Z', expiresAt: '2026-03-02T10:30:00Z', stockReleased: true });
    // The previous period (2026-02-26..02-28): one paid order.
    await insertOrder({ total: 7, paidAt: '2026-02-27T08:00:00Z', createdAt: '2026-02-27T08:00:00Z' });
    await insertProduct(t, { name: 'Shirt A', category: 'Shirts' });
    await insertProduct(t, { name: 'Shirt B', category: 'Shirts' });
    await insertProduct(t, { name: 'Pants', category: 'Pants' });
    await insertProduct(t, { name: 'Draft', category: 'Drafts', isDraft: true });
  });
  afterAll(async () => { await t.close(); });

  it('answers 401 anonymous, 403 customer', async () => {
    expect((await call(t, null, 'GET', '/api/orders/summary')).status).toBe(401);
    expect((await call(t, customer, 'GET', '/api/orders/summary')).status).toBe(403);
  });

  it('sums paid orders only, lists every day (0 when nothing sold) and the previous period', async () => {
    const res = await call<OrderSummary>(t, admin, 'GET', '/api/orders/summary?from=2026-03-01&to=2026-03-03');
    expect(res.status).toBe(200);
    expect(res.body.orders).toEqual([{ totalSales: 35.3, numOrders: 3, grossSales: 35.3, totalRefunds: 0 }]);
    expect(res.body.dailyOrders).toEqual([
      { _id: '2026-03-01', sales: 30.3, orders: 2, refunds: 0 },
      { _id: '2026-03-02', sales: 0, orders: 0, refunds: 0 },
      { _id: '2026-03-03', sales: 5, orders: 1, refunds: 0 },
    ]);
    expect(res.body.range).toEqual({ from: '2026-03-01', to: '2026-03-03', days: 3 });
    expect(res.body.previous).toMatchObject({ from: '2026-02-26', to: '2026-02-28', totalSales: 7, numOrders: 1 });
    expect(res.body.users).toEqual([{ numUsers: 0, newUsers: 0 }]); // both accounts were made today, after this period
    expect(res.body.productCategories).toEqual([{ _id: 'Shirts', count: 2 }, { _id: 'Pants', count: 1 }]);
  });

  it('keeps the rollup exact when an order is paid, delivered, or its row removed; the API never deletes a paid order', async () => {
    const id = await insertOrder({ total: 100, createdAt: '2026-03-02T09:00:00Z' });
    await t.database.db.update(orders).set({ isPaid: true, paidAt: new Date('2026-03-02T09:05:00Z'), paymentId: `demo-${id}` }).where(eq(orders.id, id));
    let res = await call<OrderSummary>(t, admin, 'GET', '/api/orders/summary?from=2026-03-02&to=2026-03-02');
    expect(res.body.orders).toEqual([{ totalSales: 100, numOrders: 1, grossSales: 100, totalRefunds: 0 }]);
    await t.database.db.update(orders).set({ isDelivered: true, deliveredAt: new Date() }).where(eq(orders.id, id));
    res = await call<OrderSummary>(t, admin, 'GET', '/api/orders/summary?from=2026-03-02&to=2026-03-02');
    expect(res.body.orders).toEqual([{ totalSales: 100, numOrders: 1, grossSales: 100, totalRefunds: 0 }]);
    expect(await call(t, admin, 'DELETE', `/api/orders/${id}`)).toEqual({
      status: 409, body: { message: 'Refund or cancel a paid order before deleting it', code: 'ORDER_PAID' },
    });
    res = await call<OrderSummary>(t, admin, 'GET', '/api/orders/summary?from=2026-03-02&to=2026-03-02');
    expect(res.body.orders).toEqual([{ totalSales: 100, numOrders: 1, grossSales: 100, totalRefunds: 0 }]);
    // The trigger still follows a row removed by hand.
    await t.database.db.delete(orders).where(eq(orders.id, id));
    res = await call<OrderSummary>(t, admin, 'GET', '/api/orders/summary?from=2026-03-02&to=2026-03-02');
    expect(res.body.orders).toEqual([{ totalSales: 0, numOrders: 0, grossSales: 0, totalRefunds: 0 }]);
  });

  it('keeps category counts when products change category, become drafts or are deleted', async () => {
    const p = await insertProduct(t, { name: 'Mover', category: 'Hats' });
    const id = p.id;
    await t.database.db.update(products).set({ category: 'Pants' }).where(eq(products.id, id));
    await t.database.db.update(products).set({ countInStock: 3 }).where(eq(products.id, id));
    let res = await call<OrderSummary>(t, admin, 'GET', '/api/orders/summary');
    expect(res.body.productCategories).toEqual([{ _id: 'Pants', count: 2 }, { _id: 'Shirts', count: 2 }]);
    await t.database.db.delete(products).where(eq(products.id, id));
    res = await call<OrderSummary>(t, admin, 'GET', '/api/orders/summary');
    expect(res.body.productCategories).toEqual([{ _id: 'Shirts', count: 2 }, { _id: 'Pants', count: 1 }]);
  });

  it('defaults to the last 30 days up to today (UTC)', async () => {
    const res = await call<OrderSummary>(t, admin, 'GET', '/api/orders/summary');
    expect(res.body.range.days).toBe(30);
    expect(res.body.range.to).toBe(new Date().toISOString().slice(0, 10));
    expect(res.body.dailyOrders).toHaveLength(30);
    expect(res.body.users).toEqual([{ numUsers: 2, newUsers: 2 }]);
    expect(res.body.previous).toMatchObject({ numUsers: 0, newUsers: 0 });
  });

  it('rejects bad ranges with a clear 400', async () => {
    const cases: Array<[string, RegExp]> = [
      ['from=2026-03-05&to=2026-03-01', /"from" must be on or before "to"/],
      ['from=2024-01-01&to=2026-01-01', /at most 366 days/],
      ['from=2026-02-30', /real calendar days/],
      ['to=yesterday', /YYYY-MM-DD/],
    ];
    for (const [qs, message] of cases) {
      const res = await call<{ message: string }>(t, admin, 'GET', `/api/orders/summary?${qs}`);
      expect(res.status, qs).toBe(400);
      expect(res.body.message, qs).toMatch(message);
    }
  });
  it('keeps a busy day exact across its shards: many payments, a refund-like un-pay and a deletion', async () => {
    // Forty payments on one day spread over several rollup rows (so concurrent payments do not
    // queue on one row); the summary still adds up to the orders themselves.
    const ids: string[] = [];
    for (let i = 0; i < 40; i += 1) ids.push(await insertOrder({ total: 1.01 + i, paidAt: `2026-04-10T${String(10 + (i % 10)).padStart(2, '0')}:00:00Z`, createdAt: '2026-04-10T09:00:00Z' }));
    await t.database.db.update(orders).set({ isPaid: false, paidAt: null, paymentId: null }).where(eq(orders.id, ids[0]!));
    await t.database.db.delete(orders).where(eq(orders.id, ids[1]!));
    const shards = await t.database.query<{ n: number }>(`select count(*)::int as n from sales_daily where day = '2026-04-10' and num_orders <> 0`);
    expect(shards[0]!.n).toBeGreaterThan(1);
    const direct = await t.database.query<{ sales: string; n: number }>(
      `select sum(total_price)::text as sales, count(*)::int as n from orders where is_paid and (paid_at at time zone 'UTC')::date = '2026-04-10'`);
    const res = await call<OrderSummary>(t, admin, 'GET', '/api/orders/summary?from=2026-04-10&to=2026-04-10');
    expect(res.status).toBe(200);
    expect(res.body.orders).toEqual([{ totalSales: Number(direct[0]!.sales), numOrders: 38, grossSales: Number(direct[0]!.sales), totalRefunds: 0 }]);
    expect(direct[0]!.n).toBe(38);
    expect(res.body.dailyOrders).toEqual([{ _id: '2026-04-10', sales: Number(direct[0]!.sales), orders: 38, refunds: 0 }]);
  });

  it('every card on fixed data, computed by hand: users, orders, sales (and what the average is made of)', async () => {
    // Two accounts dated into the past: one in the previous period (02-27), one in this one (03-02).
    const before = await createUser(t, { email: 'before@example.com' });
    const during = await createUser(t, { email: 'during@example.com' });
    await t.database.db.update(users).set({ createdAt: new Date('2026-02-27T12:00:00Z') }).where(eq(users.id, before.id));
    await t.database.db.update(users).set({ createdAt: new Date('2026-03-02T12:00:00Z') }).where(eq(users.id, during.id));
    const res = await call<OrderSummary>(t, admin, 'GET', '/api/orders/summary?from=2026-03-01&to=2026-03-03');
    // Users card: 2 accounts existed by the end of 03-03 (the others were made today), 1 new in the period, 1 new before.
    expect(res.body.users).toEqual([{ numUsers: 2, newUsers: 1 }]);
    expect(res.body.previous).toMatchObject({ numUsers: 1, newUsers: 1 });
    // Orders and Sales cards: 10.10 + 20.20 + 5.00 = 35.30 in 3 paid orders; previous 7.00 in 1.
    // (Average order value card: 35.30 / 3 = 11.77 against 7.00, computed by the page from these.)
    expect(res.body.orders).toEqual([{ totalSales: 35.3, numOrders: 3, grossSales: 35.3, totalRefunds: 0 }]);
    expect(res.body.previous).toMatchObject({ totalSales: 7, numOrders: 1 });
  });
});
