import type { CjSaveResponse, Order, OrderNoteResponse, OrderResponse, RefundResponse } from '@shop/contracts';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jobs, outbox } from '../../db/schema.ts';
import { openMail } from '../../lib/mailer.ts';
import { addToCart, call, createProduct, sampleAddress, stockOf } from '../../test/commerce-factories.ts';
import { startCjMock, type CjMock } from '../../test/cj-mock.ts';
import { createAdmin, createTestApp, createUser, TEST_DB, type TestApp, type TestUser } from '../../test/test-app.ts';
import { SUPPLIER_ORDER_JOB } from '../supplier/index.ts';
import { pollTracking } from '../supplier/supplier-tracking.ts';

async function placeOrder(t: TestApp, user: TestUser, lines: Array<{ productId: string; quantity: number }>): Promise<Order> {
  for (const l of lines) await addToCart(t, user, l.productId, l.quantity);
  const res = await call<Order>(t, user, 'POST', '/api/orders', { shippingAddress: sampleAddress(), paymentMethod: 'PayPal' });
  if (res.status !== 201) throw new Error(`place: ${res.status} ${JSON.stringify(res.body)}`);
  await call(t, user, 'DELETE', '/api/cart');
  return res.body;
}

async function mailsTo(t: TestApp, email: string, subject: string) {
  const rows = await t.database.db.select().from(outbox).where(and(eq(outbox.to, email), eq(outbox.subject, subject)));
  return rows.map((m) => openMail(m, t.app.ctx.mailSealer));
}

