import type { Cart, Discount, DiscountListResponse, DiscountMessageResponse, Order, OrderResponse, OrderSummary, RefundResponse } from '@shop/contracts';
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { discountUses, outbox, products, productVariants } from '../../db/schema.ts';
import { openMail } from '../../lib/mailer.ts';
import { newId } from '../../lib/ids.ts';
import { addToCart, call, createProduct, sampleAddress, stockOf } from '../../test/commerce-factories.ts';
import { createAdmin, createTestApp, createUser, TEST_DB, type TestApp, type TestUser } from '../../test/test-app.ts';
import { placeOrder } from '../orders/place-order.ts';
import { expireUnpaidOrders } from '../orders/release-stock.ts';

const M = {
  unknown: 'This discount code is not valid',
  notStarted: 'This discount code is not active yet',
  expired: 'This discount code has expired',
  usedUp: 'This discount code has been used up',
  usedByYou: 'You have already used this discount code',
  notApplicable: 'This discount code does not apply to the items in your cart',
};
const refused = (message: string) => ({ status: 400, body: { message, code: 'DISCOUNT_REFUSED', fieldErrors: { discountCode: message } } });
const later = () => new Date(Date.now() + 31 * 60_000);
let codeCounter = 0;
const freshCode = (prefix = 'SAVE') => `${prefix}${Date.now().toString(36).toUpperCase()}${(codeCounter += 1)}`;

