import type { CjSaveResponse, Order, Page, ShippingQuote, ShippingRates } from '@shop/contracts';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { outbox } from '../../db/schema.ts';
import { openMail } from '../../lib/mailer.ts';
import { call, sampleAddress } from '../../test/commerce-factories.ts';
import { startCjMock, type CjMock } from '../../test/cj-mock.ts';
import { createAdmin, createTestApp, createUser, TEST_DB, type TestApp, type TestUser } from '../../test/test-app.ts';
import { answerBuiltIn } from '../chat/assistant/built-in-assistant.ts';
import { createShopTools } from '../chat/assistant/shop-tools.ts';
import { createSupplierCatalogue } from './supplier-setup.ts';
import { pollTracking } from './supplier-tracking.ts';

/** The words a shopper must never read (issue 34 point 4). */
const SUPPLIER_WORDS = /\bCJ\b|CJPacket|supplier|unshipped/i;

/**
 * Every string value of an answer a shopper may read, with where it is ("orderItems.0.tracking.status").
 * Not scanned: keys (field names), addresses (image paths and links such as /api/cj/offline-images/…)
 * and the storefront's `cjData` blob (the product page's data, never printed as such): the routes
 * keep their names.
 */
function texts(value: unknown, path = ''): Array<[string, string]> {
  if (typeof value === 'string') return /^(\/|https?:\/\/)\S*$/.test(value) ? [] : [[path, value]];
  if (Array.isArray(value)) return value.flatMap((v, i) => texts(v, `${path}.${i}`));
  if (value && typeof value === 'object') {
    return Object.entries(value).filter(([k]) => k !== 'cjData').flatMap(([k, v]) => texts(v, path ? `${path}.${k}` : k));
  }
  return [];
}
/** The values of an answer that name the supplier (none expected). */
const supplierWordsIn = (what: string, value: unknown): string[] =>
  texts(value).filter(([, v]) => SUPPLIER_WORDS.test(v)).map(([p, v]) => `${what} ${p}: ${v}`);

