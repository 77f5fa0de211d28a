import type { Order, OrderListResponse, OrderSummary, RefundResponse } from '@shop/contracts';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { orderRefunds, orders, outbox } from '../../db/schema.ts';
import { openMail } from '../../lib/mailer.ts';
import { addToCart, call, createProduct, sampleAddress, stockOf } from '../../test/commerce-factories.ts';
import { startPayPalMock, type PayPalMock } from '../../test/paypal-mock.ts';
import { createAdmin, createTestApp, createUser, TEST_DB, type TestApp, type TestUser } from '../../test/test-app.ts';
import { REFUND_SETTLE_AFTER_MS, refreshPendingProviderRefunds, settlePendingRefunds } from './settle-refunds.ts';

type Json = Record<string, unknown>;

async function post<T = Json>(t: TestApp, user: TestUser, url: string, payload: unknown, key?: string) {
  const res = await t.app.inject({
    method: 'POST', url, payload: payload as Json,
    headers: { cookie: user.cookie, ...(key ? { 'idempotency-key': key } : {}) },
  });
  return { status: res.statusCode, body: res.json() as T, replayed: res.headers['idempotent-replayed'] === 'true' };
}

async function mailsTo(t: TestApp, email: string, subject?: string) {
  const rows = await t.database.db.select().from(outbox).where(eq(outbox.to, email));
  return rows.map((m) => openMail(m, t.app.ctx.mailSealer)).filter((m) => !subject || m.subject === subject);
}

/** Places an order of these lines for `user` (typed address), its cart emptied afterwards. */
async function placeOrder(t: TestApp, user: TestUser, lines: Array<{ productId: string; quantity: number }>): Promise<Order> {
  for (const l of lines) await addToCart(t, user, l.productId, l.quantity);
  const res = await call<Order>(t, user, 'POST', '/api/orders', { shippingAddress: sampleAddress(), paymentMethod: 'PayPal' });
  if (res.status !== 201) throw new Error(`place: ${res.status} ${JSON.stringify(res.body)}`);
  await call(t, user, 'DELETE', '/api/cart');
  return res.body;
}

const refundsAtPayPal = (mock: PayPalMock) => mock.requests.filter((r) => r.method === 'POST' && /^\/v2\/payments\/captures\/[^/]+\/refund$/.test(r.path));

