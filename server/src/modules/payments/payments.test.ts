import type { Cart, Order, OrderActionResponse, PaymentConfig } from '@shop/contracts';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { outbox } from '../../db/schema.ts';
import { openMail } from '../../lib/mailer.ts';
import { addToCart, call, createProduct, placeOrderFor, stockOf } from '../../test/commerce-factories.ts';
import { startPayPalMock, type PayPalMock } from '../../test/paypal-mock.ts';
import { createAdmin, createTestApp, createUser, type TestApp, type TestUser } from '../../test/test-app.ts';
import { markOrderPaid } from '../orders/mark-order-paid.ts';

const ORDER_NOT_FOUND = { status: 404, body: { message: 'Order Not Found', code: 'NOT_FOUND' } };
const MISMATCH = { status: 400, body: { message: 'The PayPal payment does not match this order', code: 'PAYMENT_MISMATCH' } };
const NOT_COMPLETED = { status: 400, body: { message: 'The PayPal payment was not completed', code: 'PAYMENT_NOT_COMPLETED' } };

async function mailsTo(t: TestApp, email: string) {
  return (await t.database.db.select().from(outbox).where(eq(outbox.to, email))).map((m) => openMail(m, t.app.ctx.mailSealer));
}

/** What a buyer's browser does with the PayPal JS SDK: create through our server, approve on PayPal. */
async function createAndApprove(t: TestApp, mock: PayPalMock, user: TestUser, orderId: string): Promise<string> {
  const created = await call<{ id: string }>(t, user, 'POST', `/api/orders/${orderId}/paypal/create`);
  if (created.status !== 200) throw new Error(`paypal/create: ${created.status} ${JSON.stringify(created.body)}`);
  mock.approve(created.body.id);
  return created.body.id;
}