describe(`no shopper-facing answer, page, mail or assistant answer names the supplier (issue 34.4), on ${TEST_DB}`, () => {
  let cj: CjMock;
  let t: TestApp;
  let admin: TestUser;
  let customer: TestUser;
  let product: CjSaveResponse['product'];

  beforeAll(async () => {
    cj = await startCjMock({ products: 10 });
    t = await createTestApp({ env: { CJ_API_KEY: cj.apiKey, CJ_API_BASE: cj.url, CJ_REQUESTS_PER_SECOND: '100' } });
    admin = await createAdmin(t);
    customer = await createUser(t);
    const pid = [...cj.products.values()].find((p) => p.variants.length >= 1)!.pid;
    product = (await call<CjSaveResponse>(t, admin, 'POST', '/api/cj/products/save', { pid })).body.product;
    // The owner charges the partner's freight: the most supplier-shaped checkout there is.
    expect((await call(t, admin, 'PUT', '/api/shipping/settings', { flatRate: 2, freeOver: 500, supplierFreight: 'charge' })).status).toBe(200);
  });
  afterAll(async () => {
    await t?.close();
    await cj?.close();
  });

  it('scans the checkout, the order answers at each state, the mails, the pages and the assistant', async () => {
    const found: string[] = [];
    const customerSees = async (what: string, method: 'GET' | 'POST' | 'PUT', url: string, body?: unknown) => {
      const res = await call(t, customer, method, url, body);
      expect(res.status, `${what}: ${JSON.stringify(res.body)}`).toBeLessThan(300);
      found.push(...supplierWordsIn(what, res.body));
      return res.body as never;
    };
    const tools = createShopTools(t.database.db);
    const asks = async (text: string) => {
      const answer = await answerBuiltIn(tools, { id: customer.id, name: customer.name, isGuest: false, isSignedIn: true }, text);
      found.push(...supplierWordsIn(`assistant "${text}"`, answer.text));
      return answer.text;
    };

    // Checkout: the quote and the order placed (the freight reads "Standard shipping (7–12 days)").
    const variant = product.productVariants![0]!;
    await customerSees('cart', 'POST', '/api/cart/items', { productId: product._id, quantity: 1, variantId: variant._id });
    const quote: ShippingQuote = await customerSees('quote', 'POST', '/api/orders/shipping-quote', { country: 'Canada' });
    expect(quote.label).toBe('Standard shipping (7–12 days)');
    const placed: Order = await customerSees('place order', 'POST', '/api/orders', { shippingAddress: { ...sampleAddress(), country: 'Canada' }, paymentMethod: 'PayPal' });
    expect(placed.shippingPrice).toBe(quote.shippingPrice);
    await customerSees('pay', 'PUT', `/api/orders/${placed._id}/pay`, { demo: true });
    await t.app.ctx.jobs.runDue(); // forwarded to CJ
    const forwarded = cj.orders.get(placed._id)!;

    // Each state CJ reports: UNSHIPPED, SHIPPED with CJ's own service, DELIVERED.
    const deps = { db: t.database.db, catalogue: createSupplierCatalogue(t.app.ctx, t.app.log), mailer: t.app.ctx.mailer, siteUrl: t.config.siteUrl, log: t.app.log };
    await pollTracking(deps);
    const processing: Order = await customerSees('order (unshipped)', 'GET', `/api/orders/${placed._id}`);
    expect(processing.shipment).toMatchObject({ status: 'Processing', trackingNumber: null });
    await asks('Where is my order?');

    forwarded.orderStatus = 'SHIPPED';
    forwarded.trackNumber = 'YT2499887766554433';
    forwarded.logisticName = 'CJPacket Ordinary';
    await pollTracking(deps);
    const shipped: Order = await customerSees('order (shipped)', 'GET', `/api/orders/${placed._id}`);
    expect(shipped.shipment).toMatchObject({
      status: 'Shipped', carrier: 'Standard shipping', trackingNumber: 'YT2499887766554433', trackingUrl: 'https://t.17track.net/en#nums=YT2499887766554433',
    });
    expect(shipped.orderItems[0]!.tracking).toMatchObject({ status: 'Shipped', carrier: 'Standard shipping' });
    expect(shipped.events!.map((e) => e.message)).toEqual(expect.arrayContaining(['Processing', 'Shipped, tracking number YT2499887766554433']));
    await customerSees('order history', 'GET', '/api/orders/mine');
    expect(await asks('Where is my order?')).toContain('shipped on');
    expect(await asks('Where is my order?')).toContain('with Standard shipping, tracking number YT2499887766554433 (track it at https://t.17track.net/en#nums=YT2499887766554433)');

    forwarded.orderStatus = 'DELIVERED';
    await pollTracking(deps);
    const delivered: Order = await customerSees('order (delivered)', 'GET', `/api/orders/${placed._id}`);
    expect(delivered.shipment?.status).toBe('Delivered');
    expect(await asks('Where is my order?')).toContain('delivered on');

    // Shipping questions, for a named country and in general.
    await asks('How much is shipping to Canada?');
    await asks('How long does shipping take?');
    await asks('Do you ship to Australia?');
    await asks('Which payment methods do you accept?');

    // The pages and what shoppers read of the shipping settings.
    for (const slug of ['faq', 'shipping', 'returns', 'terms', 'about', 'contact']) {
      const page = await call<Page>(t, null, 'GET', `/api/pages/${slug}`);
      found.push(...supplierWordsIn(`page ${slug}`, page.body));
    }
    found.push(...supplierWordsIn('rates', (await call<ShippingRates>(t, null, 'GET', '/api/shipping/rates')).body));

    // Every mail the customer was sent (confirmation, shipped), as the mailer opens them.
    const mails = (await t.database.db.select().from(outbox).where(eq(outbox.to, customer.email.toLowerCase()))).map((row) => openMail(row, t.app.ctx.mailSealer));
    expect(mails.map((m) => m.subject)).toEqual(expect.arrayContaining([`Order confirmation #${placed.number}`, `Your order #${placed.number} has shipped`]));
    const shippedMail = mails.find((m) => m.subject.includes('has shipped'))!;
    expect(shippedMail.text).toContain('Carrier: Standard shipping');
    expect(shippedMail.text).toContain('Track your parcel: https://t.17track.net/en#nums=YT2499887766554433');
    for (const m of mails) found.push(...supplierWordsIn(`mail "${m.subject}"`, { subject: m.subject, text: m.text }));

    expect(found).toEqual([]);

    // The back office keeps every supplier detail.
    const adminView = await call<Order>(t, admin, 'GET', `/api/orders/${placed._id}`);
    expect(adminView.body.shipment).toMatchObject({ status: 'DELIVERED', carrier: 'CJPacket Ordinary' });
    expect(adminView.body.events!.map((e) => e.message).join('\n')).toMatch(/Forwarded to the supplier \(CJ order /);
  });
});
