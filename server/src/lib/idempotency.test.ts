import type { Order, OrderActionResponse } from '@shop/contracts';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { idempotencyKeys, orders } from '../db/schema.ts';
import { addToCart, createProduct, sampleAddress, stockOf } from '../test/commerce-factories.ts';
import { startPayPalMock, type PayPalMock } from '../test/paypal-mock.ts';
import { createTestApp, createUser, TEST_DB, type TestApp, type TestUser } from '../test/test-app.ts';
import { IDEMPOTENCY_PURGE_JOB, purgeIdempotencyKeys } from './idempotency.ts';

type Answer<T> = { status: number; body: T; replayed: boolean; retryAfter: string | undefined };

/** app.inject with an Idempotency-Key. */
async function send<T = Record<string, unknown>>(
  t: TestApp, user: TestUser, method: 'POST' | 'PUT', url: string, payload: unknown, key?: string,
): Promise<Answer<T>> {
  const res = await t.app.inject({
    method, url, payload: payload as Record<string, unknown>,
    headers: { cookie: user.cookie, ...(key === undefined ? {} : { 'idempotency-key': key }) },
  });
  return {
    status: res.statusCode, body: res.json() as T, replayed: res.headers['idempotent-replayed'] === 'true',
    retryAfter: res.headers['retry-after'] as string | undefined,
  };
}

const ordersOf = async (t: TestApp, userId: string) => t.database.db.select({ id: orders.id }).from(orders).where(eq(orders.userId, userId));
const body = { shippingAddress: sampleAddress(), paymentMethod: 'PayPal' };