describe(`refunds through PayPal (local PayPal server) on ${TEST_DB}`, () => {
  let mock: PayPalMock;
  let t: TestApp;
  let admin: TestUser;
  let admin2: TestUser;
  let alice: TestUser;
  let bob: TestUser;

  /** Placed and paid through PayPal: create, buyer approval, capture. */
  async function paidOrder(user: TestUser, lines: Array<{ productId: string; quantity: number }>): Promise<{ order: Order; captureId: string }> {
    const order = await placeOrder(t, user, lines);
    const created = await call<{ id: string }>(t, user, 'POST', `/api/orders/${order._id}/paypal/create`);
    mock.approve(created.body.id);
    const paid = await call<{ order: Order }>(t, user, 'PUT', `/api/orders/${order._id}/pay`, { paypalOrderId: created.body.id });
    if (paid.status !== 200) throw new Error(`pay: ${paid.status} ${JSON.stringify(paid.body)}`);
    return { order: paid.body.order, captureId: paid.body.order.paymentResult!.id };
  }

  beforeAll(async () => {
    mock = await startPayPalMock();
    t = await createTestApp({ env: { PAYPAL_CLIENT_ID: mock.clientId, PAYPAL_CLIENT_SECRET: mock.clientSecret, PAYPAL_API_BASE: mock.url, PUBLIC_URL: 'https://shop.example' } });
    admin = await createAdmin(t);
    admin2 = await createAdmin(t);
    alice = await createUser(t, { name: 'Alice' });
    bob = await createUser(t, { name: 'Bob' });
  });
  afterAll(async () => {
    await t.close();
    await mock.close();
  });

  it('a partial refund of one line refunds it at PayPal, restocks it and leaves the rest; the customer sees it and gets one mail', async () => {
    const mug = await createProduct(t, { name: 'Blue Mug', price: 9, countInStock: 10 });
    const pot = await createProduct(t, { name: 'Tea Pot', price: 25, countInStock: 10 });
    const { order, captureId } = await paidOrder(alice, [{ productId: mug.id, quantity: 2 }, { productId: pot.id, quantity: 1 }]);
    expect(order).toMatchObject({ totalPrice: 43, status: 'paid', refundedAmount: 0 });
    const mugLine = order.orderItems.find((i) => i.name === 'Blue Mug')!;
    expect(await stockOf(t, mug.id)).toBe(8);

    const res = await post<RefundResponse>(t, admin, `/api/orders/${order._id}/refunds`, { lines: [{ orderItemId: mugLine._id, quantity: 1 }], reason: 'Arrived chipped' });
    expect(res.status).toBe(201);
    expect(res.body.refund).toMatchObject({
      amount: 9, extraAmount: 0, reason: 'Arrived chipped', provider: 'paypal', status: 'succeeded', providerStatus: 'COMPLETED', isCancellation: false,
      lines: [{ orderItemId: mugLine._id, name: 'Blue Mug', quantity: 1, amount: 9, restock: true }],
    });
    expect(res.body.order).toMatchObject({ status: 'partially_refunded', refundedAmount: 9, isPaid: true, cancelledAt: null });
    expect(res.body.order.orderItems.map((i) => [i.name, i.refundedQuantity])).toEqual([['Blue Mug', 1], ['Tea Pot', 0]]);
    // Restocked: the refunded unit only; the other line untouched.
    expect(await stockOf(t, mug.id)).toBe(9);
    expect(await stockOf(t, pot.id)).toBe(9);

    // PayPal: one refund of the capture, with the PayPal-Request-Id derived from our refund, amount and currency.
    const sent = refundsAtPayPal(mock).filter((r) => r.path === `/v2/payments/captures/${captureId}/refund`);
    expect(sent).toHaveLength(1);
    expect(sent[0]!.headers['paypal-request-id']).toBe(`refund-${res.body.refund._id}`);
    expect(JSON.parse(sent[0]!.body)).toEqual({ amount: { value: '9.00', currency_code: 'USD' }, note_to_payer: 'Arrived chipped', custom_id: res.body.refund._id });

    // The customer's view: the refund and the timeline, no internal events.
    const mine = await call<Order>(t, alice, 'GET', `/api/orders/${order._id}`);
    expect(mine.body.refunds).toEqual([expect.objectContaining({ _id: res.body.refund._id, amount: 9, reason: 'Arrived chipped', status: 'succeeded' })]);
    expect(mine.body.events!.map((e) => [e.type, e.message])).toEqual([
      ['placed', 'Order placed'], ['paid', 'Payment received'], ['refunded', 'Refunded $9.00'],
    ]);
    const theirs = await call<Order>(t, admin, 'GET', `/api/orders/${order._id}`);
    expect(theirs.body.events!.find((e) => e.type === 'refunded')).toMatchObject({ message: 'Refunded $9.00: Arrived chipped', amount: 9, author: { _id: admin.id } });

    const mails = await mailsTo(t, alice.email, `Refund for your order #${order.number}`);
    expect(mails).toHaveLength(1);
    expect(mails[0]!.text).toContain(`We have refunded $9.00 for your order #${order.number}.`);
    expect(mails[0]!.text).toContain('  1 x Blue Mug: $9.00');
    expect(mails[0]!.text).toContain('usually within 3-5 business days');
    expect(mails[0]!.text).toContain(`View your order: https://shop.example/order/${order._id}`);

    // The rest can be refunded later; never a unit more than bought.
    const tooMany = await post(t, admin, `/api/orders/${order._id}/refunds`, { lines: [{ orderItemId: mugLine._id, quantity: 2 }], reason: 'x' });
    expect(tooMany).toMatchObject({ status: 400, body: { message: "Only 1 of 'Blue Mug' can still be refunded", code: 'INVALID_REFUND', fieldErrors: { 'lines.0.quantity': "Only 1 of 'Blue Mug' can still be refunded" } } });
  });

  it('refuses what cannot be refunded, changing nothing: too much money, unknown lines, an unpaid order, bad amounts', async () => {
    const p = await createProduct(t, { price: 10, countInStock: 10 });
    const { order } = await paidOrder(bob, [{ productId: p.id, quantity: 1 }]);
    const url = `/api/orders/${order._id}/refunds`;
    expect(await post(t, admin, url, { amount: 10.01, reason: 'too much' })).toMatchObject({
      status: 400, body: { code: 'REFUND_TOO_LARGE', message: 'That is more than is left to refund on this order (10.00 USD left, 10.01 asked)' },
    });
    expect(await post(t, admin, url, { lines: [{ orderItemId: 'aaaaaaaaaaaaaaaaaaaaaaaa', quantity: 1 }], reason: 'x' })).toMatchObject({
      status: 400, body: { message: 'This line is not part of the order', fieldErrors: { 'lines.0.orderItemId': 'This line is not part of the order' } },
    });
    expect(await post(t, admin, url, { reason: 'nothing' })).toMatchObject({ status: 400, body: { message: 'Choose the lines to refund or enter an amount' } });
    expect(await post(t, admin, url, { amount: 1.005, reason: 'x' })).toMatchObject({ status: 400, body: { message: 'Amount must have at most 2 decimals' } });
    expect(await post(t, admin, url, { amount: 1 })).toMatchObject({ status: 400, body: { code: 'VALIDATION_ERROR' } });
    expect(await post(t, admin, url, { amount: '0x10', reason: 'x' })).toMatchObject({ status: 400, body: { code: 'VALIDATION_ERROR' } });
    const unpaid = await placeOrder(t, bob, [{ productId: p.id, quantity: 1 }]);
    expect(await post(t, admin, `/api/orders/${unpaid._id}/refunds`, { amount: 1, reason: 'x' })).toMatchObject({
      status: 400, body: { message: 'Only a paid order can be refunded', code: 'ORDER_NOT_PAID' },
    });
    expect(await post(t, admin, '/api/orders/bbbbbbbbbbbbbbbbbbbbbbbb/refunds', { amount: 1, reason: 'x' })).toMatchObject({ status: 404 });
    // Customers may not refund, not even their own order.
    expect((await post(t, bob, url, { amount: 1, reason: 'x' })).status).toBe(403);
    expect(refundsAtPayPal(mock).filter((r) => r.path.includes(order.paymentResult!.id))).toHaveLength(0);
    expect((await call<Order>(t, admin, 'GET', `/api/orders/${order._id}`)).body).toMatchObject({ refundedAmount: 0, status: 'paid', refunds: [] });
  });

  it('two administrators refunding at the same moment, together more than was paid: exactly one succeeds', async () => {
    const p = await createProduct(t, { price: 30, countInStock: 10 });
    const { order, captureId } = await paidOrder(bob, [{ productId: p.id, quantity: 1 }]);
    const hold = mock.holdNextRefund(); // the first refund waits at PayPal while the second arrives
    const first = post<RefundResponse>(t, admin, `/api/orders/${order._id}/refunds`, { amount: 20, reason: 'goodwill A' });
    await hold.arrived;
    const second = await post<RefundResponse>(t, admin2, `/api/orders/${order._id}/refunds`, { amount: 20, reason: 'goodwill B' });
    hold.release();
    const answers = [await first, second];
    expect(answers.map((a) => a.status).sort()).toEqual([201, 409]);
    expect(second.body).toMatchObject({ code: 'REFUND_PENDING' });
    // And once the first is recorded, the second is simply too much.
    expect(await post(t, admin2, `/api/orders/${order._id}/refunds`, { amount: 20, reason: 'goodwill B' })).toMatchObject({ status: 400, body: { code: 'REFUND_TOO_LARGE' } });
    expect(refundsAtPayPal(mock).filter((r) => r.path.includes(captureId))).toHaveLength(1);
    const [row] = await t.database.db.select({ refunded: orders.refundedAmount }).from(orders).where(eq(orders.id, order._id));
    expect(row!.refunded).toBe(20);
  });

  it('two refunds racing without PayPal in between (many at once): never more than paid', async () => {
    const p = await createProduct(t, { price: 50, countInStock: 10 });
    const { order, captureId } = await paidOrder(bob, [{ productId: p.id, quantity: 1 }]);
    const answers = await Promise.all(Array.from({ length: 6 }, (_, i) => post(t, i % 2 ? admin : admin2, `/api/orders/${order._id}/refunds`, { amount: 30, reason: `race ${i}` })));
    expect(answers.filter((a) => a.status === 201)).toHaveLength(1);
    for (const a of answers.filter((x) => x.status !== 201)) expect(['REFUND_PENDING', 'REFUND_TOO_LARGE']).toContain((a.body as { code: string }).code);
    expect([...mock.refunds.values()].filter((r) => r.captureId === captureId)).toHaveLength(1);
    const [row] = await t.database.db.select({ refunded: orders.refundedAmount }).from(orders).where(eq(orders.id, order._id));
    expect(row!.refunded).toBe(30);
  });

  it('the same Idempotency-Key twice, one after the other and at once: one refund at PayPal', async () => {
    const p = await createProduct(t, { price: 12, countInStock: 10 });
    const { order, captureId } = await paidOrder(alice, [{ productId: p.id, quantity: 3 }]);
    const line = order.orderItems[0]!;
    const request = { lines: [{ orderItemId: line._id, quantity: 1, restock: false }], reason: 'Changed their mind' };
    const answers = await Promise.all([0, 1, 2].map(() => post<RefundResponse>(t, admin, `/api/orders/${order._id}/refunds`, request, 'refund-key-1')));
    const made = answers.find((a) => a.status === 201 && !a.replayed)!;
    expect(made).toBeDefined();
    for (const a of answers) if (a !== made) expect(a.status === 409 || (a.status === 201 && a.replayed)).toBe(true);
    const again = await post<RefundResponse>(t, admin, `/api/orders/${order._id}/refunds`, request, 'refund-key-1');
    expect(again).toEqual({ status: 201, body: made.body, replayed: true });
    expect(refundsAtPayPal(mock).filter((r) => r.path.includes(captureId))).toHaveLength(1);
    expect(await stockOf(t, p.id)).toBe(7); // restock: false
    expect((await mailsTo(t, alice.email, `Refund for your order #${order.number}`))).toHaveLength(1);
  });

  it('PayPal refusing changes nothing and says why', async () => {
    const p = await createProduct(t, { price: 15, countInStock: 10 });
    const { order, captureId } = await paidOrder(alice, [{ productId: p.id, quantity: 1 }]);
    // The merchant refunded it in PayPal's own dashboard: PayPal now refuses (CAPTURE_FULLY_REFUNDED).
    const token = await fetch(`${mock.url}/v1/oauth2/token`, {
      method: 'POST', body: 'grant_type=client_credentials',
      headers: { Authorization: `Basic ${Buffer.from(`${mock.clientId}:${mock.clientSecret}`).toString('base64')}`, 'Content-Type': 'application/x-www-form-urlencoded' },
    }).then((r) => r.json() as Promise<{ access_token: string }>);
    const outside = await fetch(`${mock.url}/v2/payments/captures/${captureId}/refund`, {
      method: 'POST', body: '{}', headers: { Authorization: `Bearer ${token.access_token}`, 'Content-Type': 'application/json' },
    });
    expect(outside.status).toBe(201);
    const res = await post(t, admin, `/api/orders/${order._id}/refunds`, { lines: [{ orderItemId: order.orderItems[0]!._id, quantity: 1 }], reason: 'Damaged' });
    expect(res).toMatchObject({
      status: 400,
      body: { message: 'PayPal refused the refund: the PayPal payment has already been refunded in full (CAPTURE_FULLY_REFUNDED). Nothing was changed.', code: 'REFUND_REFUSED' },
    });
    const after = await call<Order>(t, admin, 'GET', `/api/orders/${order._id}`);
    expect(after.body).toMatchObject({ refundedAmount: 0, status: 'paid', refunds: [] });
    expect(after.body.orderItems[0]!.refundedQuantity).toBe(0);
    expect(after.body.events!.map((e) => e.type)).toEqual(['placed', 'paid']);
    expect(await stockOf(t, p.id)).toBe(9);
    expect(await mailsTo(t, alice.email, `Refund for your order #${order.number}`)).toHaveLength(0);
    // Recorded as failed, with PayPal's reason, and no longer in the way of another refund.
    const rows = await t.database.db.select().from(orderRefunds).where(eq(orderRefunds.orderId, order._id));
    expect(rows.map((r) => [r.status, r.failure])).toEqual([['failed', 'CAPTURE_FULLY_REFUNDED']]);

    mock.failNextRefund('REFUND_TIME_LIMIT_EXCEEDED');
    const old = await createProduct(t, { price: 5, countInStock: 3 });
    const second = await paidOrder(alice, [{ productId: old.id, quantity: 1 }]);
    expect(await post(t, admin, `/api/orders/${second.order._id}/refunds`, { amount: 5, reason: 'late' })).toMatchObject({
      status: 400, body: { message: 'PayPal refused the refund: the PayPal payment is too old to be refunded (send the money as a new payment instead) (REFUND_TIME_LIMIT_EXCEEDED). Nothing was changed.' },
    });
  });

  it("the shop's write failing after PayPal accepted: recorded exactly once when the request is retried", async () => {
    const p = await createProduct(t, { price: 40, countInStock: 10 });
    const { order, captureId } = await paidOrder(alice, [{ productId: p.id, quantity: 2 }]);
    const request = { lines: [{ orderItemId: order.orderItems[0]!._id, quantity: 1 }], reason: 'Wrong size' };
    // The database fails the first write that records a succeeded refund (a sequence is not rolled back).
    await t.database.exec(`
      CREATE SEQUENCE refund_fail_once;
      CREATE FUNCTION refund_fail_once() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF NEW.status = 'succeeded' AND nextval('refund_fail_once') = 1 THEN RAISE EXCEPTION 'injected failure'; END IF;
        RETURN NEW;
      END $$;
      CREATE TRIGGER refund_fail_once BEFORE UPDATE ON order_refunds FOR EACH ROW EXECUTE FUNCTION refund_fail_once();`);
    try {
      const failed = await post(t, admin, `/api/orders/${order._id}/refunds`, request, 'wrong-size');
      expect(failed).toMatchObject({ status: 500, body: { message: 'Internal Server Error' } });
      expect(refundsAtPayPal(mock).filter((r) => r.path.includes(captureId))).toHaveLength(1); // PayPal did refund
      const [pending] = await t.database.db.select().from(orderRefunds).where(eq(orderRefunds.orderId, order._id));
      expect(pending).toMatchObject({ status: 'pending', amount: 40 });
      // The admin view shows it pending; the customer's does not.
      expect((await call<Order>(t, admin, 'GET', `/api/orders/${order._id}`)).body.refunds).toEqual([expect.objectContaining({ status: 'pending', amount: 40 })]);
      expect((await call<Order>(t, alice, 'GET', `/api/orders/${order._id}`)).body).toMatchObject({ refunds: [], refundedAmount: 0 });

      const retried = await post<RefundResponse>(t, admin, `/api/orders/${order._id}/refunds`, request, 'wrong-size');
      expect(retried).toMatchObject({ status: 201, replayed: false, body: { refund: { _id: pending!.id, amount: 40, status: 'succeeded' }, order: { refundedAmount: 40 } } });
      // PayPal was asked again with the same PayPal-Request-Id and answered the refund it had made.
      const asked = refundsAtPayPal(mock).filter((r) => r.path.includes(captureId));
      expect(asked).toHaveLength(2);
      expect(new Set(asked.map((r) => r.headers['paypal-request-id']))).toEqual(new Set([`refund-${pending!.id}`]));
      expect([...mock.refunds.values()].filter((r) => r.captureId === captureId)).toHaveLength(1);
      expect(await stockOf(t, p.id)).toBe(9);
      expect(await mailsTo(t, alice.email, `Refund for your order #${order.number}`)).toHaveLength(1);
    } finally {
      await t.database.exec('DROP TRIGGER refund_fail_once ON order_refunds; DROP FUNCTION refund_fail_once(); DROP SEQUENCE refund_fail_once;');
    }
  });

  it("PayPal's answer lost: 502, the refund stays pending; a retry records it once, and so does the sweep", async () => {
    const p = await createProduct(t, { price: 18, countInStock: 10 });
    const { order, captureId } = await paidOrder(bob, [{ productId: p.id, quantity: 1 }]);
    mock.loseNextRefundAnswer();
    const request = { amount: 8, reason: 'late delivery' };
    const res = await post(t, admin, `/api/orders/${order._id}/refunds`, request);
    expect(res).toMatchObject({
      status: 502, body: { message: 'PayPal could not be reached. The refund is recorded as pending and is asked again automatically; do not refund again.', code: 'PAYPAL_UNAVAILABLE' },
    });
    // Another refund meanwhile waits for this one.
    expect(await post(t, admin2, `/api/orders/${order._id}/refunds`, { amount: 1, reason: 'other' })).toMatchObject({ status: 409, body: { code: 'REFUND_PENDING' } });
    // The same request again: PayPal answers the refund it made for that PayPal-Request-Id.
    expect(await post(t, admin, `/api/orders/${order._id}/refunds`, request)).toMatchObject({ status: 201, body: { order: { refundedAmount: 8 } } });
    expect(refundsAtPayPal(mock).filter((r) => r.path.includes(captureId)).map((r) => JSON.parse(r.body).amount.value)).toEqual(['8.00', '8.00']);
    expect([...mock.refunds.values()].filter((r) => r.captureId === captureId)).toHaveLength(1);

    // Left pending and never retried: the sweep settles it once it is old enough, once.
    const q = await createProduct(t, { price: 11, countInStock: 10 });
    const other = await paidOrder(bob, [{ productId: q.id, quantity: 1 }]);
    mock.loseNextRefundAnswer();
    expect((await post(t, admin, `/api/orders/${other.order._id}/refunds`, { amount: 11, reason: 'lost' })).status).toBe(502);
    const { createPayPalClient } = await import('./paypal-client.ts');
    const deps = {
      db: t.database.db, config: t.config, mailer: t.app.ctx.mailer, log: t.app.log,
      paypal: createPayPalClient({ clientId: mock.clientId, clientSecret: mock.clientSecret, apiBase: mock.url }),
    };
    expect(await settlePendingRefunds(deps)).toEqual({ succeeded: 0, failed: 0, unknown: 0 }); // too young: left to its request
    const later = new Date(Date.now() + REFUND_SETTLE_AFTER_MS + 1000);
    expect(await settlePendingRefunds(deps, later)).toEqual({ succeeded: 1, failed: 0, unknown: 0 });
    expect(await settlePendingRefunds(deps, later)).toEqual({ succeeded: 0, failed: 0, unknown: 0 });
    expect(await t.database.db.select().from(orderRefunds).where(and(eq(orderRefunds.orderId, other.order._id), eq(orderRefunds.status, 'succeeded')))).toHaveLength(1);
    expect([...mock.refunds.values()].filter((r) => r.captureId === other.captureId)).toHaveLength(1);
    expect((await call<Order>(t, admin, 'GET', `/api/orders/${other.order._id}`)).body).toMatchObject({ refundedAmount: 11, status: 'refunded' });
    expect(await mailsTo(t, bob.email, `Refund for your order #${other.order.number}`)).toHaveLength(1);
  });

  it('a refund PayPal accepts as PENDING is recorded, with PayPal\'s status, which the sweep follows', async () => {
    const p = await createProduct(t, { price: 6, countInStock: 10 });
    const { order } = await paidOrder(bob, [{ productId: p.id, quantity: 1 }]);
    mock.setRefundStatus('PENDING');
    let refundId: string;
    try {
      const res = await post<RefundResponse>(t, admin, `/api/orders/${order._id}/refunds`, { amount: 6, reason: 'eCheck' });
      expect(res).toMatchObject({ status: 201, body: { refund: { status: 'succeeded', providerStatus: 'PENDING' }, order: { status: 'refunded' } } });
      refundId = res.body.refund._id;
    } finally {
      mock.setRefundStatus('COMPLETED');
    }
    // PayPal completes it later: the sweep follows PayPal's status.
    const [row] = await t.database.db.select().from(orderRefunds).where(eq(orderRefunds.id, refundId));
    const { createPayPalClient } = await import('./paypal-client.ts');
    const deps = {
      db: t.database.db, config: t.config, mailer: t.app.ctx.mailer, log: t.app.log,
      paypal: createPayPalClient({ clientId: mock.clientId, clientSecret: mock.clientSecret, apiBase: mock.url }),
    };
    const later = new Date(Date.now() + REFUND_SETTLE_AFTER_MS + 1000);
    expect(await refreshPendingProviderRefunds(deps, later)).toEqual({ checked: 1, changed: 0 });
    mock.refunds.get(row!.providerRefundId!)!.status = 'COMPLETED';
    expect(await refreshPendingProviderRefunds(deps, later)).toEqual({ checked: 1, changed: 1 });
    const [after] = await t.database.db.select().from(orderRefunds).where(eq(orderRefunds.id, refundId));
    expect(after).toMatchObject({ status: 'succeeded', providerStatus: 'COMPLETED' });
  });

  it('cancelling an order whose PayPal payment was captured but not recorded: recorded first, then refunded with the cancellation', async () => {
    const p = await createProduct(t, { price: 14, countInStock: 10 });
    const order = await placeOrder(t, alice, [{ productId: p.id, quantity: 1 }]);
    const created = await call<{ id: string }>(t, alice, 'POST', `/api/orders/${order._id}/paypal/create`);
    mock.approve(created.body.id);
    // A pay call captured it and its write was lost: captured at PayPal, unpaid in the shop.
    const token = await fetch(`${mock.url}/v1/oauth2/token`, {
      method: 'POST', body: 'grant_type=client_credentials',
      headers: { Authorization: `Basic ${Buffer.from(`${mock.clientId}:${mock.clientSecret}`).toString('base64')}`, 'Content-Type': 'application/x-www-form-urlencoded' },
    }).then((r) => r.json() as Promise<{ access_token: string }>);
    expect((await fetch(`${mock.url}/v2/checkout/orders/${created.body.id}/capture`, {
      method: 'POST', body: '{}', headers: { Authorization: `Bearer ${token.access_token}`, 'Content-Type': 'application/json' },
    })).status).toBe(201);
    // The owner may not cancel a paid order: the payment is recorded and the answer says so.
    expect(await call(t, alice, 'POST', `/api/orders/${order._id}/cancel`, {})).toMatchObject({ status: 409, body: { code: 'ORDER_PAID' } });
    const res = await call<{ order: Order }>(t, admin, 'POST', `/api/orders/${order._id}/cancel`, { reason: 'Duplicate order' });
    expect(res).toMatchObject({ status: 200, body: { order: { isPaid: true, status: 'cancelled', refundedAmount: 14 } } });
    const captureId = res.body.order.paymentResult!.id;
    expect([...mock.refunds.values()].filter((r) => r.captureId === captureId).map((r) => r.amount.value)).toEqual(['14.00']);
  });

  it('an order cancelled while its PayPal capture is under way: the money taken goes straight back', async () => {
    const p = await createProduct(t, { price: 21, countInStock: 10 });
    const order = await placeOrder(t, alice, [{ productId: p.id, quantity: 1 }]);
    const created = await call<{ id: string }>(t, alice, 'POST', `/api/orders/${order._id}/paypal/create`);
    mock.approve(created.body.id);
    const hold = mock.holdNextCapture();
    const paying = call(t, alice, 'PUT', `/api/orders/${order._id}/pay`, { paypalOrderId: created.body.id });
    await hold.arrived;
    // PayPal says approved, not captured: the cancellation goes ahead and releases the stock.
    expect((await call(t, alice, 'POST', `/api/orders/${order._id}/cancel`, {})).status).toBe(200);
    expect(await stockOf(t, p.id)).toBe(10);
    hold.release();
    expect(await paying).toEqual({
      status: 400, body: { message: 'This order was cancelled while it was being paid: your payment has been refunded in full', code: 'ORDER_CANCELLED' },
    });
    const capture = mock.orders.get(created.body.id)!.purchase_units[0]!.payments!.captures[0]!;
    const back = [...mock.refunds.values()].filter((r) => r.captureId === capture.id);
    expect(back.map((r) => r.amount.value)).toEqual(['21.00']);
    expect(refundsAtPayPal(mock).find((r) => r.path.includes(capture.id))!.headers['paypal-request-id']).toBe(`cancelled-${capture.id}`);
    expect((await call<Order>(t, alice, 'GET', `/api/orders/${order._id}`)).body).toMatchObject({ isPaid: false, status: 'cancelled' });
  });

  it('a fully refunded order is archived when deleted: gone from every read, its payment and refunds kept', async () => {
    const p = await createProduct(t, { price: 20, countInStock: 10 });
    const { order } = await paidOrder(bob, [{ productId: p.id, quantity: 1 }]);
    expect(await call(t, admin, 'DELETE', `/api/orders/${order._id}`)).toEqual({
      status: 409, body: { message: 'Refund or cancel a paid order before deleting it', code: 'ORDER_PAID' },
    });
    await post(t, admin, `/api/orders/${order._id}/refunds`, { amount: 5, reason: 'part' });
    expect((await call(t, admin, 'DELETE', `/api/orders/${order._id}`)).status).toBe(409); // partly refunded: still paid
    await post(t, admin, `/api/orders/${order._id}/refunds`, { amount: 15, reason: 'rest' });
    expect(await call(t, admin, 'DELETE', `/api/orders/${order._id}`)).toEqual({ status: 200, body: { message: 'Order deleted successfully' } });
    expect((await call(t, admin, 'GET', `/api/orders/${order._id}`)).status).toBe(404);
    expect((await call(t, bob, 'GET', `/api/orders/${order._id}`)).status).toBe(404);
    expect((await call<Order[]>(t, bob, 'GET', '/api/orders/mine')).body.map((o) => o._id)).not.toContain(order._id);
    expect((await call<OrderListResponse>(t, admin, 'GET', `/api/orders?search=${order.number}`)).body.countOrders).toBe(0);
    const [row] = await t.database.db.select().from(orders).where(eq(orders.id, order._id));
    expect(row).toMatchObject({ isPaid: true, paymentProvider: 'paypal', refundedAmount: 20 });
    expect(row!.deletedAt).toBeInstanceOf(Date);
    expect(await t.database.db.select().from(orderRefunds).where(eq(orderRefunds.orderId, order._id))).toHaveLength(2);
    expect((await call(t, admin, 'DELETE', `/api/orders/${order._id}`)).status).toBe(404);
  });
});

