import type { OrderListResponse } from '@shop/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { orders } from '../../db/schema.ts';
import { newId } from '../../lib/ids.ts';
import { call } from '../../test/commerce-factories.ts';
import { createAdmin, createTestApp, createUser, type TestApp, type TestUser } from '../../test/test-app.ts';

const address = (fullName: string) => ({ fullName, address: 'a', city: 'c', postalCode: '1', country: 'X' });

describe('GET /api/orders (admin list)', () => {
  let t: TestApp;
  let admin: TestUser;
  let zoe: TestUser;
  const ids: Record<string, string> = {};
  beforeAll(async () => {
    t = await createTestApp();
    admin = await createAdmin(t);
    zoe = await createUser(t, { name: 'Zoe Zed', email: 'zoe@example.com' });
    const base = Date.parse('2026-04-01T00:00:00Z');
    const make = async (key: string, minutes: number, o: Partial<typeof orders.$inferInsert>) => {
      const id = newId(base + minutes * 60_000);
      ids[key] = id;
      await t.database.db.insert(orders).values({
        id, userId: zoe.id, shippingAddress: address(`Ship ${key}`), paymentMethod: 'PayPal', itemsPrice: 1, shippingPrice: 0, taxPrice: 0, totalPrice: 1,
        createdAt: new Date(base + minutes * 60_000), ...o,
      });
    };
    await make('paid', 1, { isPaid: true, paidAt: new Date(base), paymentId: 'p1' });
    await make('delivered', 2, { isPaid: true, paidAt: new Date(base), paymentId: 'p2', isDelivered: true, deliveredAt: new Date(base) });
    await make('unpaid', 3, { expiresAt: new Date(Date.now() + 3_600_000) });
    await make('expired', 4, { expiresAt: new Date(base), stockReleasedAt: new Date(base) });
    await make('guest', 5, { userId: null });
  });
  afterAll(async () => { await t.close(); });

  const list = async (qs: string) => (await call<OrderListResponse>(t, admin, 'GET', `/api/orders${qs}`)).body;

  it('pages newest first with counts and the customer e-mail', async () => {
    const first = await list('?pageSize=2');
    expect(first).toMatchObject({ page: 1, pages: 3, countOrders: 5 });
    expect(first.orders.map((o) => o._id)).toEqual([ids.guest, ids.expired]);
    expect(first.orders[0]!.userEmail).toBeNull();
    expect(first.orders[1]!.userEmail).toBe('zoe@example.com');
    expect((await list('?pageSize=2&page=3')).orders.map((o) => o._id)).toEqual([ids.paid]);
  });

  it('filters paid, unpaid, delivered and expired', async () => {
    expect((await list('?filter=paid')).orders.map((o) => o._id)).toEqual([ids.delivered, ids.paid]);
    expect((await list('?filter=delivered')).orders.map((o) => o._id)).toEqual([ids.delivered]);
    expect((await list('?filter=unpaid')).orders.map((o) => o._id)).toEqual([ids.guest, ids.unpaid]);
    const expired = await list('?filter=expired');
    expect(expired.orders.map((o) => [o._id, o.isExpired])).toEqual([[ids.expired, true]]);
  });

  it('searches by order id, its start, customer name or e-mail', async () => {
    expect((await list(`?search=${ids.unpaid}`)).orders.map((o) => o._id)).toEqual([ids.unpaid]);
    expect((await list(`?search=ZOE%40EXAMPLE`)).countOrders).toBe(4);
    expect((await list(`?search=zed&filter=paid`)).countOrders).toBe(2);
    expect((await list(`?search=Ship%20guest`)).orders.map((o) => o._id)).toEqual([ids.guest]);
    expect((await list(`?search=100%25`)).countOrders).toBe(0);
  });

  it('searches by order number, with or without #', async () => {
    const [paid] = (await list(`?search=${ids.paid}`)).orders;
    const number = paid!.number;
    expect(number).toBeGreaterThanOrEqual(1001);
    expect((await list(`?search=%23${number}`)).orders.map((o) => o._id)).toEqual([ids.paid]);
    expect((await list(`?search=${number}`)).orders.map((o) => o._id)).toEqual([ids.paid]);
    expect((await list(`?search=%23%20${number}&status=paid`)).orders.map((o) => o._id)).toEqual([ids.paid]);
    expect((await list(`?search=%23${number}&status=unpaid`)).countOrders).toBe(0);
    expect((await list('?search=%23999999999')).countOrders).toBe(0);
  });

  it('answers 401/403 and rejects a bad filter with 400', async () => {
    expect((await call(t, null, 'GET', '/api/orders')).status).toBe(401);
    expect((await call(t, zoe, 'GET', '/api/orders')).status).toBe(403);
    const bad = await call<{ message: string }>(t, admin, 'GET', '/api/orders?filter=weird');
    expect(bad.status).toBe(400);
    expect(bad.body.message).toMatch(/Filter must be one of/);
  });
});