/** Direct REST calls to the mock, as someone holding only the public client id could make through the SDK. */
async function createPayPalOrderDirectly(mock: PayPalMock, unit: { custom_id: string; value: string; currency?: string }): Promise<string> {
  const tokenRes = await fetch(`${mock.url}/v1/oauth2/token`, {
    method: 'POST',
    headers: {
      Authorization: `Basic ${Buffer.from(`${mock.clientId}:${mock.clientSecret}`).toString('base64')}`,
      'Content-Type': 'application/x-www-form-urlencoded',
    },
    body: 'grant_type=client_credentials',
  });
  const { access_token } = (await tokenRes.json()) as { access_token: string };
  const res = await fetch(`${mock.url}/v2/checkout/orders`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${access_token}`, 'Content-Type': 'application/json' },
    body: JSON.stringify({
      intent: 'CAPTURE',
      purchase_units: [{ custom_id: unit.custom_id, amount: { currency_code: unit.currency ?? 'USD', value: unit.value } }],
    }),
  });
  const { id } = (await res.json()) as { id: string };
  mock.approve(id);
  return id;
}

const captureRequests = (mock: PayPalMock) => mock.requests.filter((r) => r.method === 'POST' && r.path.endsWith('/capture'));

describe('payments with PayPal (against a local PayPal REST server)', () => {
  let mock: PayPalMock;
  let t: TestApp;
  let alice: TestUser;
  let bob: TestUser;
  let admin: TestUser;
  beforeAll(async () => {
    mock = await startPayPalMock();
    t = await createTestApp({
      env: { PAYPAL_CLIENT_ID: mock.clientId, PAYPAL_CLIENT_SECRET: mock.clientSecret, PAYPAL_API_BASE: mock.url },
    });
    alice = await createUser(t, { name: 'Alice' });
    bob = await createUser(t, { name: 'Bob' });
    admin = await createAdmin(t);
  });
  afterAll(async () => {
    await t.close();
    await mock.close();
  });

  it('GET keys/paypal gives the client id, publicly', async () => {
    expect(await call<PaymentConfig>(t, null, 'GET', '/api/keys/paypal')).toEqual({
      status: 200, body: { clientId: mock.clientId, mode: 'paypal', currency: 'USD', demoPaymentsAllowed: false },
    });
  });

  it('creates the PayPal order for exactly the total, captures it on pay and marks the order paid', async () => {
    const p = await createProduct(t, { price: 12.5, isOnSale: true, saleDiscount: 10, countInStock: 5 });
    const order = await placeOrderFor(t, alice, [{ productId: p.id, quantity: 3 }]);
    expect(order.totalPrice).toBe(33.75);

    const created = await call<{ id: string }>(t, alice, 'POST', `/api/orders/${order._id}/paypal/create`);
    expect(created.status).toBe(200);
    const ppId = created.body.id;
    const pp = mock.orders.get(ppId)!;
    expect(pp.purchase_units).toHaveLength(1);
    expect(pp.purchase_units[0]).toMatchObject({ custom_id: order._id, reference_id: order._id, amount: { currency_code: 'USD', value: '33.75' } });
    const createReq = mock.requests.find((r) => r.path === '/v2/checkout/orders' && r.method === 'POST')!;
    expect(createReq.headers['paypal-request-id']).toBe(`create-${order._id}`);
    expect(createReq.headers.authorization).toMatch(/^Bearer A21AA/);
    expect(mock.tokenRequests()).toBe(1);

    // Creating again (a retry) yields the same PayPal order thanks to PayPal-Request-Id.
    expect((await call<{ id: string }>(t, alice, 'POST', `/api/orders/${order._id}/paypal/create`)).body.id).toBe(ppId);

    mock.approve(ppId, 'alice.buyer@example.com');
    const paid = await call<OrderActionResponse>(t, alice, 'PUT', `/api/orders/${order._id}/pay`, { paypalOrderId: ppId, orderId: order._id });
    expect(paid.status).toBe(200);
    expect(paid.body.message).toBe('Order is paid successfully');
    const captureId = mock.orders.get(ppId)!.purchase_units[0]!.payments!.captures[0]!.id;
    expect(paid.body.order).toMatchObject({
      _id: order._id, isPaid: true, expiresAt: null, isExpired: false,
      paymentResult: { provider: 'paypal', id: captureId, status: 'COMPLETED', emailAddress: 'alice.buyer@example.com' },
    });
    expect(paid.body.order.paidAt).toEqual(expect.any(String));
    expect(mock.orders.get(ppId)!.status).toBe('COMPLETED');
    expect(mock.tokenRequests()).toBe(1); // the token is cached

    // After payment: cart emptied on the server, stock stays taken, confirmation mail sent.
    expect((await call<Cart>(t, alice, 'GET', '/api/cart')).body.cartItems).toEqual([]);
    expect(await stockOf(t, p.id)).toBe(2);
    const mails = await mailsTo(t, alice.email);
    expect(mails).toHaveLength(1);
    expect(mails[0]!.subject).toBe(`Order confirmation #${order.number}`);
    expect(mails[0]!.text).toContain('Total: $33.75 USD');
  });

  it('a replayed pay call changes nothing and answers the same order', async () => {
    const p = await createProduct(t, { price: 20 });
    const order = await placeOrderFor(t, alice, [{ productId: p.id, quantity: 1 }]);
    const ppId = await createAndApprove(t, mock, alice, order._id);
    const first = await call<OrderActionResponse>(t, alice, 'PUT', `/api/orders/${order._id}/pay`, { paypalOrderId: ppId });
    expect(first.body.message).toBe('Order is paid successfully');
    const captures = captureRequests(mock).length;
    const mails = (await mailsTo(t, alice.email)).length;

    const again = await call<OrderActionResponse>(t, alice, 'PUT', `/api/orders/${order._id}/pay`, { paypalOrderId: ppId });
    expect(again.status).toBe(200);
    expect(again.body).toEqual({ message: 'Order is paid', order: first.body.order });
    // Concurrent replays, too.
    const burst = await Promise.all(Array.from({ length: 5 }, () =>
      call<OrderActionResponse>(t, alice, 'PUT', `/api/orders/${order._id}/pay`, { paypalOrderId: ppId })));
    for (const r of burst) expect(r.body).toEqual({ message: 'Order is paid', order: first.body.order });
    expect(captureRequests(mock)).toHaveLength(captures);
    expect(await mailsTo(t, alice.email)).toHaveLength(mails);
  });

  it('concurrent first pay calls capture once and pay once', async () => {
    const p = await createProduct(t, { price: 7 });
    const order = await placeOrderFor(t, bob, [{ productId: p.id, quantity: 1 }]);
    const ppId = await createAndApprove(t, mock, bob, order._id);
    const results = await Promise.all(Array.from({ length: 4 }, () =>
      call<OrderActionResponse>(t, bob, 'PUT', `/api/orders/${order._id}/pay`, { paypalOrderId: ppId })));
    expect(results.every((r) => r.status === 200 && r.body.order.isPaid)).toBe(true);
    expect(results.filter((r) => r.body.message === 'Order is paid successfully').length).toBeLessThanOrEqual(1);
    expect(new Set(results.map((r) => r.body.order.paymentResult!.id)).size).toBe(1);
    expect(mock.orders.get(ppId)!.purchase_units[0]!.payments!.captures).toHaveLength(1);
  });

  it('refuses a PayPal order for the wrong amount, without capturing it', async () => {
    const p = await createProduct(t, { price: 250 });
    const order = await placeOrderFor(t, alice, [{ productId: p.id, quantity: 1 }]);
    const cheap = await createPayPalOrderDirectly(mock, { custom_id: order._id, value: '1.00' });
    expect(await call(t, alice, 'PUT', `/api/orders/${order._id}/pay`, { paypalOrderId: cheap })).toEqual(MISMATCH);
    expect(mock.orders.get(cheap)!.status).toBe('APPROVED'); // never captured
    const wrongCurrency = await createPayPalOrderDirectly(mock, { custom_id: order._id, value: '250.00', currency: 'EUR' });
    expect(await call(t, alice, 'PUT', `/api/orders/${order._id}/pay`, { paypalOrderId: wrongCurrency })).toEqual(MISMATCH);
    const noCustomId = await createPayPalOrderDirectly(mock, { custom_id: 'somebody-else', value: '250.00' });
    expect(await call(t, alice, 'PUT', `/api/orders/${order._id}/pay`, { paypalOrderId: noCustomId })).toEqual(MISMATCH);
    expect((await call<Order>(t, alice, 'GET', `/api/orders/${order._id}`)).body.isPaid).toBe(false);
    await call(t, alice, 'DELETE', '/api/cart');
  });

  it('one capture pays one order: a paid PayPal order cannot pay a second order', async () => {
    const p = await createProduct(t, { price: 15 });
    const first = await placeOrderFor(t, alice, [{ productId: p.id, quantity: 1 }]);
    const ppId = await createAndApprove(t, mock, alice, first._id);
    expect((await call(t, alice, 'PUT', `/api/orders/${first._id}/pay`, { paypalOrderId: ppId })).status).toBe(200);
    // Same amount, another order.
    const second = await placeOrderFor(t, alice, [{ productId: p.id, quantity: 1 }]);
    expect(second.totalPrice).toBe(first.totalPrice);
    expect(await call(t, alice, 'PUT', `/api/orders/${second._id}/pay`, { paypalOrderId: ppId })).toEqual(MISMATCH);
    expect((await call<Order>(t, alice, 'GET', `/api/orders/${second._id}`)).body.isPaid).toBe(false);
    // And the database refuses a second order with the same capture id outright.
    const captureId = mock.orders.get(ppId)!.purchase_units[0]!.payments!.captures[0]!.id;
    await expect(markOrderPaid(t.database.db, {
      orderId: second._id, clearCartOf: null,
      payment: { provider: 'paypal', id: captureId, status: 'COMPLETED', emailAddress: null, updateTime: new Date().toISOString() },
    })).rejects.toMatchObject({ statusCode: 400, message: 'This payment has already been used for another order' });
    await call(t, alice, 'DELETE', '/api/cart');
  });

  it('refuses an unapproved, declined or unknown PayPal order', async () => {
    const p = await createProduct(t, { price: 9 });
    const order = await placeOrderFor(t, alice, [{ productId: p.id, quantity: 1 }]);
    const created = await call<{ id: string }>(t, alice, 'POST', `/api/orders/${order._id}/paypal/create`);
    expect(await call(t, alice, 'PUT', `/api/orders/${order._id}/pay`, { paypalOrderId: created.body.id })).toEqual(NOT_COMPLETED);
    mock.approve(created.body.id);
    mock.failNextCapture('INSTRUMENT_DECLINED');
    expect(await call(t, alice, 'PUT', `/api/orders/${order._id}/pay`, { paypalOrderId: created.body.id })).toEqual(NOT_COMPLETED);
    expect(await call(t, alice, 'PUT', `/api/orders/${order._id}/pay`, { paypalOrderId: 'NOSUCHORDER123' })).toEqual(MISMATCH);
    expect((await call(t, alice, 'PUT', `/api/orders/${order._id}/pay`, { paypalOrderId: '../../v1/x' })).status).toBe(400);
    expect((await call(t, alice, 'PUT', `/api/orders/${order._id}/pay`, {})).body)
      .toEqual({ message: 'Payment details are required', code: 'PAYMENT_REQUIRED' });
    // Now the capture goes through.
    expect((await call<OrderActionResponse>(t, alice, 'PUT', `/api/orders/${order._id}/pay`, { paypalOrderId: created.body.id })).body.message)
      .toBe('Order is paid successfully');
  });

  it('gets a new token when PayPal rejects the cached one', async () => {
    const p = await createProduct(t, { price: 3 });
    const order = await placeOrderFor(t, bob, [{ productId: p.id, quantity: 1 }]);
    const before = mock.tokenRequests();
    mock.revokeTokens();
    expect((await call(t, bob, 'POST', `/api/orders/${order._id}/paypal/create`)).status).toBe(200);
    expect(mock.tokenRequests()).toBe(before + 1);
  });

  it("keeps payment to the order's owner: another customer gets 404, demo is refused with PayPal configured", async () => {
    const p = await createProduct(t, { price: 4 });
    const order = await placeOrderFor(t, alice, [{ productId: p.id, quantity: 1 }]);
    expect(await call(t, bob, 'POST', `/api/orders/${order._id}/paypal/create`)).toEqual(ORDER_NOT_FOUND);
    expect(await call(t, bob, 'PUT', `/api/orders/${order._id}/pay`, { paypalOrderId: 'ABC123' })).toEqual(ORDER_NOT_FOUND);
    expect(await call(t, bob, 'PUT', `/api/orders/${order._id}/pay`, { demo: true })).toEqual(ORDER_NOT_FOUND);
    expect((await call(t, null, 'PUT', `/api/orders/${order._id}/pay`, { demo: true })).status).toBe(401);
    expect(await call(t, alice, 'PUT', `/api/orders/${order._id}/pay`, { demo: true }))
      .toEqual({ status: 400, body: { message: 'Demo payments are not available: pay with PayPal', code: 'DEMO_UNAVAILABLE' } });
    expect((await call(t, admin, 'PUT', `/api/orders/${order._id}/pay`, { demo: true })).status).toBe(400);
    expect((await call<Order>(t, alice, 'GET', `/api/orders/${order._id}`)).body.isPaid).toBe(false);
    await call(t, alice, 'DELETE', '/api/cart');
  });
});