describe(`refunds of demo payments, the dashboard and the order list on ${TEST_DB}`, () => {
  let t: TestApp;
  let admin: TestUser;
  let carol: TestUser;
  beforeAll(async () => {
    t = await createTestApp();
    admin = await createAdmin(t);
    carol = await createUser(t, { name: 'Carol' });
  });
  afterAll(async () => { await t.close(); });

  async function demoPaid(lines: Array<{ productId: string; quantity: number }>): Promise<Order> {
    const order = await placeOrder(t, carol, lines);
    const paid = await call<{ order: Order }>(t, carol, 'PUT', `/api/orders/${order._id}/pay`, { demo: true });
    if (paid.status !== 200) throw new Error(`pay: ${paid.status}`);
    return paid.body.order;
  }

  it('refunds a demo payment as demo, at once, and the mail says no money was taken', async () => {
    const p = await createProduct(t, { price: 10, countInStock: 5 });
    const order = await demoPaid([{ productId: p.id, quantity: 2 }]);
    const res = await post<RefundResponse>(t, admin, `/api/orders/${order._id}/refunds`, { lines: [{ orderItemId: order.orderItems[0]!._id, quantity: 2 }], amount: 0, reason: 'Test' });
    expect(res).toMatchObject({ status: 201, body: { refund: { provider: 'demo', providerStatus: null, amount: 20, status: 'succeeded' }, order: { status: 'refunded', refundedAmount: 20 } } });
    expect(await stockOf(t, p.id)).toBe(5);
    const [mail] = await mailsTo(t, carol.email, `Refund for your order #${order.number}`);
    expect(mail!.text).toContain('This order was paid with a demo payment: no money was taken, so none is sent back.');
    expect(mail!.text).toMatch(/View your order: http:\/\/localhost:\d+\/order\//);
  });

  it('two concurrent demo refunds that together exceed the paid amount: exactly one succeeds', async () => {
    const p = await createProduct(t, { price: 25, countInStock: 5 });
    const order = await demoPaid([{ productId: p.id, quantity: 1 }]);
    const answers = await Promise.all([0, 1].map(() => post(t, admin, `/api/orders/${order._id}/refunds`, { amount: 15, reason: 'at once' })));
    expect(answers.map((a) => a.status).sort()).toEqual([201, 400]);
    expect(answers.find((a) => a.status === 400)!.body).toMatchObject({ code: 'REFUND_TOO_LARGE' });
    expect((await t.database.db.select({ r: orders.refundedAmount }).from(orders).where(eq(orders.id, order._id)))[0]!.r).toBe(15);
  });

  it('the dashboard counts refunds on the day they are given: sales are paid minus refunded', async () => {
    const p = await createProduct(t, { price: 40, countInStock: 5 });
    const order = await demoPaid([{ productId: p.id, quantity: 1 }]);
    // Paid "two days ago" (the rollup follows the row), refunded today.
    const today = new Date().toISOString().slice(0, 10);
    const twoDaysAgo = new Date(Date.now() - 2 * 86_400_000);
    const earlier = twoDaysAgo.toISOString().slice(0, 10);
    await t.database.db.update(orders).set({ paidAt: twoDaysAgo }).where(eq(orders.id, order._id));
    const summary = () => call<OrderSummary>(t, admin, 'GET', `/api/orders/summary?from=${earlier}&to=${today}`);
    const before = (await summary()).body;
    const dayOf = (s: OrderSummary, d: string) => s.dailyOrders.find((x) => x._id === d)!;
    expect(dayOf(before, earlier)).toEqual({ _id: earlier, sales: 40, orders: 1, refunds: 0 });

    await post(t, admin, `/api/orders/${order._id}/refunds`, { amount: 12.5, reason: 'partial' });
    const after = (await summary()).body;
    expect(dayOf(after, earlier)).toEqual({ _id: earlier, sales: 40, orders: 1, refunds: 0 }); // the past day unchanged
    expect(dayOf(after, today).refunds).toBe(dayOf(before, today).refunds + 12.5);
    expect(dayOf(after, today).sales).toBe(Math.round((dayOf(before, today).sales - 12.5) * 100) / 100);
    expect(after.orders[0]!.totalRefunds).toBe(Math.round((before.orders[0]!.totalRefunds + 12.5) * 100) / 100);
    expect(after.orders[0]!.totalSales).toBe(Math.round((before.orders[0]!.totalSales - 12.5) * 100) / 100);
    expect(after.orders[0]!.grossSales).toBe(before.orders[0]!.grossSales);
    expect(after.orders[0]!.numOrders).toBe(before.orders[0]!.numOrders);

    // A cancelled unpaid order never counts.
    const unpaid = await placeOrder(t, carol, [{ productId: p.id, quantity: 1 }]);
    expect((await post(t, carol, `/api/orders/${unpaid._id}/cancel`, {})).status).toBe(200);
    expect((await summary()).body.orders).toEqual(after.orders);
  });

  it('the order list filters by status and finds an order by its number', async () => {
    const p = await createProduct(t, { price: 8, countInStock: 20 });
    const paid = await demoPaid([{ productId: p.id, quantity: 1 }]);
    const partly = await demoPaid([{ productId: p.id, quantity: 2 }]);
    await post(t, admin, `/api/orders/${partly._id}/refunds`, { amount: 1, reason: 'goodwill' });
    const cancelled = await placeOrder(t, carol, [{ productId: p.id, quantity: 1 }]);
    await post(t, carol, `/api/orders/${cancelled._id}/cancel`, { reason: 'Ordered twice' });
    const list = async (qs: string) => (await call<OrderListResponse>(t, admin, 'GET', `/api/orders?pageSize=100&${qs}`)).body.orders;
    const ids = async (qs: string) => (await list(qs)).map((o) => o._id);
    expect(await ids('status=paid')).toContain(paid._id);
    expect(await ids('status=paid')).not.toContain(partly._id);
    expect(await ids('status=partially_refunded')).toEqual(expect.arrayContaining([partly._id]));
    expect(await ids('status=cancelled')).toContain(cancelled._id);
    expect(await ids('status=unpaid')).not.toContain(cancelled._id);
    expect(await ids('status=expired')).not.toContain(cancelled._id);
    for (const o of await list('status=refunded')) expect(o.status).toBe('refunded');
    for (const o of await list('status=partially_refunded')) expect(o.status).toBe('partially_refunded');
    expect((await call(t, admin, 'GET', '/api/orders?status=lost')).status).toBe(400);
    for (const term of [`%23${paid.number}`, String(paid.number)]) {
      const found = await list(`search=${term}`);
      expect(found.map((o) => o.number), term).toEqual([paid.number]);
    }
    expect(await ids(`search=${cancelled.number}&status=cancelled`)).toEqual([cancelled._id]);
  });
});
