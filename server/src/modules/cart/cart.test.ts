import { CART_MAX_LINES, type Cart } from '@shop/contracts';
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cartItems, jobs, leads, products } from '../../db/schema.ts';
import { LEAD_ACTIVITY_JOB } from '../leads/index.ts';
import { addToCart, call, createProduct } from '../../test/commerce-factories.ts';
import { createAdmin, createTestApp, createUser, type TestApp, type TestUser } from '../../test/test-app.ts';

describe('cart API', () => {
  let t: TestApp;
  let alice: TestUser;
  let bob: TestUser;
  beforeAll(async () => {
    t = await createTestApp();
    alice = await createUser(t);
    bob = await createUser(t);
  });
  afterAll(async () => { await t.close(); });
  /** The lead jobs queued for a shopper, oldest first. */
  const leadJobsOf = async (userId: string) => (await t.database.db.select().from(jobs)
    .where(and(eq(jobs.kind, LEAD_ACTIVITY_JOB), sql`${jobs.payload}->>'userId' = ${userId}`)).orderBy(jobs.createdAt, jobs.id));

  it('requires a signed-in user on every cart route', async () => {
    for (const [method, url] of [
      ['GET', '/api/cart'], ['POST', '/api/cart/items'], ['PUT', '/api/cart/items/aaaaaaaaaaaaaaaaaaaaaaaa'],
      ['DELETE', '/api/cart/items/aaaaaaaaaaaaaaaaaaaaaaaa'], ['DELETE', '/api/cart'], ['POST', '/api/cart/merge'],
    ] as const) {
      const res = await call(t, null, method, url, method === 'GET' || method === 'DELETE' ? undefined : {});
      expect(res.status, `${method} ${url}`).toBe(401);
    }
  });

  it('starts empty', async () => {
    const u = await createUser(t);
    expect(await call(t, u, 'GET', '/api/cart')).toEqual({ status: 200, body: { cartItems: [] } });
  });

  it('adds an item and answers the whole cart with live prices, sale discount and stock', async () => {
    const u = await createUser(t);
    const p = await createProduct(t, { price: 80, isOnSale: true, saleDiscount: 25, countInStock: 7, isGift: true });
    const cart = await addToCart(t, u, p.id, 2);
    expect(cart.notices).toBeUndefined();
    expect(cart.cartItems).toHaveLength(1);
    const item = cart.cartItems[0]!;
    expect(item).toMatchObject({
      _id: p.id, name: p.name, slug: p.slug, image: p.image, price: 60, countInStock: 7, quantity: 2,
      isOnSale: true, saleDiscount: 25, isTodaysDeal: false, isGift: true, cjData: null,
    });
    expect(item.product).toMatchObject({ _id: p.id, price: 80, finalPrice: 60, countInStock: 7, category: 'Testing' });

    // The price follows the product.
    await t.database.db.update(products).set({ price: 100 }).where(eq(products.id, p.id));
    const again = await call<Cart>(t, u, 'GET', '/api/cart');
    expect(again.body.cartItems[0]!.price).toBe(75);
  });

  it("adding to the cart raises the shopper's lead: the product becomes a product of interest, interest high; an administrator's status and notes stay", async () => {
    const u = await createUser(t);
    const leadOf = async () => (await t.database.db.select().from(leads).where(eq(leads.userId, u.id)))[0];
    // The shopper chatted before (a lead with low interest), and an administrator worked on it.
    const first = await createProduct(t, { countInStock: 5 });
    await t.database.db.insert(leads).values({
      id: 'aaaaaaaaaaaaaaaaaaaaaaab', userId: u.id, userName: u.name, userEmail: u.email, interestLevel: 'low',
      productsOfInterest: [{ productId: first.id, name: first.name }], status: 'contacted', notes: 'Asked about sizes', lastInteraction: new Date(Date.now() - 86_400_000),
    }).onConflictDoNothing();
    const before = await leadOf();
    expect(before?.interestLevel).toBe('low');
    const p = await createProduct(t, { countInStock: 5 });
    await addToCart(t, u, p.id, 1);
    await t.app.ctx.jobs.runDue(); // the lead update is a job
    const after = (await leadOf())!;
    expect(after.interestLevel).toBe('high');
    expect(after.productsOfInterest.map((x) => x.productId)).toEqual([p.id, first.id]);
    expect(after.status).toBe('contacted');
    expect(after.notes).toBe('Asked about sizes');
    expect(after.lastInteraction.getTime()).toBeGreaterThan(before!.lastInteraction.getTime());
    // A shopper with no lead yet gets one on the first item carted; a refused add changes nothing.
    const v = await createUser(t);
    expect((await call(t, v, 'POST', '/api/cart/items', { productId: p.id, quantity: 99 })).status).toBe(400);
    await t.app.ctx.jobs.runDue();
    expect(await t.database.db.select().from(leads).where(eq(leads.userId, v.id))).toHaveLength(0);
    expect(await leadJobsOf(v.id)).toEqual([]);
    await addToCart(t, v, p.id, 1);
    await t.app.ctx.jobs.runDue();
    const created = (await t.database.db.select().from(leads).where(eq(leads.userId, v.id)))[0]!;
    expect(created).toMatchObject({ interestLevel: 'high', productsOfInterest: [{ productId: p.id, name: p.name }], status: 'new' });
  });

  it('the lead update of an add-to-cart is a job written with the line: one per cart change, none for an administrator', async () => {
    const u = await createUser(t, { name: 'Jo Jobs' });
    const p = await createProduct(t, { countInStock: 5 });
    await addToCart(t, u, p.id, 1);
    // Written by the add itself (the job exists as soon as the line does), not yet run.
    const [job] = await leadJobsOf(u.id);
    expect(job).toMatchObject({
      status: 'pending', attempts: 0,
      payload: { userId: u.id, userName: 'Jo Jobs', userEmail: u.email, interestSignal: 'high', productsOfInterest: [{ productId: p.id, name: p.name }] },
    });
    const [line] = await t.database.db.select().from(cartItems).where(eq(cartItems.userId, u.id));
    expect(job!.payload.at).toBe(line!.updatedAt.toISOString());
    expect(job!.dedupeKey).toBe(`cart:${u.id}:${p.id}:${line!.updatedAt.toISOString()}`);
    expect(await t.database.db.select().from(leads).where(eq(leads.userId, u.id))).toHaveLength(0);
    await t.app.ctx.jobs.runDue();
    expect((await leadJobsOf(u.id)).map((j) => j.status)).toEqual(['done']);
    expect((await t.database.db.select().from(leads).where(eq(leads.userId, u.id)))[0]).toMatchObject({
      userName: 'Jo Jobs', interestLevel: 'high', productsOfInterest: [{ productId: p.id, name: p.name }], lastInteraction: line!.updatedAt,
    });
    // Each add is a change of the cart: a job each (the same product again moves it to the front again).
    const q = await createProduct(t, { countInStock: 5 });
    await addToCart(t, u, q.id, 1);
    await addToCart(t, u, p.id, 2);
    expect(await leadJobsOf(u.id)).toHaveLength(3);
    await t.app.ctx.jobs.runDue();
    expect((await t.database.db.select().from(leads).where(eq(leads.userId, u.id)))[0]!.productsOfInterest.map((x) => x.productId)).toEqual([p.id, q.id]);
    // An administrator's cart is not a lead.
    const admin = await createAdmin(t);
    await addToCart(t, admin, p.id, 1);
    expect(await leadJobsOf(admin.id)).toEqual([]);
  });

  it('a lead update the database refuses is retried by the job runner until the lead is updated', async () => {
    const u = await createUser(t, { name: 'Rita Retry' });
    const p = await createProduct(t, { countInStock: 5 });
    // The database refuses every write to leads for a while (as during an outage, or a lock timeout).
    await t.database.db.execute(sql.raw("create function refuse_lead_writes() returns trigger language plpgsql as $$ begin raise exception 'leads are unavailable'; end $$"));
    await t.database.db.execute(sql.raw('create trigger refuse_lead_writes before insert or update on leads for each row execute function refuse_lead_writes()'));
    try {
      await addToCart(t, u, p.id, 1); // the add itself is not held up
      expect(await t.app.ctx.jobs.runDue()).toBe(1);
      const [failed] = await leadJobsOf(u.id);
      expect(failed).toMatchObject({ status: 'pending', attempts: 1, lastError: 'Unexpected error (see the server log)' });
      expect(failed!.runAt.getTime()).toBeGreaterThan(Date.now()); // retried after a backoff
      expect(await t.database.db.select().from(leads).where(eq(leads.userId, u.id))).toHaveLength(0);
    } finally {
      await t.database.db.execute(sql.raw('drop trigger refuse_lead_writes on leads'));
      await t.database.db.execute(sql.raw('drop function refuse_lead_writes()'));
    }
    // The backoff has passed: the next attempt records the lead.
    await t.database.db.update(jobs).set({ runAt: new Date(Date.now() - 1000) }).where(and(eq(jobs.kind, LEAD_ACTIVITY_JOB), eq(jobs.status, 'pending')));
    expect(await t.app.ctx.jobs.runDue()).toBe(1);
    expect(await leadJobsOf(u.id)).toMatchObject([{ status: 'done', attempts: 2 }]);
    expect((await t.database.db.select().from(leads).where(eq(leads.userId, u.id)))[0]).toMatchObject({
      userName: 'Rita Retry', interestLevel: 'high', productsOfInterest: [{ productId: p.id, name: p.name }],
    });
  });

  it('POST with an existing product replaces its quantity (add from product page sends existing+1)', async () => {
    const u = await createUser(t);
    const p = await createProduct(t, { countInStock: 5 });
    await addToCart(t, u, p.id, 1);
    const cart = await addToCart(t, u, p.id, 2);
    expect(cart.cartItems.map((i) => [i._id, i.quantity])).toEqual([[p.id, 2]]);
  });

  it("refuses a quantity above stock with 'Sorry. Product is out of stock'", async () => {
    const p = await createProduct(t, { countInStock: 3 });
    const add = await call(t, alice, 'POST', '/api/cart/items', { productId: p.id, quantity: 4 });
    expect(add).toEqual({ status: 400, body: { message: 'Sorry. Product is out of stock', code: 'OUT_OF_STOCK' } });
    await addToCart(t, alice, p.id, 3);
    const put = await call(t, alice, 'PUT', `/api/cart/items/${p.id}`, { quantity: 4 });
    expect(put.status).toBe(400);
    expect(put.body).toMatchObject({ message: 'Sorry. Product is out of stock' });
    const zero = await createProduct(t, { countInStock: 0 });
    expect((await call(t, alice, 'POST', '/api/cart/items', { productId: zero.id, quantity: 1 })).body)
      .toMatchObject({ message: 'Sorry. Product is out of stock' });
  });

  it(`holds at most ${CART_MAX_LINES} products: a new one is refused, a line already in the cart still changes, in cart order`, async () => {
    const u = await createUser(t);
    const held = [];
    for (let i = 0; i < CART_MAX_LINES; i += 1) held.push(await createProduct(t, { countInStock: 5 }));
    const start = Date.now() - 60_000;
    await t.database.db.insert(cartItems).values(held.map((p, i) => ({
      userId: u.id, productId: p.id, quantity: 1, name: p.name, createdAt: new Date(start + i * 10), updatedAt: new Date(start + i * 10),
    })));
    const extra = await createProduct(t, { countInStock: 5 });
    expect(await call(t, u, 'POST', '/api/cart/items', { productId: extra.id, quantity: 1 }))
      .toEqual({ status: 400, body: { message: `A cart holds at most ${CART_MAX_LINES} products`, code: 'BAD_REQUEST' } });
    const changed = await call<Cart>(t, u, 'POST', '/api/cart/items', { productId: held[3]!.id, quantity: 4 });
    expect(changed.status).toBe(200);
    expect(changed.body.cartItems.map((i) => i._id)).toEqual(held.map((p) => p.id));
    expect(changed.body.cartItems[3]).toMatchObject({ _id: held[3]!.id, quantity: 4, countInStock: 5 });
    expect((await call<Cart>(t, u, 'GET', '/api/cart')).body).toEqual(changed.body);
  });

  it("answers 404 'Product not found' for unknown, malformed and draft products", async () => {
    const draft = await createProduct(t, { isDraft: true });
    for (const productId of ['aaaaaaaaaaaaaaaaaaaaaaaa', 'not-an-id', draft.id]) {
      const res = await call(t, alice, 'POST', '/api/cart/items', { productId, quantity: 1 });
      expect(res.status).toBe(404);
      expect(res.body).toMatchObject({ message: 'Product not found' });
    }
  });

  it('validates the body', async () => {
    const p = await createProduct(t);
    expect((await call(t, alice, 'POST', '/api/cart/items', { quantity: 1 })).body).toMatchObject({ message: 'Product ID is required' });
    expect((await call(t, alice, 'POST', '/api/cart/items', { productId: p.id, quantity: 0 })).body)
      .toMatchObject({ message: 'Quantity must be at least 1' });
    expect((await call(t, alice, 'POST', '/api/cart/items', { productId: p.id, quantity: 1.5 })).status).toBe(400);
    expect((await call(t, alice, 'PUT', `/api/cart/items/${p.id}`, {})).status).toBe(400);
  });

  it("answers 'Product ID is required to remove item from cart' without a product id", async () => {
    for (const [method, url] of [['DELETE', '/api/cart/items'], ['DELETE', '/api/cart/items/'], ['PUT', '/api/cart/items'], ['DELETE', '/api/cart/items/%20']] as const) {
      const res = await call(t, alice, method, url, method === 'PUT' ? { quantity: 1 } : undefined);
      expect(res, `${method} ${url}`).toEqual({
        status: 400, body: { message: 'Product ID is required to remove item from cart', code: 'BAD_REQUEST' },
      });
    }
  });

  it('updates a line with PUT, and PUT on a line not in the cart answers 404', async () => {
    const u = await createUser(t);
    const p = await createProduct(t, { countInStock: 9 });
    const other = await createProduct(t);
    await addToCart(t, u, p.id, 1);
    const put = await call<Cart>(t, u, 'PUT', `/api/cart/items/${p.id}`, { quantity: 9 });
    expect(put.status).toBe(200);
    expect(put.body.cartItems[0]!.quantity).toBe(9);
    expect(await call(t, u, 'PUT', `/api/cart/items/${other.id}`, { quantity: 1 }))
      .toEqual({ status: 404, body: { message: 'Item not found in cart', code: 'NOT_FOUND' } });
  });

  it('removes one line and clears the cart', async () => {
    const u = await createUser(t);
    const a = await createProduct(t);
    const b = await createProduct(t);
    await addToCart(t, u, a.id, 1);
    await addToCart(t, u, b.id, 2);
    const del = await call<Cart>(t, u, 'DELETE', `/api/cart/items/${a.id}`);
    expect(del.status).toBe(200);
    expect(del.body.cartItems.map((i) => i._id)).toEqual([b.id]);
    // Removing a line that is not there is harmless.
    expect((await call<Cart>(t, u, 'DELETE', `/api/cart/items/${a.id}`)).body.cartItems).toHaveLength(1);
    expect(await call(t, u, 'DELETE', '/api/cart')).toEqual({ status: 200, body: { cartItems: [] } });
  });

  it('drops a deleted product from the cart with a notice, once', async () => {
    const u = await createUser(t);
    const keep = await createProduct(t);
    const gone = await createProduct(t, { name: 'Vanishing Lamp' });
    await addToCart(t, u, keep.id, 1);
    await addToCart(t, u, gone.id, 1);
    await t.database.db.delete(products).where(eq(products.id, gone.id));
    const first = await call<Cart>(t, u, 'GET', '/api/cart');
    expect(first.status).toBe(200);
    expect(first.body.cartItems.map((i) => i._id)).toEqual([keep.id]);
    expect(first.body.notices).toEqual(["'Vanishing Lamp' is no longer available and was removed from your cart"]);
    const second = await call<Cart>(t, u, 'GET', '/api/cart');
    expect(second.body).toEqual({ cartItems: first.body.cartItems });
  });

  it('lowers a quantity to the stock left, with a notice', async () => {
    const u = await createUser(t);
    const p = await createProduct(t, { name: 'Scarce Mug', countInStock: 5 });
    await addToCart(t, u, p.id, 5);
    await t.database.db.update(products).set({ countInStock: 2 }).where(eq(products.id, p.id));
    const res = await call<Cart>(t, u, 'GET', '/api/cart');
    expect(res.body.cartItems[0]).toMatchObject({ quantity: 2, countInStock: 2 });
    expect(res.body.notices).toEqual(["Only 2 of 'Scarce Mug' left in stock: quantity changed to 2"]);
  });

  it('keeps each cart to its owner: another customer cannot see or change it', async () => {
    const p = await createProduct(t);
    await addToCart(t, bob, p.id, 1);
    const aliceCart = await call<Cart>(t, alice, 'GET', '/api/cart');
    expect(aliceCart.body.cartItems.some((i) => i._id === p.id)).toBe(false);
    // Alice's delete acts on her own cart only.
    await call(t, alice, 'DELETE', `/api/cart/items/${p.id}`);
    await call(t, alice, 'DELETE', '/api/cart');
    const bobCart = await call<Cart>(t, bob, 'GET', '/api/cart');
    expect(bobCart.body.cartItems.map((i) => i._id)).toContain(p.id);
    // PUT on a line only Bob has answers 404 to Alice.
    expect((await call(t, alice, 'PUT', `/api/cart/items/${p.id}`, { quantity: 1 })).status).toBe(404);
  });

  describe('merge on sign-in', () => {
    it('adds guest quantities to the server cart, capped at stock, with notices', async () => {
      const u = await createUser(t);
      const both = await createProduct(t, { name: 'Shared Pen', countInStock: 4 });
      const fresh = await createProduct(t, { name: 'Fresh Pad', countInStock: 10 });
      const capped = await createProduct(t, { name: 'Rare Ink', countInStock: 2 });
      const none = await createProduct(t, { name: 'Sold Out Clip', countInStock: 0 });
      const deleted = await createProduct(t);
      await t.database.db.delete(products).where(eq(products.id, deleted.id));
      await addToCart(t, u, both.id, 1);

      const res = await call<Cart>(t, u, 'POST', '/api/cart/merge', {
        items: [
          { productId: both.id, quantity: 2 },
          { productId: fresh.id, quantity: 3 },
          { productId: capped.id, quantity: 5 },
          { productId: none.id, quantity: 1 },
          { productId: deleted.id, quantity: 1 },
        ],
      });
      expect(res.status).toBe(200);
      expect(Object.fromEntries(res.body.cartItems.map((i) => [i._id, i.quantity]))).toEqual({
        [both.id]: 3, [fresh.id]: 3, [capped.id]: 2,
      });
      expect(res.body.notices).toEqual([
        "Only 2 of 'Rare Ink' in stock: quantity set to 2",
        "'Sold Out Clip' is out of stock and was not added to your cart",
        'A product in your saved cart is no longer available and was not added',
      ]);
    });

    it('caps the sum of server and guest quantities at stock', async () => {
      const u = await createUser(t);
      const p = await createProduct(t, { name: 'Tight Hat', countInStock: 3 });
      await addToCart(t, u, p.id, 2);
      const res = await call<Cart>(t, u, 'POST', '/api/cart/merge', { items: [{ productId: p.id, quantity: 2 }] });
      expect(res.body.cartItems[0]!.quantity).toBe(3);
      expect(res.body.notices).toEqual(["Only 3 of 'Tight Hat' in stock: quantity set to 3"]);
    });

    it('merging nothing answers the cart unchanged', async () => {
      const u = await createUser(t);
      const p = await createProduct(t);
      await addToCart(t, u, p.id, 1);
      const res = await call<Cart>(t, u, 'POST', '/api/cart/merge', { items: [] });
      expect(res).toMatchObject({ status: 200, body: { cartItems: [{ _id: p.id, quantity: 1 }] } });
      expect(res.body.notices).toBeUndefined();
    });
  });
});
