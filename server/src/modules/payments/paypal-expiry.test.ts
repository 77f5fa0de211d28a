import type { Cart, Order, OrderActionResponse } from '@shop/contracts';
import { eq, type SQL } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { orders, outbox } from '../../db/schema.ts';
import { openMail } from '../../lib/mailer.ts';
import { call, createProduct, placeOrderFor, stockOf } from '../../test/commerce-factories.ts';
import { captureLog, type CapturedLog } from '../../test/log-capture.ts';
import { startPayPalMock, type PayPalMock } from '../../test/paypal-mock.ts';
import { startTcpProxy, type TcpProxy } from '../../test/tcp-proxy.ts';
import { createTestApp, createUser, type TestApp, type TestUser } from '../../test/test-app.ts';
import { PAYPAL_CHECK_GRACE_MS, sweepUnpaidOrders } from '../orders/release-stock.ts';
import { createPayPalClient } from './paypal-client.ts';
import type { PaymentDeps } from './record-payment.ts';
import { createSettlePayPalOrder } from './settle-paypal-order.ts';

// The defect these tests pin: PayPal captures (the money is taken) but the database write that
// records the payment fails; the order must end up paid (by paying again or by the expiry sweep),
// never expired with the money taken.

const minutes = (n: number) => n * 60_000;
const captureRequests = (mock: PayPalMock) => mock.requests.filter((r) => r.method === 'POST' && r.path.endsWith('/capture'));
const getRequestsFor = (mock: PayPalMock, ppId: string) => mock.requests.filter((r) => r.method === 'GET' && r.path === `/v2/checkout/orders/${ppId}`);