describe('PayPal unreachable', () => {
  it("answers 502 'Error in connecting to PayPal' without internal details", async () => {
    const mock = await startPayPalMock();
    const deadUrl = mock.url;
    await mock.close();
    const t = await createTestApp({ env: { PAYPAL_CLIENT_ID: 'id', PAYPAL_CLIENT_SECRET: 'secret', PAYPAL_API_BASE: deadUrl } });
    try {
      const u = await createUser(t);
      const p = await createProduct(t);
      const order = await placeOrderFor(t, u, [{ productId: p.id, quantity: 1 }]);
      expect(await call(t, u, 'POST', `/api/orders/${order._id}/paypal/create`))
        .toEqual({ status: 502, body: { message: 'Error in connecting to PayPal', code: 'PAYPAL_UNAVAILABLE' } });
    } finally {
      await t.close();
    }
  }, 90_000);
});

describe('demo payments (no PayPal credentials)', () => {
  let t: TestApp;
  let alice: TestUser;
  let bob: TestUser;
  let admin: TestUser;
  beforeAll(async () => {
    t = await createTestApp();
    alice = await createUser(t);
    bob = await createUser(t);
    admin = await createAdmin(t);
  });
  afterAll(async () => { await t.close(); });

  it('GET keys/paypal says demo mode', async () => {
    expect((await call<PaymentConfig>(t, null, 'GET', '/api/keys/paypal')).body)
      .toEqual({ clientId: 'demo', mode: 'demo', currency: 'USD', demoPaymentsAllowed: true });
  });

  it('the owner pays with the demo provider; a replay changes nothing', async () => {
    const p = await createProduct(t, { price: 10, countInStock: 5 });
    const order = await placeOrderFor(t, alice, [{ productId: p.id, quantity: 2 }]);
    const paid = await call<OrderActionResponse>(t, alice, 'PUT', `/api/orders/${order._id}/pay`, { demo: true });
    expect(paid.status).toBe(200);
    expect(paid.body.message).toBe('Order is paid successfully');
    expect(paid.body.order).toMatchObject({
      isPaid: true, paymentResult: { provider: 'demo', id: `DEMO-${order._id}`, status: 'COMPLETED', emailAddress: null },
    });
    expect((await call<Cart>(t, alice, 'GET', '/api/cart')).body.cartItems).toEqual([]);
    expect(await stockOf(t, p.id)).toBe(3);
    const mails = await mailsTo(t, alice.email);
    expect(mails).toHaveLength(1);
    expect(mails[0]!.text).toContain('no money was taken');

    const again = await call<OrderActionResponse>(t, alice, 'PUT', `/api/orders/${order._id}/pay`, { demo: true });
    expect(again.body).toEqual({ message: 'Order is paid', order: paid.body.order });
    expect(await mailsTo(t, alice.email)).toHaveLength(1);
  });

  it("an admin can 'Test Pay Order' a customer's order, without emptying the customer's cart", async () => {
    const p = await createProduct(t);
    const order = await placeOrderFor(t, bob, [{ productId: p.id, quantity: 1 }]);
    const res = await call<OrderActionResponse>(t, admin, 'PUT', `/api/orders/${order._id}/pay`, { demo: true });
    expect(res.body.message).toBe('Order is paid successfully');
    expect((await call<Cart>(t, bob, 'GET', '/api/cart')).body.cartItems).toHaveLength(1);
    await call(t, bob, 'DELETE', '/api/cart');
  });

  it('another customer gets 404; a PayPal id is refused without PayPal', async () => {
    const p = await createProduct(t);
    const order = await placeOrderFor(t, alice, [{ productId: p.id, quantity: 1 }]);
    expect(await call(t, bob, 'PUT', `/api/orders/${order._id}/pay`, { demo: true })).toEqual(ORDER_NOT_FOUND);
    expect(await call(t, alice, 'POST', `/api/orders/${order._id}/paypal/create`))
      .toEqual({ status: 400, body: { message: 'PayPal is not configured on this server', code: 'PAYPAL_UNAVAILABLE' } });
    expect(await call(t, alice, 'PUT', `/api/orders/${order._id}/pay`, { paypalOrderId: 'ABC' }))
      .toEqual({ status: 400, body: { message: 'PayPal is not configured on this server', code: 'PAYPAL_UNAVAILABLE' } });
    expect(await call(t, alice, 'PUT', '/api/orders/aaaaaaaaaaaaaaaaaaaaaaaa/pay', { demo: true })).toEqual(ORDER_NOT_FOUND);
    await call(t, alice, 'DELETE', '/api/cart');
  });
});