describe(`discount codes on ${TEST_DB}`, () => {
  let t: TestApp;
  let admin: TestUser;
  beforeAll(async () => {
    t = await createTestApp();
    admin = await createAdmin(t);
  });
  afterAll(async () => { await t.close(); });

  async function createDiscount(body: Record<string, unknown>): Promise<Discount> {
    const res = await call<DiscountMessageResponse>(t, admin, 'POST', '/api/discounts', { code: freshCode(), kind: 'percent', value: 10, ...body });
    if (res.status !== 201) throw new Error(`create discount: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body.discount;
  }
  const order = (user: TestUser, discountCode?: string, address = sampleAddress()) =>
    call<Order>(t, user, 'POST', '/api/orders', { shippingAddress: address, paymentMethod: 'PayPal', ...(discountCode === undefined ? {} : { discountCode }) });
  const applyCode = (user: TestUser, code: string) => call<Cart>(t, user, 'POST', '/api/cart/discount', { code });
  const usesOf = async (discountId: string) =>
    (await t.database.db.select({ n: sql<number>`count(*)::int` }).from(discountUses).where(eq(discountUses.discountId, discountId)))[0]!.n;

  describe('back office', () => {
    it('creates, lists (paged, searched), reads, changes and deletes a code; codes are unique in any case', async () => {
      const code = freshCode('ADMIN');
      const created = await call<DiscountMessageResponse>(t, admin, 'POST', '/api/discounts', {
        code: code.toLowerCase(), kind: 'fixed', value: '5.50', minSubtotal: '20', usageLimit: 10, perCustomerLimit: '1',
        startsAt: '2026-01-01T00:00:00Z', endsAt: '2099-01-01', categories: ['Kitchen'],
      });
      expect(created.status).toBe(201);
      expect(created.body.message).toBe('Discount created');
      expect(created.body.discount).toMatchObject({
        code, kind: 'fixed', value: 5.5, minSubtotal: 20, usageLimit: 10, perCustomerLimit: 1, categories: ['Kitchen'], productIds: [],
        enabled: true, allowBelowSupplierCost: false, timesUsed: 0, startsAt: '2026-01-01T00:00:00.000Z', endsAt: '2099-01-01T00:00:00.000Z',
      });
      const id = created.body.discount._id;
      expect(await call(t, admin, 'POST', '/api/discounts', { code: code.toLowerCase(), kind: 'percent', value: 5 })).toEqual({
        status: 409, body: { message: 'A discount with this code already exists', code: 'DISCOUNT_CODE_TAKEN', fieldErrors: { code: 'A discount with this code already exists' } },
      });

      const found = await call<DiscountListResponse>(t, admin, 'GET', `/api/discounts?search=${code.slice(2, 9).toLowerCase()}&pageSize=1`);
      expect(found.status).toBe(200);
      expect(found.body).toMatchObject({ page: 1, pages: 1, countDiscounts: 1 });
      expect(found.body.discounts.map((d) => d._id)).toEqual([id]);
      expect((await call<Discount>(t, admin, 'GET', `/api/discounts/${id}`)).body.code).toBe(code);

      const changed = await call<DiscountMessageResponse>(t, admin, 'PUT', `/api/discounts/${id}`, { code, kind: 'percent', value: 15, enabled: false });
      expect(changed.status).toBe(200);
      expect(changed.body).toMatchObject({ message: 'Discount updated', discount: { kind: 'percent', value: 15, enabled: false, minSubtotal: null, categories: [] } });

      expect(await call(t, admin, 'DELETE', `/api/discounts/${id}`)).toEqual({ status: 200, body: { message: 'Discount deleted' } });
      expect(await call(t, admin, 'GET', `/api/discounts/${id}`)).toEqual({ status: 404, body: { message: 'Discount not found', code: 'NOT_FOUND' } });
      expect((await call(t, admin, 'DELETE', `/api/discounts/${id}`)).status).toBe(404);
      expect((await call(t, admin, 'GET', '/api/discounts/not-an-id')).status).toBe(404);
    });

    it.each([
      [{ kind: 'percent', value: 150 }, 'A percentage must be a whole number from 1 to 100'],
      [{ kind: 'percent', value: 12.5 }, 'A percentage must be a whole number from 1 to 100'],
      [{ kind: 'fixed', value: 0 }, 'A fixed amount must be between 0.01 and 100000'],
      [{ kind: 'fixed', value: '5.555' }, 'Value must have at most 2 decimal places'],
      [{ kind: 'bogus', value: 5 }, 'Kind must be one of percent, fixed, free_shipping'],
      [{ kind: 'percent', value: 5, code: 'NO SPACES' }, 'Code may contain only letters, digits, - and _'],
      [{ kind: 'percent', value: 5, code: '' }, 'Please enter a discount code'],
      [{ kind: 'percent', value: 5, startsAt: '2026-05-02', endsAt: '2026-05-01' }, 'End date must be after the start date'],
      [{ kind: 'percent', value: 5, endsAt: '2026-02-31' }, 'End date must be a real calendar date'],
      [{ kind: 'percent', value: 5, usageLimit: 0 }, 'Usage limit must be between 1 and 1000000'],
      [{ kind: 'percent', value: 5, perCustomerLimit: '1.5' }, 'Per-customer limit must be a whole number written like 1'],
      [{ kind: 'percent', value: 5, productIds: ['nope'] }, "Invalid body field 'productIds.0': Invalid id"],
    ])('refuses %j with 400 "%s" and writes nothing', async (body, message) => {
      const before = (await call<DiscountListResponse>(t, admin, 'GET', '/api/discounts')).body.countDiscounts;
      const res = await call<{ message: string }>(t, admin, 'POST', '/api/discounts', { code: freshCode('BAD'), ...body });
      expect(res.status).toBe(400);
      expect(res.body.message).toBe(message);
      expect((await call<DiscountListResponse>(t, admin, 'GET', '/api/discounts')).body.countDiscounts).toBe(before);
    });
  });

  describe('in the cart', () => {
    it('applies a code (any case), recomputes it on every cart answer, and removes it', async () => {
      const u = await createUser(t);
      const p = await createProduct(t, { price: 12.5, countInStock: 10 });
      const d = await createDiscount({ kind: 'percent', value: 10, minSubtotal: 20 });
      await addToCart(t, u, p.id, 2);
      const applied = await applyCode(u, ` ${d.code.toLowerCase()} `);
      expect(applied.status).toBe(200);
      expect(applied.body.discount).toEqual({ code: d.code, amount: 2.5, message: 'Discount applied: 10% off', isValid: true, kind: 'percent' });
      // A later answer judges it again: below the minimum now, kept but not valid.
      const lowered = await call<Cart>(t, u, 'PUT', `/api/cart/items/${p.id}`, { quantity: 1 });
      expect(lowered.body.discount).toEqual({ code: d.code, amount: 0, message: 'Spend at least $20.00 to use this discount code', isValid: false, kind: 'percent' });
      expect((await call<Cart>(t, u, 'GET', '/api/cart')).body.discount?.isValid).toBe(false);
      const back = await call<Cart>(t, u, 'PUT', `/api/cart/items/${p.id}`, { quantity: 3 });
      expect(back.body.discount).toMatchObject({ amount: 3.75, isValid: true });
      const removed = await call<Cart>(t, u, 'DELETE', '/api/cart/discount');
      expect(removed.status).toBe(200);
      expect(removed.body.discount).toBeUndefined();
    });

    it('a code switched off or deleted after it was applied reads as not valid in the cart and is refused at checkout', async () => {
      const u = await createUser(t);
      const p = await createProduct(t, { price: 10, countInStock: 10 });
      const d = await createDiscount({ kind: 'fixed', value: 2 });
      await addToCart(t, u, p.id, 1);
      expect((await applyCode(u, d.code)).body.discount).toMatchObject({ amount: 2, isValid: true });
      await call(t, admin, 'PUT', `/api/discounts/${d._id}`, { code: d.code, kind: 'fixed', value: 2, enabled: false });
      expect((await call<Cart>(t, u, 'GET', '/api/cart')).body.discount).toEqual({ code: d.code, amount: 0, message: M.unknown, isValid: false, kind: 'fixed' });
      expect(await order(u, d.code)).toEqual(refused(M.unknown));
      await call(t, admin, 'DELETE', `/api/discounts/${d._id}`);
      expect((await call<Cart>(t, u, 'GET', '/api/cart')).body.discount).toMatchObject({ code: d.code, amount: 0, message: M.unknown, isValid: false });
      expect(await stockOf(t, p.id)).toBe(10);
    });

    it('refuses each code that cannot be used, with its reason, and keeps none', async () => {
      const u = await createUser(t);
      const p = await createProduct(t, { price: 10, countInStock: 10, category: 'Garden' });
      await addToCart(t, u, p.id, 1);
      const hour = 3_600_000;
      const cases: Array<[Record<string, unknown> | null, string]> = [
        [null, M.unknown],
        [{ enabled: false }, M.unknown],
        [{ startsAt: new Date(Date.now() + hour).toISOString() }, M.notStarted],
        [{ startsAt: new Date(Date.now() - 2 * hour).toISOString(), endsAt: new Date(Date.now() - hour).toISOString() }, M.expired],
        [{ minSubtotal: 10.01 }, 'Spend at least $10.01 to use this discount code'],
        [{ categories: ['Kitchen'] }, M.notApplicable],
        [{ productIds: [newId()] }, M.notApplicable],
      ];
      for (const [body, message] of cases) {
        const code = body ? (await createDiscount(body)).code : 'NO-SUCH-CODE';
        expect(await applyCode(u, code)).toEqual(refused(message));
        expect((await call<Cart>(t, u, 'GET', '/api/cart')).body.discount).toBeUndefined();
      }
      expect(await applyCode(u, '  ')).toMatchObject({ status: 400, body: { message: 'Please enter a discount code' } });
      // The same rules at checkout, which writes nothing when refused.
      const expired = await createDiscount({ endsAt: new Date(Date.now() - hour).toISOString() });
      expect(await order(u, expired.code)).toEqual(refused(M.expired));
      expect(await order(u, 'NO-SUCH-CODE')).toEqual(refused(M.unknown));
      expect(await stockOf(t, p.id)).toBe(10);
      expect((await call<Order[]>(t, u, 'GET', '/api/orders/mine')).body).toEqual([]);
      // A category or product code applies to its own lines only.
      expect((await applyCode(u, (await createDiscount({ categories: ['garden'], kind: 'fixed', value: 3 })).code)).body.discount).toMatchObject({ amount: 3, isValid: true });
      expect((await applyCode(u, (await createDiscount({ productIds: [p.id], kind: 'fixed', value: 50 })).code)).body.discount).toMatchObject({ amount: 9.99, isValid: true });
    });
  });

  describe('at checkout', () => {
    it('the server computes the discount (the client figures are ignored): total = items - discount + shipping + tax', async () => {
      const u = await createUser(t);
      const a = await createProduct(t, { price: 20, countInStock: 10, category: 'Kitchen' });
      const b = await createProduct(t, { price: 10, countInStock: 10, category: 'Garden' });
      const d = await createDiscount({ kind: 'percent', value: 25, categories: ['Kitchen'] });
      await addToCart(t, u, a.id, 1);
      await addToCart(t, u, b.id, 1);
      const res = await call<Order>(t, u, 'POST', '/api/orders', {
        shippingAddress: sampleAddress(), paymentMethod: 'PayPal', discountCode: d.code.toLowerCase(), discountPrice: 29, totalPrice: 1, itemsPrice: 1,
      });
      expect(res.status).toBe(201);
      expect(res.body).toMatchObject({ itemsPrice: 30, discountCode: d.code, discountPrice: 5, shippingPrice: 0, taxPrice: 0, totalPrice: 25 });
      expect((await call<Order>(t, u, 'GET', `/api/orders/${res.body._id}`)).body).toMatchObject({ discountCode: d.code, discountPrice: 5, totalPrice: 25 });
      expect(await usesOf(d._id)).toBe(1);
      expect((await call<Discount>(t, admin, 'GET', `/api/discounts/${d._id}`)).body.timesUsed).toBe(1);
    });

    it('a fixed amount never makes the order free; free shipping takes off the shipping charged', async () => {
      const u = await createUser(t);
      const p = await createProduct(t, { price: 4, countInStock: 10 });
      const fixed = await createDiscount({ kind: 'fixed', value: 100 });
      await addToCart(t, u, p.id, 1);
      const res = await order(u, fixed.code);
      expect(res.body).toMatchObject({ itemsPrice: 4, discountPrice: 3.99, totalPrice: 0.01 });

      const v = await createUser(t);
      await addToCart(t, v, p.id, 2);
      const free = await createDiscount({ kind: 'free_shipping' });
      // The shop charges $4.99 an order (Admin → Shipping); the code takes it off.
      const settings = (rate: number) => ({ flatRate: rate, freeOver: null, countryRates: [], supplierFreight: 'included' });
      expect((await call(t, admin, 'PUT', '/api/shipping/settings', settings(4.99))).status).toBe(200);
      try {
        const placed = await placeOrder(t.database.db, {
          userId: v.id, expiryMinutes: 30,
          body: { shippingAddress: sampleAddress(), paymentMethod: 'PayPal', discountCode: free.code },
        });
        expect(placed.order).toMatchObject({ itemsPrice: 8, shippingPrice: 4.99, discountPrice: 4.99, totalPrice: 8, discountCode: free.code });
      } finally {
        expect((await call(t, admin, 'PUT', '/api/shipping/settings', settings(0))).status).toBe(200);
      }
    });

    it('never takes a supplier line below its supplier cost, unless the code allows it', async () => {
      const vid = `V-${newId().slice(-8)}`;
      const supplied = await createProduct(t, {
        name: 'Supplier Lamp', price: 20, countInStock: 100, supplierCost: 15, cjData: { pid: `P-${newId().slice(-8)}`, vid, variants: [{ vid }] } as never,
      });
      const variantId = newId();
      await t.database.db.insert(productVariants).values({ id: variantId, productId: supplied.id, vid, name: 'Main', supplierCost: 15, price: 20, countInStock: 100 });
      const own = await createProduct(t, { price: 10, countInStock: 10 });
      const u = await createUser(t);
      expect((await call(t, u, 'POST', '/api/cart/items', { productId: supplied.id, variantId, quantity: 2 })).status).toBe(200);
      // 50 % of a $40 supplier line would be $20; its cost is $30, so $10 at most.
      const half = await createDiscount({ kind: 'percent', value: 50 });
      expect((await applyCode(u, half.code)).body.discount).toMatchObject({ amount: 10, isValid: true });
      const fixed = await createDiscount({ kind: 'fixed', value: 25 });
      expect((await applyCode(u, fixed.code)).body.discount).toMatchObject({ amount: 10 });
      // Own lines give up their whole price (but the order is never free).
      await addToCart(t, u, own.id, 1);
      expect((await applyCode(u, fixed.code)).body.discount).toMatchObject({ amount: 20 });
      expect((await applyCode(u, half.code)).body.discount).toMatchObject({ amount: 15 });
      const allowed = await createDiscount({ kind: 'percent', value: 50, allowBelowSupplierCost: true });
      expect((await applyCode(u, allowed.code)).body.discount).toMatchObject({ amount: 25 });
      const res = await order(u, half.code);
      expect(res.status).toBe(201);
      expect(res.body).toMatchObject({ itemsPrice: 50, discountPrice: 15 });
      // Supplier lines pay the supplier's freight: the total is items - discount + shipping + tax.
      expect(Math.round(res.body.totalPrice * 100)).toBe(3500 + Math.round((res.body.shippingPrice + res.body.taxPrice) * 100));
    });

    it('works the discount out on the prices at checkout, not those the cart showed', async () => {
      const u = await createUser(t);
      const p = await createProduct(t, { price: 10, countInStock: 10 });
      const d = await createDiscount({ kind: 'percent', value: 10 });
      await addToCart(t, u, p.id, 1);
      expect((await applyCode(u, d.code)).body.discount).toMatchObject({ amount: 1 });
      await t.database.db.update(products).set({ price: 11 }).where(eq(products.id, p.id));
      const res = await order(u, d.code);
      expect(res.body).toMatchObject({ itemsPrice: 11, discountPrice: 1.1, totalPrice: 9.9 });
    });
  });

  describe('limits', () => {
    it('20 simultaneous orders on a code limited to 5: exactly 5 are placed, the others are told it is used up', async () => {
      const p = await createProduct(t, { price: 10, countInStock: 100 });
      const d = await createDiscount({ kind: 'fixed', value: 2, usageLimit: 5 });
      const shoppers = await Promise.all(Array.from({ length: 20 }, () => createUser(t)));
      for (const s of shoppers) await addToCart(t, s, p.id, 1);
      const answers = await Promise.all(shoppers.map((s) => order(s, d.code)));
      const placed = answers.filter((a) => a.status === 201);
      expect(placed).toHaveLength(5);
      for (const a of placed) expect(a.body).toMatchObject({ discountCode: d.code, discountPrice: 2, totalPrice: 8 });
      const others = answers.filter((a) => a.status !== 201);
      expect(others).toHaveLength(15);
      for (const a of others) expect(a).toEqual(refused(M.usedUp));
      expect(await usesOf(d._id)).toBe(5);
      expect(await stockOf(t, p.id)).toBe(95);
    });

    it('a per-customer limit: the same customer is told they used it, another customer is not', async () => {
      const p = await createProduct(t, { price: 10, countInStock: 100 });
      const d = await createDiscount({ kind: 'percent', value: 10, perCustomerLimit: 1 });
      const u = await createUser(t);
      await addToCart(t, u, p.id, 1);
      expect((await order(u, d.code)).status).toBe(201);
      expect(await applyCode(u, d.code)).toEqual(refused(M.usedByYou));
      expect(await order(u, d.code, sampleAddress(2))).toEqual(refused(M.usedByYou));
      // Simultaneous orders from one customer: one use only.
      const w = await createUser(t);
      await addToCart(t, w, p.id, 1);
      const answers = await Promise.all([1, 2, 3, 4].map((n) => order(w, d.code, sampleAddress(n + 10))));
      expect(answers.filter((a) => a.status === 201)).toHaveLength(1);
      expect(answers.filter((a) => a.status === 400).map((a) => a.body)).toEqual(Array(3).fill(refused(M.usedByYou).body));
      expect(await usesOf(d._id)).toBe(2);
    });

    it('a double submit of an order that used the code is answered the first order, not "already used"', async () => {
      const p = await createProduct(t, { price: 10, countInStock: 100 });
      const d = await createDiscount({ kind: 'fixed', value: 1, perCustomerLimit: 1, usageLimit: 1 });
      const u = await createUser(t);
      await addToCart(t, u, p.id, 2);
      const [first, second] = await Promise.all([order(u, d.code), order(u, d.code)]);
      expect([first.status, second.status].sort()).toEqual([200, 201]); // the repeat answers the order already placed
      expect(second.body._id).toBe(first.body._id);
      expect(second.body).toMatchObject({ discountCode: d.code, discountPrice: 1, totalPrice: 19 });
      expect(await usesOf(d._id)).toBe(1);
      expect(await stockOf(t, p.id)).toBe(98);
      // Another address is another order: the code is used.
      expect(await order(u, d.code, sampleAddress(5))).toEqual(refused(M.usedUp));
    });

    it('a use is given back when an unpaid order expires, and when it is cancelled; a paid order keeps it', async () => {
      const p = await createProduct(t, { price: 10, countInStock: 100 });
      const d = await createDiscount({ kind: 'fixed', value: 1, usageLimit: 1 });
      const [a, b, c] = [await createUser(t), await createUser(t), await createUser(t)];
      for (const s of [a, b, c]) await addToCart(t, s, p.id, 1);
      const first = await order(a, d.code);
      expect(first.status).toBe(201);
      expect(await order(b, d.code)).toEqual(refused(M.usedUp));

      expect(await expireUnpaidOrders(t.database.db, later())).toContain(first.body._id);
      expect(await usesOf(d._id)).toBe(0);
      const second = await order(b, d.code);
      expect(second.status).toBe(201);
      expect(await order(c, d.code)).toEqual(refused(M.usedUp));

      expect((await call<OrderResponse>(t, b, 'POST', `/api/orders/${second.body._id}/cancel`, {})).status).toBe(200);
      expect(await usesOf(d._id)).toBe(0);
      const third = await order(c, d.code);
      expect(third.status).toBe(201);
      expect((await call(t, c, 'PUT', `/api/orders/${third.body._id}/pay`, { demo: true })).status).toBe(200);
      expect(await expireUnpaidOrders(t.database.db, later())).not.toContain(third.body._id);
      expect(await usesOf(d._id)).toBe(1);
      // Paid: the cart keeps no code.
      expect((await call<Cart>(t, c, 'GET', '/api/cart')).body.discount).toBeUndefined();
    });
  });

  it('refunds never give back more than the discounted total; the dashboard shows the discounts given', async () => {
    const u = await createUser(t);
    const a = await createProduct(t, { price: 20, countInStock: 10, name: 'Discounted Kettle' });
    const b = await createProduct(t, { price: 10, countInStock: 10, name: 'Discounted Mug' });
    const d = await createDiscount({ kind: 'fixed', value: 3 });
    const before = (await call<OrderSummary>(t, admin, 'GET', '/api/orders/summary')).body.discounts!;
    await addToCart(t, u, a.id, 1);
    await addToCart(t, u, b.id, 1);
    const placed = await order(u, d.code);
    expect(placed.body).toMatchObject({ itemsPrice: 30, discountPrice: 3, totalPrice: 27 });
    expect((await call(t, u, 'PUT', `/api/orders/${placed.body._id}/pay`, { demo: true })).status).toBe(200);
    const mailTo = async (subject: string) => (await t.database.db.select().from(outbox).where(and(eq(outbox.to, u.email), eq(outbox.subject, subject))))
      .map((m) => openMail(m, t.app.ctx.mailSealer))[0]!;
    const confirmation = await mailTo(`Order confirmation #${placed.body.number}`);
    expect(confirmation.text).toContain(`Items: $30.00\nDiscount (${d.code}): -$3.00\nShipping: $0.00\nTax: $0.00\nTotal: $27.00 USD`);
    const after = (await call<OrderSummary>(t, admin, 'GET', '/api/orders/summary')).body.discounts!;
    expect(after.numOrders - before.numOrders).toBe(1);
    expect(Math.round((after.totalGiven - before.totalGiven) * 100)).toBe(300);

    const url = `/api/orders/${placed.body._id}/refunds`;
    expect(await call(t, admin, 'POST', url, { amount: 27.01, reason: 'too much' })).toMatchObject({ status: 400, body: { code: 'REFUND_TOO_LARGE' } });
    const lines = placed.body.orderItems.map((i) => ({ orderItemId: i._id, quantity: 1 }));
    const refund = await call<RefundResponse>(t, admin, 'POST', url, { lines, reason: 'All of it' });
    expect(refund.status).toBe(201);
    expect(refund.body.order).toMatchObject({ refundedAmount: 27, status: 'refunded' });
    expect(refund.body.refund).toMatchObject({ amount: 27, extraAmount: -3 });
    expect((await mailTo(`Refund for your order #${placed.body.number}`)).text).toContain("Less the order's discount: -$3.00");
  });
});
