import {
  applyPricingRule, belowCostMessage, CHOOSE_VARIANT_MESSAGE, FREIGHT_UNAVAILABLE_MESSAGE, STANDARD_SHIPPING_LABEL, type Cart, type CjSaveResponse,
  type Order, type OrderActionResponse, type PricingRuleResponse, type ShippingQuote, type SupplierOrder,
} from '@shop/contracts';
import { and, eq, like } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { outbox, productVariants } from '../../db/schema.ts';
import { openMail } from '../../lib/mailer.ts';
import { addToCart, call, createAddressFor, createProduct, sampleAddress } from '../../test/commerce-factories.ts';
import { startCjMock, type CjMock } from '../../test/cj-mock.ts';
import { createAdmin, createTestApp, createUser, TEST_DB, type TestApp, type TestUser } from '../../test/test-app.ts';
import { answerBuiltIn, describeVariants } from '../chat/assistant/built-in-assistant.ts';
import { createShopTools } from '../chat/assistant/shop-tools.ts';
import { pollTracking } from './supplier-tracking.ts';

describe(`supplier variants, pricing rule, tracking and freight (local CJ server), on ${TEST_DB}`, () => {
  let cj: CjMock;
  let t: TestApp;
  let admin: TestUser;
  let customer: TestUser;
  let pid: string;
  let saved: CjSaveResponse['product'];

  // Mail bodies are sealed at rest: read them as the mailer opens them.
  const shippedMails = async (email: string) => (await t.database.db.select().from(outbox)
    .where(and(eq(outbox.to, email.toLowerCase()), like(outbox.subject, '%has shipped%')))).map((row) => openMail(row, t.app.ctx.mailSealer));
  const trackingDeps = () => ({ db: t.database.db, catalogue: undefined as never, mailer: t.app.ctx.mailer, siteUrl: t.config.siteUrl, log: t.app.log });

  beforeAll(async () => {
    cj = await startCjMock({ products: 30 });
    t = await createTestApp({ env: { CJ_API_KEY: cj.apiKey, CJ_API_BASE: cj.url, CJ_REQUESTS_PER_SECOND: '100' } });
    admin = await createAdmin(t);
    customer = await createUser(t);
    pid = [...cj.products.values()].find((p) => p.variants.length >= 2)!.pid;
    // The owner charges the supplier's freight (the default includes it in the price: shipping 0).
    expect((await call(t, admin, 'PUT', '/api/shipping/settings', { flatRate: 0, supplierFreight: 'charge' })).status).toBe(200);
  });
  afterAll(async () => {
    await t?.close();
    await cj?.close();
  });

  it('has a pricing rule (default 50 %, .99) that fills the price of every imported variant', async () => {
    const rule = await call<PricingRuleResponse>(t, admin, 'GET', '/api/cj/pricing');
    expect(rule).toEqual({ status: 200, body: { pricing: { markupPercent: 50, fixedAmount: 0, rounding: '.99' } } });
    expect(await call(t, admin, 'PUT', '/api/cj/pricing', { markupPercent: -1, rounding: '.99' })).toMatchObject({ status: 400 });
    expect(await call(t, admin, 'PUT', '/api/cj/pricing', { markupPercent: 50, rounding: '.50' })).toMatchObject({
      status: 400, body: { message: 'Rounding must be .99 or .00' },
    });
    expect(applyPricingRule(17.92, { markupPercent: 50, fixedAmount: 0, rounding: '.99' })).toBe(26.99);
    expect(applyPricingRule(10, { markupPercent: 0, fixedAmount: 2, rounding: '.00' })).toBe(12);

    const res = await call<CjSaveResponse>(t, admin, 'POST', '/api/cj/products/save', { pid });
    expect(res.status).toBe(201);
    saved = res.body.product;
    const src = cj.products.get(pid)!;
    expect(saved.brand).not.toBe('CJ Dropshipping');
    expect(saved.productVariants!.map((v) => v.vid)).toEqual(src.variants.map((v) => v.vid));
    for (const v of saved.productVariants!) {
      const cost = Number(src.variants.find((s) => s.vid === v.vid)!.variantSellPrice);
      expect(v).toMatchObject({ supplierCost: cost, price: applyPricingRule(cost, { markupPercent: 50, fixedAmount: 0, rounding: '.99' }), enabled: true });
      expect(v.margin).toBeCloseTo(v.finalPrice - cost, 2);
      expect(v.marginPercent).toBeGreaterThan(30);
    }
  });

  it('refuses a price below the supplier cost with 400, and accepts it when confirmed', async () => {
    const main = saved.productVariants!.find((v) => v.vid === saved.vid)!;
    const refused = await call(t, admin, 'POST', '/api/cj/products/save', { pid, price: 0.01 });
    expect(refused).toMatchObject({ status: 400, body: { message: belowCostMessage(0.01, main.supplierCost!) } });
    expect(belowCostMessage(0.01, 17.92)).toBe('Price $0.01 is below the supplier cost $17.92');
    // A sale discount that takes the price below cost counts too.
    const onSale = await call(t, admin, 'POST', '/api/cj/products/save', { pid, isOnSale: true, saleDiscount: 90 });
    expect(onSale).toMatchObject({ status: 400, body: { code: 'BELOW_SUPPLIER_COST' } });
    const confirmed = await call<CjSaveResponse>(t, admin, 'POST', '/api/cj/products/save', { pid, price: 0.01, confirmBelowCost: true });
    expect(confirmed.status).toBe(200);
    expect(confirmed.body.product.price).toBe(0.01);
    // Back to a profitable price; the second variant gets its own price and stock.
    const second = saved.productVariants![1]!;
    const back = await call<CjSaveResponse>(t, admin, 'POST', '/api/cj/products/save', {
      pid, price: main.price, variants: [{ vid: second.vid, price: second.price + 1, countInStock: 7 }],
    });
    expect(back.status).toBe(200);
    saved = back.body.product;
    expect(saved.productVariants![1]).toMatchObject({ price: second.price + 1, countInStock: 7 });
  });

  it("the assistant names each variant on sale with its own price and stock", async () => {
    const tools = createShopTools(t.database.db);
    const facts = await tools.searchProducts(saved.name, 5);
    const fact = facts.find((f) => f.id === saved._id)!;
    expect(fact.variants).toHaveLength(saved.productVariants!.length);
    const answer = await answerBuiltIn(tools, { id: customer.id, name: customer.name, isGuest: false, isSignedIn: true }, `How much is the ${saved.name}?`);
    expect(answer.text).toContain('Variants: ');
    for (const v of saved.productVariants!) expect(answer.text).toContain(`${v.variantKey || v.name} $${v.finalPrice.toFixed(2)}`);
    const second = saved.productVariants![1]!;
    expect(answer.text).toContain(`${second.variantKey || second.name} $${second.finalPrice.toFixed(2)} (in stock (7 available))`);
    // One variant on sale: the product's own price, no list.
    expect(describeVariants({ ...fact, variants: fact.variants!.slice(0, 1) })).toBe('');
  });

  it('sells the second variant: its own line, price and stock; createOrderV2 carries its vid', async () => {
    const [, second] = saved.productVariants!;
    const first = saved.productVariants![0]!;
    // Without a choice (an older client or cart): the listing's own variant; switched off, a choice is needed.
    const noChoice = await call<Cart>(t, customer, 'POST', '/api/cart/items', { productId: saved._id, quantity: 1 });
    expect(noChoice.body.cartItems.map((i) => i.variantId)).toEqual([first._id]);
    await call(t, customer, 'DELETE', `/api/cart/items/${saved._id}`);
    await t.database.db.update(productVariants).set({ enabled: false }).where(eq(productVariants.id, first._id));
    expect(await call(t, customer, 'POST', '/api/cart/items', { productId: saved._id, quantity: 1 }))
      .toMatchObject({ status: 400, body: { message: CHOOSE_VARIANT_MESSAGE } });
    await t.database.db.update(productVariants).set({ enabled: true }).where(eq(productVariants.id, first._id));
    await call(t, customer, 'POST', '/api/cart/items', { productId: saved._id, quantity: 1, variantId: first._id });
    const both = await call<Cart>(t, customer, 'POST', '/api/cart/items', { productId: saved._id, quantity: 2, variantId: second!._id });
    expect(both.status).toBe(200);
    expect(both.body.cartItems.map((i) => [i.variantId, i.quantity])).toEqual([[first._id, 1], [second!._id, 2]]);
    expect(both.body.cartItems[1]).toMatchObject({ price: second!.finalPrice, countInStock: 7, variantName: second!.variantKey || second!.name });
    expect(await call(t, customer, 'POST', '/api/cart/items', { productId: saved._id, quantity: 8, variantId: second!._id }))
      .toMatchObject({ status: 400, body: { code: 'OUT_OF_STOCK' } });
    const removed = await call<Cart>(t, customer, 'DELETE', `/api/cart/items/${saved._id}?variantId=${first._id}`);
    expect(removed.body.cartItems.map((i) => i.variantId)).toEqual([second!._id]);

    // Freight before the order: CJ's quote for the variant set, cached per destination.
    const before = cj.count('logistic/freightCalculate');
    const quote = await call<ShippingQuote>(t, customer, 'POST', '/api/orders/shipping-quote', { country: 'United States' });
    expect(quote).toEqual({ status: 200, body: { shippingPrice: 4.8, label: STANDARD_SHIPPING_LABEL, freeOver: null, message: null } });
    await call(t, customer, 'POST', '/api/orders/shipping-quote', { country: 'US' });
    expect(cj.count('logistic/freightCalculate')).toBe(before + 1);
    const sent = JSON.parse(cj.requests.filter((r) => r.path === 'logistic/freightCalculate').at(-1)!.body) as Record<string, unknown>;
    expect(sent).toEqual({ startCountryCode: 'CN', endCountryCode: 'US', products: [{ vid: second!.vid, quantity: 2 }] });
    cj.freightPerUnit = null;
    const fallback = await call<ShippingQuote>(t, customer, 'POST', '/api/orders/shipping-quote', { country: 'Germany' });
    expect(fallback.body).toMatchObject({ label: null, shippingPrice: 0, message: FREIGHT_UNAVAILABLE_MESSAGE });
    cj.freightPerUnit = 3;
    expect(await call(t, customer, 'POST', '/api/orders/shipping-quote', { country: 'Atlantis' })).toMatchObject({ status: 400 });

    // The order is charged the quote (the body's own figures are ignored), in its total too; the
    // quote shown for the United States is the one charged (cached: no second call to CJ).
    const calls = cj.count('logistic/freightCalculate');
    const placed = await call<Order>(t, customer, 'POST', '/api/orders', {
      shippingAddress: sampleAddress(), paymentMethod: 'PayPal', shippingPrice: 0, totalPrice: 0.01,
    });
    expect(placed.status).toBe(201);
    const order = placed.body;
    expect(cj.count('logistic/freightCalculate')).toBe(calls);
    expect(order.orderItems).toEqual([expect.objectContaining({ variantId: second!._id, quantity: 2, price: second!.finalPrice })]);
    expect(order.itemsPrice).toBe(Math.round(second!.finalPrice * 2 * 100) / 100);
    expect(order.shippingPrice).toBe(4.8);
    expect(order.totalPrice).toBe(Math.round((order.itemsPrice + 4.8) * 100) / 100);
    const [row] = await t.database.db.select().from(productVariants).where(eq(productVariants.id, second!._id));
    expect(row!.countInStock).toBe(5);
    expect((await call<OrderActionResponse>(t, customer, 'PUT', `/api/orders/${order._id}/pay`, { demo: true })).status).toBe(200);
    await t.app.ctx.jobs.runDue();
    const forwarded = cj.orders.get(order._id)!;
    expect((forwarded.body.products as Array<{ vid: string; quantity: number }>).map((p) => [p.vid, p.quantity])).toEqual([[second!.vid, 2]]);

    // Tracking: CJ has not shipped yet, then gives a tracking number.
    const unshipped = await call<SupplierOrder>(t, admin, 'POST', `/api/cj/orders/${order._id}/tracking/refresh`);
    expect(unshipped.body.shipment).toMatchObject({ status: 'UNSHIPPED', trackingNumber: null });
    expect(await shippedMails(customer.email)).toHaveLength(0);
    forwarded.orderStatus = 'SHIPPED';
    forwarded.trackNumber = 'YT2412345678901234';
    forwarded.logisticName = 'YunExpress';
    const deps = { ...trackingDeps(), catalogue: (await import('./supplier-setup.ts')).createSupplierCatalogue(t.app.ctx, t.app.log) };
    const firstPoll = await pollTracking(deps);
    expect(firstPoll).toMatchObject({ checked: 1, changed: 1, mailed: 1 });
    const mine = await call<Order>(t, customer, 'GET', `/api/orders/${order._id}`);
    // The customer reads the shop's words; the back office keeps CJ's.
    expect(mine.body.shipment).toMatchObject({ status: 'Shipped', trackingNumber: 'YT2412345678901234', carrier: 'YunExpress' });
    expect((await call<Order>(t, admin, 'GET', `/api/orders/${order._id}`)).body.shipment).toMatchObject({ status: 'SHIPPED', carrier: 'YunExpress' });
    expect(mine.body.shippingStatus).toBe('Shipped');
    expect(mine.body.orderItems[0]!.tracking).toMatchObject({ trackingNumber: 'YT2412345678901234', carrier: 'YunExpress' });
    const mails = await shippedMails(customer.email);
    expect(mails).toHaveLength(1);
    expect(mails[0]!.text).toContain('YT2412345678901234');
    expect(mails[0]!.text).toContain(`View your order: ${t.config.siteUrl}/order/${order._id}`); // absolute, on the one origin
    expect(t.config.siteUrl).toMatch(/^https?:\/\//);

    // A second poll changes nothing: no second e-mail.
    expect(await pollTracking(deps)).toMatchObject({ checked: 1, changed: 0, mailed: 0 });
    expect(await shippedMails(customer.email)).toHaveLength(1);

    // The assistant quotes it, to the owner only.
    const tools = createShopTools(t.database.db);
    const answer = await answerBuiltIn(tools, { id: customer.id, name: customer.name, isGuest: false, isSignedIn: true }, 'Where is my order?');
    expect(answer.text).toContain('YT2412345678901234');
    expect(answer.text).toContain(`Order #${order.number} from`); // named by its number, as everywhere
    const stranger = await createUser(t);
    const other = await answerBuiltIn(tools, { id: stranger.id, name: stranger.name, isGuest: false, isSignedIn: true }, 'Where is my order?');
    expect(other.text).not.toContain('YT2412345678901234');

    // Reorder knows the variant.
    const again = await call<Cart>(t, customer, 'POST', `/api/orders/${order._id}/reorder`);
    expect(again.body.cartItems.map((i) => [i.variantId, i.quantity])).toEqual([[second!._id, 2]]);
  });

  it('merges a guest cart by variant, and own products keep working without one', async () => {
    const buyer = await createUser(t);
    const own = await createProduct(t, { countInStock: 3 });
    const [first, second] = saved.productVariants!;
    const merged = await call<Cart>(t, buyer, 'POST', '/api/cart/merge', {
      items: [
        { productId: saved._id, quantity: 1, variantId: first!._id },
        { productId: saved._id, quantity: 1, variantId: second!._id },
        { productId: saved._id, quantity: 1 },
        { productId: own.id, quantity: 1 },
      ],
    });
    expect(merged.status).toBe(200);
    // The line without a variant (a cart saved before variants) joins the listing's own variant.
    expect(merged.body.cartItems.map((i) => [i._id, i.variantId, i.quantity])).toEqual([[saved._id, first!._id, 2], [saved._id, second!._id, 1], [own.id, null, 1]]);
    const cart = await addToCart(t, buyer, own.id, 2);
    expect(cart.cartItems.find((i) => i._id === own.id)).toMatchObject({ quantity: 2, variantId: null });
  });

  it('charges the shop\'s rule when CJ cannot quote, for a saved address too; own products ship at the shop\'s rule', async () => {
    const buyer = await createUser(t);
    const [, second] = saved.productVariants!;
    const own = await createProduct(t, { countInStock: 5 });
    await addToCart(t, buyer, own.id, 1);
    const ownOnly = await call<Order>(t, buyer, 'POST', '/api/orders', { shippingAddress: sampleAddress(3), paymentMethod: 'PayPal' });
    expect(ownOnly.body).toMatchObject({ shippingPrice: 0, totalPrice: ownOnly.body.itemsPrice });
    await call(t, admin, 'PUT', `/api/orders/${ownOnly.body._id}/deliver`);

    const buyer2 = await createUser(t);
    await call(t, buyer2, 'POST', '/api/cart/items', { productId: saved._id, quantity: 1, variantId: second!._id });
    const address = await createAddressFor(t, buyer2, { ...sampleAddress(4), country: 'France' });
    cj.freightPerUnit = null;
    try {
      const quote = await call<ShippingQuote>(t, buyer2, 'POST', '/api/orders/shipping-quote', { country: 'France' });
      expect(quote.body).toMatchObject({ label: null, shippingPrice: 0, message: FREIGHT_UNAVAILABLE_MESSAGE });
      const fallback = await call<Order>(t, buyer2, 'POST', '/api/orders', { addressId: address._id, paymentMethod: 'PayPal' });
      expect(fallback.status).toBe(201);
      expect(fallback.body).toMatchObject({ shippingPrice: 0, totalPrice: fallback.body.itemsPrice });
    } finally {
      cj.freightPerUnit = 3;
    }
    // CJ answers again: a new order to the saved address is charged its quote (1 unit: 3 × 0.8).
    const buyer3 = await createUser(t);
    await call(t, buyer3, 'POST', '/api/cart/items', { productId: saved._id, quantity: 1, variantId: second!._id });
    const address3 = await createAddressFor(t, buyer3, { ...sampleAddress(5), country: 'France' });
    const charged = await call<Order>(t, buyer3, 'POST', '/api/orders', { addressId: address3._id, paymentMethod: 'PayPal' });
    expect(charged.body).toMatchObject({ shippingPrice: 2.4, totalPrice: Math.round((charged.body.itemsPrice + 2.4) * 100) / 100 });
    // A country we cannot ship to is refused with a clear 400, never a 500.
    const buyer4 = await createUser(t);
    await call(t, buyer4, 'POST', '/api/cart/items', { productId: saved._id, quantity: 1, variantId: second!._id });
    expect(await call(t, buyer4, 'POST', '/api/orders', { shippingAddress: { ...sampleAddress(6), country: 'Atlantis' }, paymentMethod: 'PayPal' }))
      .toMatchObject({ status: 400, body: { message: expect.stringContaining('Atlantis') } });
  });

  it('flags a product whose supplier cost rose above its price and stops selling it until confirmed', async () => {
    const second = saved.productVariants![1]!;
    const src = cj.products.get(pid)!;
    src.variants.find((v) => v.vid === second.vid)!.variantSellPrice = String(second.price + 50);
    const refreshed = await call<{ product: CjSaveResponse['product'] }>(t, admin, 'POST', `/api/cj/products/saved/${saved._id}/refresh`);
    expect(refreshed.status).toBe(200);
    expect(refreshed.body.product.supplierBelowCostAt).not.toBeNull();
    const buyer = await createUser(t);
    expect(await call(t, buyer, 'POST', '/api/cart/items', { productId: saved._id, quantity: 1, variantId: saved.productVariants![0]!._id }))
      .toMatchObject({ status: 400 });
    const again = await call(t, admin, 'POST', '/api/cj/products/save', { pid });
    expect(again).toMatchObject({ status: 400, body: { message: belowCostMessage(second.finalPrice, second.price + 50) } });
    const ok = await call<CjSaveResponse>(t, admin, 'POST', '/api/cj/products/save', { pid, confirmBelowCost: true });
    expect(ok.body.product.supplierBelowCostAt).toBeNull();
    expect((await call(t, buyer, 'POST', '/api/cart/items', { productId: saved._id, quantity: 1, variantId: saved.productVariants![0]!._id })).status).toBe(200);
  });

  it('freight included in the price (Admin → Shipping): supplier lines pay the shop\'s rate, and CJ is not asked', async () => {
    await call(t, admin, 'PUT', '/api/shipping/settings', { flatRate: 3.5, supplierFreight: 'included' });
    try {
      const buyer = await createUser(t);
      await call(t, buyer, 'POST', '/api/cart/items', { productId: saved._id, quantity: 1, variantId: saved.productVariants![0]!._id });
      const calls = cj.count('logistic/freightCalculate');
      const quote = await call<ShippingQuote>(t, buyer, 'POST', '/api/orders/shipping-quote', { country: 'Japan' });
      expect(quote.body).toEqual({ shippingPrice: 3.5, label: null, freeOver: null, message: null });
      const placed = await call<Order>(t, buyer, 'POST', '/api/orders', { shippingAddress: { ...sampleAddress(7), country: 'Japan' }, paymentMethod: 'PayPal' });
      expect(placed.status).toBe(201);
      expect(placed.body).toMatchObject({ shippingPrice: 3.5, totalPrice: Math.round((placed.body.itemsPrice + 3.5) * 100) / 100 });
      expect(cj.count('logistic/freightCalculate')).toBe(calls);
    } finally {
      await call(t, admin, 'PUT', '/api/shipping/settings', { flatRate: 0, supplierFreight: 'charge' });
    }
  });
});
