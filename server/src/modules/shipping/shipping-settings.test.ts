import {
  SHIPPING_SETTINGS_SAVED, type Order, type Page, type ShippingQuote, type ShippingRates, type ShippingSettingsResponse,
} from '@shop/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addToCart, call, createProduct, sampleAddress } from '../../test/commerce-factories.ts';
import { createAdmin, createTestApp, createUser, TEST_DB, type TestApp, type TestUser } from '../../test/test-app.ts';
import { answerBuiltIn } from '../chat/assistant/built-in-assistant.ts';
import { createShopTools } from '../chat/assistant/shop-tools.ts';

describe(`shipping settings: checkout, the Shipping page, the FAQ and the assistant say the same (issue 34.3), on ${TEST_DB}`, () => {
  let t: TestApp;
  let admin: TestUser;

  beforeAll(async () => {
    t = await createTestApp();
    admin = await createAdmin(t);
  });
  afterAll(async () => {
    await t?.close();
  });

  const order = async (price: number, country: string) => {
    const buyer = await createUser(t);
    const p = await createProduct(t, { price, countInStock: 5 });
    await addToCart(t, buyer, p.id, 1);
    const quote = await call<ShippingQuote>(t, buyer, 'POST', '/api/orders/shipping-quote', { country });
    const placed = await call<Order>(t, buyer, 'POST', '/api/orders', { shippingAddress: { ...sampleAddress(), country }, paymentMethod: 'PayPal', shippingPrice: 0, totalPrice: 0.01 });
    expect(placed.status).toBe(201);
    return { quote: quote.body, order: placed.body };
  };
  const page = async (slug: string) => (await call<Page>(t, null, 'GET', `/api/pages/${slug}`)).body;
  const ask = async (text: string) => {
    const who = await createUser(t);
    return (await answerBuiltIn(createShopTools(t.database.db), { id: who.id, name: who.name, isGuest: false, isSignedIn: true }, text)).text;
  };

  it("defaults to the specification's shipping 0, and every text says so", async () => {
    expect(await call<ShippingSettingsResponse>(t, admin, 'GET', '/api/shipping/settings')).toEqual({
      status: 200, body: { settings: { flatRate: 0, freeOver: null, countryRates: [], supplierFreight: 'included', updatedAt: null } },
    });
    const { quote, order: o } = await order(20, 'USA');
    expect(quote).toEqual({ shippingPrice: 0, label: null, freeOver: null, message: null });
    expect(o).toMatchObject({ itemsPrice: 20, shippingPrice: 0, taxPrice: 0, totalPrice: 20 });
    const shipping = await page('shipping');
    expect(shipping.body).toContain('Shipping is free on every order.');
    expect(shipping.body).toContain('Some items ship separately from our partner warehouse and take 7–12 business days, at no extra shipping cost.');
    expect(shipping.body).not.toContain('{{');
    expect(shipping.body).not.toMatch(/\bCJ\b|CJPacket|supplier/i);
    const faq = (await page('faq')).faq!.find((e) => e.id === 'shipping')!;
    expect(faq.answer).toMatch(/^Shipping is free on every order\. Orders are usually dispatched/);
    // The editor reads the text as stored, placeholders and all.
    expect((await call<Page>(t, admin, 'GET', '/api/pages/shipping?source=true')).body.body).toContain('{{shipping.summary}}');
    expect(await call(t, null, 'GET', '/api/pages/shipping?source=maybe')).toMatchObject({ status: 400 });
  });

  it('refuses bad settings with a clear 400 and changes nothing; only administrators read or save them', async () => {
    const customer = await createUser(t);
    const good = { flatRate: 4.99, freeOver: 50, countryRates: [{ country: 'CA', rate: 9.99 }], supplierFreight: 'charge' };
    expect(await call(t, null, 'GET', '/api/shipping/settings')).toMatchObject({ status: 401 });
    expect(await call(t, customer, 'GET', '/api/shipping/settings')).toMatchObject({ status: 403 });
    expect(await call(t, customer, 'PUT', '/api/shipping/settings', good)).toMatchObject({ status: 403 });
    const bad: Array<[unknown, string]> = [
      [{ ...good, flatRate: -1 }, 'Flat rate must be from $0 to $10000'],
      [{ ...good, flatRate: '4.999' }, 'Flat rate must have at most 2 decimal places'],
      [{ ...good, freeOver: 'lots' }, 'Free shipping threshold must be a number'],
      [{ ...good, countryRates: [{ country: 'Canada', rate: 1 }] }, 'Country must be a two-letter code, such as CA'],
      [{ ...good, countryRates: [{ country: 'ZZ', rate: 1 }] }, "'ZZ' is not a country code we recognise"],
      [{ ...good, countryRates: [{ country: 'CA', rate: 1 }, { country: 'ca', rate: 2 }] }, 'Canada has more than one rate'],
      [{ ...good, supplierFreight: 'maybe' }, "Separately shipped items must be 'charge' or 'included'"],
    ];
    for (const [body, message] of bad) {
      const res = await call<{ message: string }>(t, admin, 'PUT', '/api/shipping/settings', body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.message).toContain(message);
    }
    expect((await call<ShippingSettingsResponse>(t, admin, 'GET', '/api/shipping/settings')).body.settings.updatedAt).toBeNull();
  });

  it('a flat rate, free over a subtotal and a rate for Canada: checkout, the quote, the pages, the FAQ and the assistant agree', async () => {
    const saved = await call<{ message: string; settings: ShippingSettingsResponse['settings'] }>(t, admin, 'PUT', '/api/shipping/settings', {
      flatRate: '4.99', freeOver: 50, countryRates: [{ country: 'jp', rate: 14.5 }, { country: 'CA', rate: 9.99 }], supplierFreight: 'included',
    });
    expect(saved.status).toBe(200);
    expect(saved.body.message).toBe(SHIPPING_SETTINGS_SAVED);
    // Sorted by country name.
    expect(saved.body.settings.countryRates).toEqual([{ country: 'CA', name: 'Canada', rate: 9.99 }, { country: 'JP', name: 'Japan', rate: 14.5 }]);

    // Checkout charges exactly the settings (the request's own figures are ignored), and the quote said so first.
    const usa = await order(20, 'USA');
    expect(usa.quote).toEqual({ shippingPrice: 4.99, label: null, freeOver: 50, message: null });
    expect(usa.order).toMatchObject({ itemsPrice: 20, shippingPrice: 4.99, totalPrice: 24.99 });
    const canada = await order(20, 'Canada');
    expect(canada.quote.shippingPrice).toBe(9.99);
    expect(canada.order).toMatchObject({ shippingPrice: 9.99, totalPrice: 29.99 });
    const japan = await order(49.99, 'JP');
    expect(japan.order).toMatchObject({ shippingPrice: 14.5, totalPrice: 64.49 });
    const over = await order(50, 'Canada');
    expect(over.quote.shippingPrice).toBe(0);
    expect(over.order).toMatchObject({ itemsPrice: 50, shippingPrice: 0, totalPrice: 50 });

    const summary = 'Shipping is $4.99 per order, free on orders over $50.00. Some countries have their own rate: Canada $9.99 per order, Japan $14.50 per order.';
    expect(await call<ShippingRates>(t, null, 'GET', '/api/shipping/rates')).toEqual({
      status: 200,
      body: { flatRate: 4.99, freeOver: 50, countryRates: [{ country: 'CA', name: 'Canada', rate: 9.99 }, { country: 'JP', name: 'Japan', rate: 14.5 }], summary },
    });
    const shipping = await page('shipping');
    expect(shipping.body).toContain(summary);
    expect(shipping.body).not.toContain('{{');
    expect((await page('terms')).body).toContain(`Prices are in US dollars and include tax. ${summary}`);
    expect((await page('about')).body).toContain(`**Fast shipping.** ${summary}`);
    const faq = (await page('faq')).faq!;
    expect(faq.find((e) => e.id === 'shipping')!.answer).toContain(summary);
    expect(faq.find((e) => e.id === 'payment')!.answer).toContain(summary);

    // The assistant, for any country asked about, and from the FAQ.
    expect(await ask('How much is shipping to Canada?')).toContain('Shipping to Canada is $9.99 per order, free on orders over $50.00');
    expect(await ask('Do you ship to Germany?')).toContain('Shipping to Germany is $4.99 per order, free on orders over $50.00');
    expect(await ask('How much does delivery to Japan cost?')).toContain('Shipping to Japan is $14.50 per order');
    expect(await ask('How much is shipping?')).toContain(summary);
  });

  it("when the owner charges separately shipped items' freight, the texts say it is shown at checkout", async () => {
    await call(t, admin, 'PUT', '/api/shipping/settings', { flatRate: 0, supplierFreight: 'charge' });
    const text = 'Some items ship separately from our partner warehouse with Standard shipping (7–12 business days); its cost is shown at checkout before you pay.';
    expect((await page('shipping')).body).toContain(text);
    expect(await ask('Can you ship to France?')).toContain(`Shipping to France is free: orders are dispatched within 1–2 business days and arrive within 3–7 business days. ${text}`);
    // Own products only: nothing to quote from the partner, the shop's rate (free).
    expect((await order(20, 'France')).order).toMatchObject({ shippingPrice: 0, totalPrice: 20 });
  });

  it('a country as shoppers type it finds its rate (France, Deutschland: never a withdrawn code such as FX or DD)', async () => {
    const saved = await call(t, admin, 'PUT', '/api/shipping/settings', { flatRate: 1, countryRates: [{ country: 'FR', rate: 6 }, { country: 'DE', rate: 7 }], supplierFreight: 'included' });
    expect(saved.status).toBe(200);
    expect((await order(20, 'France')).order.shippingPrice).toBe(6);
    expect((await order(20, 'Deutschland')).order.shippingPrice).toBe(7);
    expect((await order(20, 'Germany')).order.shippingPrice).toBe(7);
    expect((await order(20, 'Spain')).order.shippingPrice).toBe(1);
    expect(await call(t, admin, 'PUT', '/api/shipping/settings', { flatRate: 1, countryRates: [{ country: 'FX', rate: 6 }], supplierFreight: 'included' }))
      .toMatchObject({ status: 400, body: { message: "'FX' is not a country code we recognise" } });
  });
});