describe(`cancelling orders on ${TEST_DB}`, () => {
  let t: TestApp;
  let admin: TestUser;
  let dan: TestUser;
  let eve: TestUser;
  beforeAll(async () => {
    t = await createTestApp();
    admin = await createAdmin(t);
    dan = await createUser(t, { name: 'Dan' });
    eve = await createUser(t, { name: 'Eve' });
  });
  afterAll(async () => { await t.close(); });

  it('the owner cancels their own unpaid order: its stock is released, once, and it can no longer be paid', async () => {
    const p = await createProduct(t, { price: 5, countInStock: 10 });
    const order = await placeOrder(t, dan, [{ productId: p.id, quantity: 3 }]);
    expect(await stockOf(t, p.id)).toBe(7);
    expect(await call(t, eve, 'POST', `/api/orders/${order._id}/cancel`, {})).toEqual({ status: 404, body: { message: 'Order Not Found', code: 'NOT_FOUND' } });
    expect((await call(t, null, 'POST', `/api/orders/${order._id}/cancel`, {})).status).toBe(401);

    const res = await call<OrderResponse>(t, dan, 'POST', `/api/orders/${order._id}/cancel`, { reason: 'Ordered the wrong colour' });
    expect(res.status).toBe(200);
    expect(res.body.order).toMatchObject({ status: 'cancelled', isExpired: false, refundedAmount: 0, cancelReason: 'Ordered the wrong colour' });
    expect(res.body.order.cancelledAt).toEqual(expect.any(String));
    expect(res.body.order.events!.map((e) => [e.type, e.message])).toEqual([['placed', 'Order placed'], ['cancelled', 'Order cancelled']]);
    expect(await stockOf(t, p.id)).toBe(10);
    // Again: nothing changes (no second release), the same answer.
    const again = await call<OrderResponse>(t, dan, 'POST', `/api/orders/${order._id}/cancel`, {});
    expect(again).toMatchObject({ status: 200, body: { order: { status: 'cancelled', cancelledAt: res.body.order.cancelledAt } } });
    expect(await stockOf(t, p.id)).toBe(10);
    expect(await call(t, dan, 'PUT', `/api/orders/${order._id}/pay`, { demo: true })).toMatchObject({
      status: 400, body: { message: 'This order has been cancelled: it can no longer be paid', code: 'ORDER_CANCELLED' },
    });
    // The expiry sweep never touches it again, and it is not "expired".
    await t.app.ctx.jobs.runDue();
    expect(await stockOf(t, p.id)).toBe(10);

    const mails = await mailsTo(t, dan.email, `Your order #${order.number} has been cancelled`);
    expect(mails).toHaveLength(1);
    expect(mails[0]!.text).toContain('Reason: Ordered the wrong colour');
    expect(mails[0]!.text).toContain('It was not paid, so nothing was charged.');
    // Admin view: who cancelled.
    const seen = await call<Order>(t, admin, 'GET', `/api/orders/${order._id}`);
    expect(seen.body.events!.at(-1)).toMatchObject({ type: 'cancelled', message: 'Cancelled by the customer: Ordered the wrong colour', author: { _id: dan.id, name: 'Dan' } });
    // A cancelled unpaid order can be deleted as before.
    expect((await call(t, admin, 'DELETE', `/api/orders/${order._id}`)).status).toBe(200);
  });

  it('the owner cannot cancel a paid order; an administrator cancels it with a full refund, restocked, in one step', async () => {
    const p = await createProduct(t, { price: 12, countInStock: 10 });
    const order = await placeOrder(t, dan, [{ productId: p.id, quantity: 2 }]);
    await call(t, dan, 'PUT', `/api/orders/${order._id}/pay`, { demo: true });
    expect(await call(t, dan, 'POST', `/api/orders/${order._id}/cancel`, {})).toEqual({
      status: 409, body: { message: 'This order is paid: please contact us to cancel it', code: 'ORDER_PAID' },
    });
    // Partly refunded first: the cancellation refunds what is left.
    await call(t, admin, 'POST', `/api/orders/${order._id}/refunds`, { amount: 4, reason: 'goodwill' });
    const res = await call<OrderResponse>(t, admin, 'POST', `/api/orders/${order._id}/cancel`, { reason: 'Out of stock at the warehouse' });
    expect(res.status).toBe(200);
    expect(res.body.order).toMatchObject({ status: 'cancelled', refundedAmount: 24, cancelReason: 'Out of stock at the warehouse' });
    expect(res.body.order.refunds!.map((r) => [r.amount, r.isCancellation])).toEqual([[4, false], [20, true]]);
    expect(res.body.order.orderItems[0]!.refundedQuantity).toBe(2);
    expect(await stockOf(t, p.id)).toBe(10);
    // One mail for the cancellation (with its refund), besides the earlier refund's.
    const mails = await mailsTo(t, dan.email, `Your order #${order.number} has been cancelled`);
    expect(mails).toHaveLength(1);
    expect(mails[0]!.text).toContain('We have refunded $20.00, everything that was still paid for it.');
    expect(await mailsTo(t, dan.email, `Refund for your order #${order.number}`)).toHaveLength(1);
    // Now it can be deleted (archived).
    expect((await call(t, admin, 'DELETE', `/api/orders/${order._id}`)).status).toBe(200);
  });

  it('a delivered order cannot be cancelled (refund it instead); an expired one has nothing to cancel', async () => {
    const p = await createProduct(t, { price: 3, countInStock: 10 });
    const order = await placeOrder(t, eve, [{ productId: p.id, quantity: 1 }]);
    await call(t, eve, 'PUT', `/api/orders/${order._id}/pay`, { demo: true });
    await call(t, admin, 'PUT', `/api/orders/${order._id}/deliver`);
    expect(await call(t, admin, 'POST', `/api/orders/${order._id}/cancel`, {})).toEqual({
      status: 409, body: { message: 'A delivered order cannot be cancelled: refund it instead', code: 'ORDER_DELIVERED' },
    });
    // Delivered lines are not restocked by default.
    const refund = await call<RefundResponse>(t, admin, 'POST', `/api/orders/${order._id}/refunds`, { lines: [{ orderItemId: order.orderItems[0]!._id, quantity: 1 }], reason: 'Broken' });
    expect(refund.body.refund.lines[0]!.restock).toBe(false);
    expect(await stockOf(t, p.id)).toBe(9);

    const late = await placeOrder(t, eve, [{ productId: p.id, quantity: 1 }]);
    await t.database.exec(`UPDATE orders SET expires_at = now() - interval '1 minute' WHERE id = '${late._id}'`);
    expect(await call(t, eve, 'POST', `/api/orders/${late._id}/cancel`, {})).toEqual({
      status: 409, body: { message: 'This order has expired: there is nothing to cancel', code: 'ORDER_EXPIRED' },
    });
  });

  it('the timeline: internal notes for administrators only, written with their author', async () => {
    const p = await createProduct(t, { price: 3, countInStock: 10 });
    const order = await placeOrder(t, eve, [{ productId: p.id, quantity: 1 }]);
    const note = await call<OrderNoteResponse>(t, admin, 'POST', `/api/orders/${order._id}/notes`, { text: '  Customer called: gift wrap please  ' });
    expect(note.status).toBe(201);
    expect(note.body.event).toMatchObject({ type: 'note', message: 'Customer called: gift wrap please', internal: true, author: { _id: admin.id } });
    expect(note.body.order.events!.map((e) => e.type)).toEqual(['placed', 'note']);
    expect((await call<Order>(t, eve, 'GET', `/api/orders/${order._id}`)).body.events!.map((e) => e.type)).toEqual(['placed']);
    expect((await call(t, eve, 'POST', `/api/orders/${order._id}/notes`, { text: 'hi' })).status).toBe(403);
    expect(await call(t, admin, 'POST', `/api/orders/${order._id}/notes`, { text: '   ' })).toMatchObject({ status: 400, body: { message: 'The note is empty' } });
    expect((await call(t, admin, 'POST', '/api/orders/cccccccccccccccccccccccc/notes', { text: 'x' })).status).toBe(404);
  });

  it('cancel honours an Idempotency-Key: the same key answers the first cancellation again', async () => {
    const p = await createProduct(t, { price: 3, countInStock: 10 });
    const order = await placeOrder(t, eve, [{ productId: p.id, quantity: 1 }]);
    const send = () => t.app.inject({ method: 'POST', url: `/api/orders/${order._id}/cancel`, payload: {}, headers: { cookie: eve.cookie, 'idempotency-key': 'cancel-1' } });
    const first = await send();
    const second = await send();
    expect(first.statusCode).toBe(200);
    expect(second.statusCode).toBe(200);
    expect(second.headers['idempotent-replayed']).toBe('true');
    expect(second.body).toBe(first.body);
  });
});