describe('demo payments in production', () => {
  const production = { NODE_ENV: 'production', PUBLIC_URL: 'https://shop.example.com' };

  it('are refused without ALLOW_DEMO_PAYMENTS', async () => {
    const prod = await createTestApp({ env: production });
    try {
      const u = await createUser(prod);
      const p = await createProduct(prod, { countInStock: 2 });
      const order = await placeOrderFor(prod, u, [{ productId: p.id, quantity: 1 }]);
      expect((await call<PaymentConfig>(prod, null, 'GET', '/api/keys/paypal')).body)
        .toEqual({ clientId: 'demo', mode: 'demo', currency: 'USD', demoPaymentsAllowed: false });
      expect(await call(prod, u, 'PUT', `/api/orders/${order._id}/pay`, { demo: true }))
        .toEqual({ status: 403, body: { message: 'Demo payments are disabled on this server', code: 'FORBIDDEN' } });
      expect((await call<Order>(prod, u, 'GET', `/api/orders/${order._id}`)).body.isPaid).toBe(false);
    } finally {
      await prod.close();
    }
  }, 90_000);

  it('are accepted with ALLOW_DEMO_PAYMENTS=true', async () => {
    const allowed = await createTestApp({ env: { ...production, ALLOW_DEMO_PAYMENTS: 'true' } });
    try {
      const u = await createUser(allowed);
      const p = await createProduct(allowed);
      const order = await placeOrderFor(allowed, u, [{ productId: p.id, quantity: 1 }]);
      expect((await call<OrderActionResponse>(allowed, u, 'PUT', `/api/orders/${order._id}/pay`, { demo: true })).body.message)
        .toBe('Order is paid successfully');
    } finally {
      await allowed.close();
    }
  }, 90_000);
});

describe('a cart line added after placing the order', () => {
  it('is emptied with the rest of the cart on payment (the spec clears the cart after payment)', async () => {
    const t = await createTestApp();
    try {
      const u = await createUser(t);
      const a = await createProduct(t);
      const b = await createProduct(t);
      const order = await placeOrderFor(t, u, [{ productId: a.id, quantity: 1 }]);
      await addToCart(t, u, b.id, 1);
      await call(t, u, 'PUT', `/api/orders/${order._id}/pay`, { demo: true });
      expect((await call<Cart>(t, u, 'GET', '/api/cart')).body.cartItems).toEqual([]);
    } finally {
      await t.close();
    }
  }, 90_000);
});
