import type { Order, OrderActionResponse } from '@shop/contracts';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../db/client.ts';
import { orders } from '../../db/schema.ts';
import { addToCart, call, createAddressFor, createProduct, placeOrderFor, sampleAddress, stockOf } from '../../test/commerce-factories.ts';
import { createTestApp, createUser, type TestApp } from '../../test/test-app.ts';

interface QueryLogger { logQuery(query: string, params: unknown[]): void }

/**
 * Records every SQL statement the app sends through Drizzle (its query logger, on the session and
 * on the options each transaction's session is made from). Transaction control (begin, commit) is
 * left out: PGlite runs it outside Drizzle, PostgreSQL through it.
 */
function recordStatements(db: Db) {
  const session = (db as unknown as { session: { logger: QueryLogger; options: { logger?: QueryLogger } } }).session;
  const seen: string[] = [];
  const logger: QueryLogger = {
    logQuery: (query) => { if (!/^\s*(begin|commit|rollback|savepoint|release)\b/i.test(query)) seen.push(query); },
  };
  session.logger = logger;
  session.options.logger = logger;
  return { take: () => seen.splice(0) };
}

/**
 * The checkout path's round trips to the database (issue 12: checkout under load is bound by
 * them). A change that adds a statement to a step fails here: raise the bound only on purpose.
 */