describe(`cancelling orders forwarded to the supplier (local CJ server) on ${TEST_DB}`, () => {
  let cj: CjMock;
  let t: TestApp;
  let admin: TestUser;
  let fay: TestUser;
  let saved: CjSaveResponse['product'];

  async function paidSupplierOrder(forward: boolean): Promise<Order> {
    const res = await call(t, fay, 'POST', '/api/cart/items', { productId: saved._id, quantity: 1 });
    if (res.status !== 200) throw new Error(`cart: ${res.status} ${JSON.stringify(res.body)}`);
    const placed = await call<Order>(t, fay, 'POST', '/api/orders', { shippingAddress: sampleAddress(), paymentMethod: 'PayPal' });
    if (placed.status !== 201) throw new Error(`place: ${placed.status} ${JSON.stringify(placed.body)}`);
    await call(t, fay, 'PUT', `/api/orders/${placed.body._id}/pay`, { demo: true });
    if (forward) await t.app.ctx.jobs.runDue();
    return placed.body;
  }

  beforeAll(async () => {
    cj = await startCjMock({ products: 10 });
    t = await createTestApp({ env: { CJ_API_KEY: cj.apiKey, CJ_API_BASE: cj.url, CJ_REQUESTS_PER_SECOND: '100' } });
    admin = await createAdmin(t);
    fay = await createUser(t, { name: 'Fay' });
    const pid = [...cj.products.values()][0]!.pid;
    saved = (await call<CjSaveResponse>(t, admin, 'POST', '/api/cj/products/save', { pid })).body.product;
  });
  afterAll(async () => {
    await t?.close();
    await cj?.close();
  });

  it('CJ has not shipped: the order is withdrawn at CJ (deleteOrder), then cancelled and refunded', async () => {
    const order = await paidSupplierOrder(true);
    const atCj = cj.orders.get(order._id)!;
    expect(atCj.orderStatus).toBe('UNSHIPPED');
    const res = await call<OrderResponse>(t, admin, 'POST', `/api/orders/${order._id}/cancel`, { reason: 'Customer asked' });
    expect(res.status).toBe(200);
    expect(res.body.order).toMatchObject({ status: 'cancelled', refundedAmount: order.totalPrice });
    const deletes = cj.requests.filter((r) => r.path === 'shopping/order/deleteOrder');
    expect(deletes.map((r) => [r.method, r.query.orderId])).toEqual([['DELETE', atCj.orderId]]);
    expect(atCj.orderStatus).toBe('CANCELLED');
    // The administrator sees the supplier step; the customer sees no supplier and no CJ.
    const adminView = (await call<Order>(t, admin, 'GET', `/api/orders/${order._id}`)).body;
    expect(adminView.events!.map((e) => e.type)).toEqual(['placed', 'paid', 'forwarded', 'supplier_cancelled', 'refunded', 'cancelled']);
    expect(adminView.events!.find((e) => e.type === 'supplier_cancelled')).toMatchObject({ internal: true, message: `Supplier order cancelled at CJ (CJ order ${atCj.orderId})` });
    const mine = (await call<Order>(t, fay, 'GET', `/api/orders/${order._id}`)).body;
    expect(mine.events!.map((e) => e.message)).toEqual(['Order placed', 'Payment received (demo payment: no money was taken)', 'Processing', `Refunded $${order.totalPrice.toFixed(2)}`, 'Order cancelled']);
    expect(JSON.stringify(mine.events)).not.toMatch(/CJ|supplier/i);
    // The tracking poll no longer follows it.
    const asked: string[] = [];
    const catalogue = {
      getOrderDetail: async (id: string) => {
        asked.push(id);
        return { orderId: id, orderStatus: 'UNSHIPPED', trackNumber: null, logisticName: null };
      },
    };
    await pollTracking({ db: t.database.db, catalogue: catalogue as never, mailer: t.app.ctx.mailer, siteUrl: 'http://localhost:3000', log: t.app.log });
    expect(asked).not.toContain(atCj.orderId);
  });

  it('CJ has shipped: the cancel is refused with that reason, nothing changes, and a refund stays possible', async () => {
    const order = await paidSupplierOrder(true);
    const atCj = cj.orders.get(order._id)!;
    atCj.orderStatus = 'SHIPPED';
    atCj.trackNumber = 'YT0000000001';
    atCj.logisticName = 'YunExpress';
    const res = await call(t, admin, 'POST', `/api/orders/${order._id}/cancel`, {});
    expect(res).toEqual({
      status: 409,
      body: {
        message: 'CJ has already shipped this order (status SHIPPED, YunExpress, tracking number YT0000000001): it can no longer be cancelled. Refund the customer instead.',
        code: 'SUPPLIER_SHIPPED',
      },
    });
    expect(cj.requests.filter((r) => r.path === 'shopping/order/deleteOrder' && r.query.orderId === atCj.orderId)).toHaveLength(0);
    const after = (await call<Order>(t, admin, 'GET', `/api/orders/${order._id}`)).body;
    expect(after).toMatchObject({ status: 'paid', cancelledAt: null, refundedAmount: 0 });
    const refund = await call<RefundResponse>(t, admin, 'POST', `/api/orders/${order._id}/refunds`, { amount: order.totalPrice, reason: 'Lost in transit' });
    expect(refund).toMatchObject({ status: 201, body: { order: { status: 'refunded' } } });
  });

  it('CJ refusing the withdrawal (shipped between our look and the delete): refused with CJ\'s words', async () => {
    const order = await paidSupplierOrder(true);
    cj.failNext('shopping/order/deleteOrder', { code: 1600300, message: 'The order has been shipped and cannot be deleted' });
    const res = await call(t, admin, 'POST', `/api/orders/${order._id}/cancel`, {});
    expect(res.status).toBe(409);
    expect(res.body).toMatchObject({ code: 'SUPPLIER_CANCEL_REFUSED' });
    expect((res.body as { message: string }).message).toContain('The order has been shipped and cannot be deleted');
    expect((await call<Order>(t, admin, 'GET', `/api/orders/${order._id}`)).body).toMatchObject({ status: 'paid', cancelledAt: null });
  });

  it('not sent to CJ yet: the supplier order is withdrawn and never sent', async () => {
    const order = await paidSupplierOrder(false);
    const res = await call<OrderResponse>(t, admin, 'POST', `/api/orders/${order._id}/cancel`, {});
    expect(res).toMatchObject({ status: 200, body: { order: { status: 'cancelled' } } });
    const [job] = await t.database.db.select().from(jobs).where(and(eq(jobs.kind, SUPPLIER_ORDER_JOB), eq(jobs.dedupeKey, order._id)));
    expect(job).toMatchObject({ status: 'failed', lastError: 'Withdrawn: the order was cancelled' });
    await t.app.ctx.jobs.runDue();
    expect(cj.orders.has(order._id)).toBe(false);
    // An administrator's Retry cannot send it either.
    expect((await call(t, admin, 'POST', `/api/cj/orders/${order._id}/retry`)).status).toBe(200);
    await t.app.ctx.jobs.runDue();
    expect(cj.orders.has(order._id)).toBe(false);
    expect((await call<Order>(t, admin, 'GET', `/api/orders/${order._id}`)).body.events!.find((e) => e.type === 'supplier_cancelled'))
      .toMatchObject({ message: 'Supplier order withdrawn before it was sent' });
  });
});