describe(`Idempotency-Key on ${TEST_DB} (lib/idempotency.ts)`, () => {
  let mock: PayPalMock;
  let t: TestApp;
  beforeAll(async () => {
    mock = await startPayPalMock();
    t = await createTestApp({ env: { PAYPAL_CLIENT_ID: mock.clientId, PAYPAL_CLIENT_SECRET: mock.clientSecret, PAYPAL_API_BASE: mock.url } });
  });
  afterAll(async () => {
    await t.close();
    await mock.close();
  });

  it('POST orders: the same key and body twice answer the first answer again, one order, stock taken once', async () => {
    const u = await createUser(t);
    const p = await createProduct(t, { countInStock: 5 });
    await addToCart(t, u, p.id, 2);
    const first = await send<Order>(t, u, 'POST', '/api/orders', body, 'order-key-1');
    expect(first).toMatchObject({ status: 201, replayed: false });
    // A double submit without a key would answer 200 (the duplicate guard); with the key it is the
    // stored answer itself: 201 and the very same body, marked as replayed.
    const again = await send<Order>(t, u, 'POST', '/api/orders', body, 'order-key-1');
    expect(again).toEqual({ status: 201, body: first.body, replayed: true, retryAfter: undefined });
    expect(await ordersOf(t, u.id)).toHaveLength(1);
    expect(await stockOf(t, p.id)).toBe(3);
  });

  it('POST orders: the same key sent concurrently places one order; the others are told it is in progress or get its answer', async () => {
    const u = await createUser(t);
    const p = await createProduct(t, { countInStock: 50 });
    await addToCart(t, u, p.id, 1);
    const answers = await Promise.all(Array.from({ length: 6 }, () => send<Order>(t, u, 'POST', '/api/orders', body, 'same-moment')));
    const created = answers.filter((a) => a.status === 201 && !a.replayed);
    expect(created).toHaveLength(1);
    for (const a of answers) {
      if (a === created[0]) continue;
      if (a.status === 409) {
        expect(a.body).toEqual({ message: 'A request with this Idempotency-Key is still being processed. Try again in a moment.', code: 'IDEMPOTENCY_KEY_IN_USE' });
        expect(a.retryAfter).toBe('1');
      } else {
        expect(a).toMatchObject({ status: 201, replayed: true, body: created[0]!.body });
      }
    }
    expect(await ordersOf(t, u.id)).toHaveLength(1);
    expect(await stockOf(t, p.id)).toBe(49);
  });

  it('the same key with another body (or another route) is 422 and runs nothing', async () => {
    const u = await createUser(t);
    const p = await createProduct(t, { countInStock: 5 });
    await addToCart(t, u, p.id, 1);
    expect((await send(t, u, 'POST', '/api/orders', body, 'reused')).status).toBe(201);
    const other = await send(t, u, 'POST', '/api/orders', { ...body, shippingAddress: sampleAddress(2) }, 'reused');
    expect(other).toMatchObject({
      status: 422,
      body: { message: 'This Idempotency-Key was already used for a different request. Use a new key for a new request.', code: 'IDEMPOTENCY_KEY_REUSED' },
    });
    const [order] = await ordersOf(t, u.id);
    expect((await send(t, u, 'PUT', `/api/orders/${order!.id}/pay`, { demo: true }, 'reused')).status).toBe(422);
    expect(await ordersOf(t, u.id)).toHaveLength(1);
  });

  it('keys belong to their caller: two users with the same key are independent', async () => {
    const a = await createUser(t);
    const b = await createUser(t);
    const p = await createProduct(t, { countInStock: 5 });
    await addToCart(t, a, p.id, 1);
    await addToCart(t, b, p.id, 1);
    const fromA = await send<Order>(t, a, 'POST', '/api/orders', body, 'shared-key');
    const fromB = await send<Order>(t, b, 'POST', '/api/orders', body, 'shared-key');
    expect(fromA).toMatchObject({ status: 201, replayed: false });
    expect(fromB).toMatchObject({ status: 201, replayed: false });
    expect(fromA.body._id).not.toBe(fromB.body._id);
    expect(fromB.body.user?._id).toBe(b.id);
    expect(await stockOf(t, p.id)).toBe(3);
  });

  it('a refusal by the route is kept (Stripe replays a decline); one refused before it ran (validation) is not', async () => {
    const u = await createUser(t);
    const empty = await send(t, u, 'POST', '/api/orders', body, 'refused-once');
    expect(empty).toMatchObject({ status: 400, body: { message: 'Cart is empty', code: 'CART_EMPTY' }, replayed: false });
    const p = await createProduct(t, { countInStock: 5 });
    await addToCart(t, u, p.id, 1);
    // The same key and request: the same refusal, even though the cart is no longer empty.
    expect(await send(t, u, 'POST', '/api/orders', body, 'refused-once')).toMatchObject({ status: 400, body: { message: 'Cart is empty' }, replayed: true });
    expect(await ordersOf(t, u.id)).toHaveLength(0);

    const invalid = await send(t, u, 'POST', '/api/orders', { ...body, paymentMethod: 'Cash' }, 'validated-first');
    expect(invalid).toMatchObject({ status: 400, body: { code: 'VALIDATION_ERROR' } });
    // Never stored: the same key with a valid body runs (no 422).
    expect(await send(t, u, 'POST', '/api/orders', body, 'validated-first')).toMatchObject({ status: 201, replayed: false });
  });

  it('an invalid key is a 400 and nothing runs', async () => {
    const u = await createUser(t);
    const p = await createProduct(t, { countInStock: 5 });
    await addToCart(t, u, p.id, 1);
    for (const key of ['', 'has space', 'x'.repeat(256), 'caf\u00e9']) {
      const res = await send(t, u, 'POST', '/api/orders', body, key);
      expect(res.status, JSON.stringify(key)).toBe(400);
      expect(res.body, JSON.stringify(key)).toMatchObject({ code: 'IDEMPOTENCY_KEY_INVALID', message: 'Idempotency-Key must be 1 to 255 visible characters (letters, digits, punctuation; no spaces)' });
    }
    expect(await ordersOf(t, u.id)).toHaveLength(0);
  });

  it('PUT pay: the same key twice sequentially and concurrently captures once at PayPal', async () => {
    const u = await createUser(t);
    const p = await createProduct(t, { countInStock: 5, price: 12 });
    await addToCart(t, u, p.id, 1);
    const order = (await send<Order>(t, u, 'POST', '/api/orders', body)).body;
    const created = await send<{ id: string }>(t, u, 'POST', `/api/orders/${order._id}/paypal/create`, {});
    mock.approve(created.body.id);
    const captures = () => mock.requests.filter((r) => r.method === 'POST' && r.path === `/v2/checkout/orders/${created.body.id}/capture`).length;
    const pay = { paypalOrderId: created.body.id };
    const answers = await Promise.all(Array.from({ length: 4 }, () => send<OrderActionResponse>(t, u, 'PUT', `/api/orders/${order._id}/pay`, pay, 'pay-key')));
    const first = answers.find((a) => a.status === 200 && !a.replayed)!;
    expect(first.body.message).toBe('Order is paid successfully');
    for (const a of answers) if (a !== first) expect([409, 200]).toContain(a.status);
    const again = await send<OrderActionResponse>(t, u, 'PUT', `/api/orders/${order._id}/pay`, pay, 'pay-key');
    expect(again).toEqual({ status: 200, body: first.body, replayed: true, retryAfter: undefined });
    expect(captures()).toBe(1);
  });

  it('a 5xx is not kept: the retry with the same key runs again', async () => {
    const u = await createUser(t);
    const p = await createProduct(t, { countInStock: 5 });
    await addToCart(t, u, p.id, 1);
    // The database fails the first order row written for this user (a sequence is not rolled back).
    await t.database.exec(`
      CREATE SEQUENCE idem_fail_once;
      CREATE FUNCTION idem_fail_once() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF NEW.user_id = '${u.id}' AND nextval('idem_fail_once') = 1 THEN RAISE EXCEPTION 'injected failure'; END IF;
        RETURN NEW;
      END $$;
      CREATE TRIGGER idem_fail_once BEFORE INSERT ON orders FOR EACH ROW EXECUTE FUNCTION idem_fail_once();`);
    try {
      const failed = await send(t, u, 'POST', '/api/orders', body, 'after-a-500');
      expect(failed).toMatchObject({ status: 500, body: { message: 'Internal Server Error', code: 'INTERNAL' } });
      expect(await t.database.db.select().from(idempotencyKeys).where(eq(idempotencyKeys.key, 'after-a-500'))).toEqual([]);
      const retried = await send<Order>(t, u, 'POST', '/api/orders', body, 'after-a-500');
      expect(retried).toMatchObject({ status: 201, replayed: false });
      expect(await ordersOf(t, u.id)).toHaveLength(1);
      expect(await stockOf(t, p.id)).toBe(4);
    } finally {
      await t.database.exec('DROP TRIGGER idem_fail_once ON orders; DROP FUNCTION idem_fail_once(); DROP SEQUENCE idem_fail_once;');
    }
  });

  it('keys are kept 24 hours: an older key counts as unused, and the purge job deletes it', async () => {
    const u = await createUser(t);
    const p = await createProduct(t, { countInStock: 5 });
    await addToCart(t, u, p.id, 1);
    expect((await send(t, u, 'POST', '/api/orders', body, 'old-key')).status).toBe(201);
    await t.database.db.update(idempotencyKeys).set({ createdAt: sql`now() - interval '25 hours'` }).where(eq(idempotencyKeys.userId, u.id));
    // Another request with the old key is not a reuse any more: it runs.
    const later = await send(t, u, 'POST', '/api/orders', { ...body, shippingAddress: sampleAddress(3) }, 'old-key');
    expect(later).toMatchObject({ status: 201, replayed: false });
    expect(await ordersOf(t, u.id)).toHaveLength(2);
    // The purge deletes what is older than 24 hours, and only that.
    await send(t, u, 'POST', '/api/orders', body, 'young-key');
    await t.database.db.update(idempotencyKeys).set({ createdAt: sql`now() - interval '25 hours'` }).where(eq(idempotencyKeys.key, 'old-key'));
    expect(await purgeIdempotencyKeys(t.database.db)).toBe(1);
    expect((await t.database.db.select({ key: idempotencyKeys.key }).from(idempotencyKeys).where(eq(idempotencyKeys.userId, u.id))).map((r) => r.key)).toEqual(['young-key']);
    expect(t.app.ctx.jobs.kinds).toContain(IDEMPOTENCY_PURGE_JOB);
  });
});