describe('checkout round trips', () => {
  let t: TestApp;
  beforeAll(async () => { t = await createTestApp(); });
  afterAll(async () => { await t.close(); });

  it('adds to the cart, places and pays an order in a bounded number of statements', async () => {
    const u = await createUser(t, { name: 'Counted' });
    const a = await createProduct(t, { countInStock: 50 });
    const b = await createProduct(t, { countInStock: 50 });
    const address = await createAddressFor(t, u, sampleAddress(7));
    const log = recordStatements(t.database.db);

    await addToCart(t, u, a.id, 1);
    await t.app.ctx.jobs.runDue(); // the cart lead's job: made on first contact
    log.take();
    await addToCart(t, u, b.id, 2);
    const add = log.take();
    await t.app.ctx.jobs.runDue();
    // The lead, found and merged into, by its job (the runner's own statements, claim and outcome,
    // are shared by the jobs of a round and are not the lead's).
    const round = log.take();
    const lead = round.filter((q) => /\b(leads)\b/.test(q));
    // The runner's own statements for runDue's rounds (the periods' scheduled jobs, expired leases,
    // the claim, the job's outcome): printed with the steps, not bounded here (they are the runner's,
    // shared by every job of a round, not the checkout's).
    const runner = round.filter((q) => !/\b(leads)\b/.test(q));

    const placed = await call<Order>(t, u, 'POST', '/api/orders', { addressId: address._id, paymentMethod: 'PayPal' });
    expect(placed.status).toBe(201);
    const place = log.take();

    const paid = await call<OrderActionResponse>(t, u, 'PUT', `/api/orders/${placed.body._id}/pay`, { demo: true });
    expect(paid.status).toBe(200);
    expect(paid.body.order.isPaid).toBe(true);
    await t.app.ctx.background.flush();
    const pay = log.take();

    const steps = { add, lead, runner, place, pay };
    if (process.env.LOG_CHECKOUT_STATEMENTS) for (const [step, list] of Object.entries(steps)) console.info(`-- ${step}\n${list.join('\n')}`);
    expect(add.length).toBeGreaterThan(0); // the recorder sees the app's statements
    // Before issue 12's changes: add 6 (+ lead 3 in a transaction), place 12, pay 11 (+ the mail's own transaction).
    // Then: add 4, lead 1, place 7 (+ begin, commit), pay 5 (+ begin, commit).
    expect(add.length).toBeLessThanOrEqual(2); // session, then product check + line write + the lead's job + the cart read back
    expect(add.at(-1)).toMatch(/insert into "jobs"/); // the lead's job is written by the line's own statement
    expect(lead.length).toBeLessThanOrEqual(1); // one upsert, no transaction
    expect(place.length).toBeLessThanOrEqual(3); // session, then in one transaction: customer lock + address + cart, then double submit + stock + order + lines
    expect(pay.length).toBeLessThanOrEqual(3); // session, order, then mark paid + empty cart + the confirmation mail (no transaction: no supplier line)
  });

  it('answers placing and paying with the order exactly as a later read shows it', async () => {
    const u = await createUser(t, { name: 'Reader' });
    const a = await createProduct(t, { price: 19.99, isOnSale: true, saleDiscount: 15, countInStock: 9 });
    const b = await createProduct(t, { price: 5.5, countInStock: 9 });
    const c = await createProduct(t, { price: 3, countInStock: 9 });
    // Cart order (not product id order) is the order of the lines.
    await addToCart(t, u, c.id, 1);
    await addToCart(t, u, a.id, 2);
    await addToCart(t, u, b.id, 3);
    const address = await createAddressFor(t, u, sampleAddress(4));
    const placed = await call<Order>(t, u, 'POST', '/api/orders', { addressId: address._id, paymentMethod: 'PayPal' });
    expect(placed.status).toBe(201);
    expect(placed.body.orderItems.map((i) => i.product)).toEqual([c.id, a.id, b.id]);
    // The one-order read adds the order's refunds and timeline (not part of these answers).
    const read = async () => {
      const { refunds: _r, events: _e, ...order } = (await call<Order>(t, u, 'GET', `/api/orders/${placed.body._id}`)).body;
      return order;
    };
    expect(placed.body).toEqual(await read());

    const paid = await call<OrderActionResponse>(t, u, 'PUT', `/api/orders/${placed.body._id}/pay`, { demo: true });
    expect(paid.status).toBe(200);
    expect(paid.body.order).toEqual(await read());
    const again = await call<OrderActionResponse>(t, u, 'PUT', `/api/orders/${placed.body._id}/pay`, { demo: true });
    expect(again.body).toEqual({ message: 'Order is paid', order: paid.body.order });
  });

  it('refuses a demo payment once the order is past its expiry, even before the sweep released it', async () => {
    const u = await createUser(t);
    const p = await createProduct(t, { countInStock: 5 });
    const order = await placeOrderFor(t, u, [{ productId: p.id, quantity: 2 }]);
    await t.database.db.update(orders).set({ expiresAt: new Date(Date.now() - 1_000) }).where(eq(orders.id, order._id));
    expect(await call(t, u, 'PUT', `/api/orders/${order._id}/pay`, { demo: true }))
      .toEqual({ status: 400, body: { message: 'This order has expired. Please place a new order.', code: 'ORDER_EXPIRED' } });
    const [row] = await t.database.db.select().from(orders).where(eq(orders.id, order._id));
    expect(row).toMatchObject({ isPaid: false, paymentId: null });
    expect(await stockOf(t, p.id)).toBe(3); // still reserved, until the sweep releases it
  });

  it('sends small cart and order answers uncompressed, and still compresses a large cart', async () => {
    const u = await createUser(t);
    const gzip = { cookie: u.cookie, 'accept-encoding': 'gzip, deflate' };
    // Three lines: every answer below is over the plugin's default threshold (1 KB), under 4 KB.
    await addToCart(t, u, (await createProduct(t)).id, 1);
    await addToCart(t, u, (await createProduct(t)).id, 1);
    const third = await createProduct(t);
    const small = await t.app.inject({ method: 'POST', url: '/api/cart/items', headers: gzip, payload: { productId: third.id, quantity: 1 } });
    expect(small.statusCode).toBe(200);
    expect(small.rawPayload.length).toBeGreaterThan(1024);
    expect(small.headers['content-encoding']).toBeUndefined();
    expect(Number(small.headers['content-length'])).toBe(small.rawPayload.length);
    const placed = await t.app.inject({ method: 'POST', url: '/api/orders', headers: gzip, payload: { shippingAddress: sampleAddress() } });
    expect(placed.statusCode).toBe(201);
    expect(placed.headers['content-encoding']).toBeUndefined();
    expect(placed.rawPayload.length).toBeGreaterThan(1024);
    const paid = await t.app.inject({ method: 'PUT', url: `/api/orders/${placed.json<Order>()._id}/pay`, headers: gzip, payload: { demo: true } });
    expect(paid.headers['content-encoding']).toBeUndefined();
    expect(paid.rawPayload.length).toBeGreaterThan(1024);

    for (let i = 0; i < 8; i += 1) await addToCart(t, u, (await createProduct(t)).id, 1);
    const large = await t.app.inject({ method: 'GET', url: '/api/cart', headers: gzip });
    expect(large.headers['content-encoding']).toBe('gzip');
  });
});