describe('a PayPal payment taken but not recorded', () => {
  let mock: PayPalMock;
  let proxy: TcpProxy; // between the shop and PayPal: closed, PayPal cannot be reached
  let t: TestApp;
  let log: CapturedLog;
  let alice: TestUser;
  let deps: PaymentDeps;
  let disarm: (() => void) | undefined;

  beforeAll(async () => {
    mock = await startPayPalMock();
    proxy = await startTcpProxy({ host: '127.0.0.1', port: Number(new URL(mock.url).port) });
    const apiBase = `http://127.0.0.1:${proxy.port}`;
    log = captureLog();
    t = await createTestApp({
      env: { PAYPAL_CLIENT_ID: mock.clientId, PAYPAL_CLIENT_SECRET: mock.clientSecret, PAYPAL_API_BASE: apiBase, LOG_LEVEL: 'info' },
      deps: { logger: undefined, logStream: log.stream },
    });
    alice = await createUser(t, { name: 'Alice' });
    deps = {
      db: t.database.db, config: t.config, mailer: t.app.ctx.mailer, log: t.app.log,
      paypal: createPayPalClient({ clientId: mock.clientId, clientSecret: mock.clientSecret, apiBase, timeoutMs: 5_000 }),
    };
  });
  afterEach(async () => {
    disarm?.();
    await proxy.open().catch(() => undefined);
  });
  afterAll(async () => {
    await t.close();
    await proxy.close();
    await mock.close();
  });

  /** The next statement that marks an order paid fails as when PostgreSQL is cut at that moment. */
  function failNextPaymentWrite() {
    const db = t.database.db as unknown as { execute: (q: SQL) => Promise<unknown>; dialect: { sqlToQuery(q: SQL): { sql: string } } };
    const execute = db.execute;
    disarm = () => { db.execute = execute; disarm = undefined; };
    db.execute = (q: SQL) => {
      if (!db.dialect.sqlToQuery(q).sql.includes('is_paid = true')) return execute.call(db, q);
      disarm!();
      return Promise.reject(new Error('Connection terminated unexpectedly'));
    };
  }

  /** Places an order and pays it with PayPal; PayPal captures, and the write of the payment fails. */
  async function paidOnPayPalOnly(opts: { stock?: number; quantity?: number } = {}) {
    const p = await createProduct(t, { price: 20, countInStock: opts.stock ?? 5 });
    const order = await placeOrderFor(t, alice, [{ productId: p.id, quantity: opts.quantity ?? 2 }]);
    const created = await call<{ id: string }>(t, alice, 'POST', `/api/orders/${order._id}/paypal/create`);
    expect(created.status).toBe(200);
    const ppId = created.body.id;
    mock.approve(ppId);
    failNextPaymentWrite();
    const res = await call(t, alice, 'PUT', `/api/orders/${order._id}/pay`, { paypalOrderId: ppId });
    expect(res.status).toBe(503);
    expect(disarm).toBeUndefined(); // the failure was used by the payment's write
    expect(mock.orders.get(ppId)!.status).toBe('COMPLETED'); // the money is taken
    expect((await call<Order>(t, alice, 'GET', `/api/orders/${order._id}`)).body.isPaid).toBe(false);
    const captureId = mock.orders.get(ppId)!.purchase_units[0]!.payments!.captures[0]!.id;
    return { order, ppId, captureId, productId: p.id };
  }

  /** An order with a PayPal order approved by the buyer but never captured (no money taken). */
  async function approvedOnly() {
    await call(t, alice, 'DELETE', '/api/cart'); // what an earlier, unrecorded payment left there
    const p = await createProduct(t, { price: 9, countInStock: 4 });
    const order = await placeOrderFor(t, alice, [{ productId: p.id, quantity: 1 }]);
    const created = await call<{ id: string }>(t, alice, 'POST', `/api/orders/${order._id}/paypal/create`);
    mock.approve(created.body.id);
    await call(t, alice, 'DELETE', '/api/cart');
    return { order, ppId: created.body.id, productId: p.id };
  }

  const setExpiry = (orderId: string, at: Date) => t.database.db.update(orders).set({ expiresAt: at }).where(eq(orders.id, orderId));
  const expiryOf = async (orderId: string) =>
    (await t.database.db.select({ at: orders.expiresAt }).from(orders).where(eq(orders.id, orderId)))[0]!.at!;
  const rowOf = async (orderId: string) => (await t.database.db.select().from(orders).where(eq(orders.id, orderId)))[0]!;
  const confirmationsOf = async (orderId: string) => {
    const { number } = await rowOf(orderId);
    return (await t.database.db.select().from(outbox).where(eq(outbox.to, alice.email)))
      .map((m) => openMail(m, t.app.ctx.mailSealer))
      .filter((m) => m.subject === `Order confirmation #${number}`);
  };
  const sweep = (now: Date) => sweepUnpaidOrders(t.database.db, now, { checkPayPalOrder: createSettlePayPalOrder(deps), log: t.app.log });

  it('the expiry job records it as paid, once, instead of expiring the order', async () => {
    const { order, ppId, captureId, productId } = await paidOnPayPalOnly();
    expect(await stockOf(t, productId)).toBe(3);
    // The hold the pay call set has run out: the order is due.
    await setExpiry(order._id, new Date(Date.now() - 1_000));
    log.clear();
    await t.app.ctx.jobs.runDue();

    const row = await rowOf(order._id);
    expect(row).toMatchObject({ isPaid: true, stockReleasedAt: null, paymentProvider: 'paypal', paymentId: captureId });
    expect(row.paymentResult).toMatchObject({ provider: 'paypal', id: captureId, status: 'COMPLETED', paypalOrderId: ppId });
    expect(await stockOf(t, productId)).toBe(3); // stock taken once, not released
    expect(await confirmationsOf(order._id)).toHaveLength(1);
    expect((await call<Cart>(t, alice, 'GET', '/api/cart')).body.cartItems).toEqual([]); // as a successful pay leaves it
    expect(log.entries().some((e) => e.msg === 'recorded a PayPal payment captured but not recorded by the pay call' && e.orderId === order._id)).toBe(true);
    expect(captureRequests(mock)).toHaveLength(1); // read, never captured again

    // Later sweeps leave it alone; paying again answers 'Order is paid'.
    expect((await sweep(new Date(Date.now() + minutes(600)))).expired).not.toContain(order._id);
    expect(await stockOf(t, productId)).toBe(3);
    expect((await call<OrderActionResponse>(t, alice, 'PUT', `/api/orders/${order._id}/pay`, { paypalOrderId: ppId })).body.message).toBe('Order is paid');
    expect(await confirmationsOf(order._id)).toHaveLength(1);
  });

  it('paying again records the capture once (no second capture, one confirmation)', async () => {
    const { order, ppId, captureId, productId } = await paidOnPayPalOnly();
    const again = await call<OrderActionResponse>(t, alice, 'PUT', `/api/orders/${order._id}/pay`, { paypalOrderId: ppId });
    expect(again.status).toBe(200);
    expect(again.body.message).toBe('Order is paid successfully');
    expect(again.body.order).toMatchObject({ isPaid: true, paymentResult: { provider: 'paypal', id: captureId } });
    const third = await call<OrderActionResponse>(t, alice, 'PUT', `/api/orders/${order._id}/pay`, { paypalOrderId: ppId });
    expect(third.body).toEqual({ message: 'Order is paid', order: again.body.order });
    expect(mock.orders.get(ppId)!.purchase_units[0]!.payments!.captures).toHaveLength(1);
    expect(captureRequests(mock).filter((r) => r.path.includes(ppId))).toHaveLength(1);
    expect(await stockOf(t, productId)).toBe(3);
    expect(await confirmationsOf(order._id)).toHaveLength(1);
  });

  it('paying again records it even once the order is past its expiry, while its stock is still reserved', async () => {
    const { order, ppId, captureId, productId } = await paidOnPayPalOnly();
    // Past its expiry, not yet swept (or kept by a sweep that could not reach PayPal).
    await setExpiry(order._id, new Date(Date.now() - minutes(5)));
    const again = await call<OrderActionResponse>(t, alice, 'PUT', `/api/orders/${order._id}/pay`, { paypalOrderId: ppId });
    expect(again.status).toBe(200);
    expect(again.body.order).toMatchObject({ isPaid: true, isExpired: false, paymentResult: { id: captureId } });
    expect(await stockOf(t, productId)).toBe(3);
    expect(captureRequests(mock).filter((r) => r.path.includes(ppId))).toHaveLength(1);
  });

  it('an order past its expiry whose PayPal order was not captured still cannot be paid (no money is taken)', async () => {
    const { order, ppId } = await approvedOnly();
    await setExpiry(order._id, new Date(Date.now() - minutes(1)));
    expect(await call(t, alice, 'PUT', `/api/orders/${order._id}/pay`, { paypalOrderId: ppId }))
      .toEqual({ status: 400, body: { message: 'This order has expired. Please place a new order.', code: 'ORDER_EXPIRED' } });
    expect(mock.orders.get(ppId)!.status).toBe('APPROVED');
    expect((await sweep(new Date())).expired).toContain(order._id);
  });

  it('PayPal unreachable: kept this sweep (stock reserved), settled by the next sweep that reaches PayPal', async () => {
    const captured = await paidOnPayPalOnly();
    const approved = await approvedOnly();
    const now = new Date(Math.max((await expiryOf(captured.order._id)).getTime(), (await expiryOf(approved.order._id)).getTime()) + minutes(1));

    await proxy.close();
    const down = await sweep(now);
    expect(down.expired).not.toContain(captured.order._id);
    expect(down.expired).not.toContain(approved.order._id);
    expect(down.kept).toEqual(expect.arrayContaining([captured.order._id, approved.order._id]));
    expect(await rowOf(captured.order._id)).toMatchObject({ isPaid: false, stockReleasedAt: null });
    expect(await stockOf(t, captured.productId)).toBe(3);
    expect(await stockOf(t, approved.productId)).toBe(3);

    await proxy.open();
    const up = await sweep(new Date(now.getTime() + minutes(1)));
    expect(up.paid).toContain(captured.order._id);
    expect(up.expired).toContain(approved.order._id);
    expect(up.expired).not.toContain(captured.order._id);
    expect(await rowOf(captured.order._id)).toMatchObject({ isPaid: true, stockReleasedAt: null, paymentId: captured.captureId });
    expect(await stockOf(t, captured.productId)).toBe(3);
    expect(await stockOf(t, approved.productId)).toBe(4); // released once
    expect(mock.orders.get(approved.ppId)!.status).toBe('APPROVED'); // the sweep never captures
  });

  it('PayPal unreachable past the grace: the order expires, with a warning naming it', async () => {
    const { order, ppId, productId } = await approvedOnly();
    const expiresAt = await expiryOf(order._id);
    await proxy.close();
    log.clear();
    const within = await sweep(new Date(expiresAt.getTime() + PAYPAL_CHECK_GRACE_MS - minutes(1)));
    expect(within.kept).toContain(order._id);
    expect(await stockOf(t, productId)).toBe(3);

    const past = await sweep(new Date(expiresAt.getTime() + PAYPAL_CHECK_GRACE_MS + minutes(1)));
    expect(past.expired).toContain(order._id);
    expect(await stockOf(t, productId)).toBe(4);
    const warning = log.entries().find((e) => e.level === 40 && e.orderId === order._id && String(e.msg).includes('expired order'));
    expect(warning).toMatchObject({ paypalOrderId: ppId });
    expect(String(warning!.msg)).toContain(order._id);
  });

  it('an order without a PayPal order expires as before, without asking PayPal (even while it is unreachable)', async () => {
    const p = await createProduct(t, { countInStock: 6 });
    const order = await placeOrderFor(t, alice, [{ productId: p.id, quantity: 2 }]);
    await call(t, alice, 'DELETE', '/api/cart');
    await proxy.close();
    const requestsBefore = mock.requests.length;
    expect((await sweep(new Date(Date.now() + minutes(29)))).expired).not.toContain(order._id);
    const result = await sweep(new Date(Date.now() + minutes(31)));
    expect(result.expired).toContain(order._id);
    expect(result.kept).not.toContain(order._id);
    expect(await stockOf(t, p.id)).toBe(6);
    expect(mock.requests.length).toBe(requestsBefore);
  });

  it('a sweep stops asking PayPal once it finds it down; the next sweep asks again', async () => {
    const a = await approvedOnly();
    const b = await approvedOnly();
    const c = await approvedOnly();
    const now = new Date(Date.now() + minutes(40));
    const settle = createSettlePayPalOrder(deps);
    const asked: string[] = [];
    const counting = { checkPayPalOrder: async (o: { orderId: string; paypalOrderId: string }) => { asked.push(o.orderId); return settle(o); }, log: t.app.log };
    await proxy.close();
    const result = await sweepUnpaidOrders(t.database.db, now, counting);
    expect(result.kept).toEqual(expect.arrayContaining([a.order._id, b.order._id, c.order._id]));
    expect(asked).toHaveLength(2); // then PayPal is taken to be down for this sweep
    await proxy.open();
    asked.length = 0;
    const settled = await sweepUnpaidOrders(t.database.db, now, counting);
    expect(asked).toEqual(expect.arrayContaining([a.order._id, b.order._id, c.order._id]));
    expect(settled.expired).toEqual(expect.arrayContaining([a.order._id, b.order._id, c.order._id]));
    for (const o of [a, b, c]) expect(getRequestsFor(mock, o.ppId).length).toBeGreaterThan(0);
  });
});
