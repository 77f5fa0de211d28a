import {
  CHOOSE_VARIANT_MESSAGE, OUT_OF_STOCK_MESSAGE, PRODUCT_FORM_MESSAGES as M, PRODUCT_OPTION_MESSAGES as T, STOCK_CHANGED_CODE, stockChangedMessage,
  SUPPLIER_PRODUCT_FIELDS_CODE, VARIANT_PRODUCT_FIELDS_CODE, VARIANTS_HAVE_ORDERS_CODE,
  type Cart, type Order, type Product, type ProductSearchResponse, type ProductUpdateResponse,
} from '@shop/contracts';
import { asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { orderItems, products, productVariants } from '../../db/schema.ts';
import { call, createProduct, sampleAddress, stockOf } from '../../test/commerce-factories.ts';
import { createAdmin, createTestApp, createUser, TEST_DB, type TestApp, type TestUser } from '../../test/test-app.ts';
import { answerBuiltIn } from '../chat/assistant/built-in-assistant.ts';
import { createShopTools } from '../chat/assistant/shop-tools.ts';
import { expireUnpaidOrders } from '../orders/release-stock.ts';
import { productJsonLd } from '../seo/product-page-tags.ts';
import { findProductRow } from './product-rows.ts';

type Refused = { message: string; code?: string; fieldErrors?: Record<string, string> };

const SIZES = { name: 'Size', values: ['S', 'M', 'L'] };
const COLOURS = { name: 'Colour', values: ['Red', 'Blue'] };

/** Every Size x Colour combination: M costs more, M / Red has 3 in stock, the others 5. */
function tshirtVariants(over: (size: string, colour: string) => Record<string, unknown> = () => ({})) {
  return SIZES.values.flatMap((size) => COLOURS.values.map((colour) => ({
    options: { Size: size, Colour: colour },
    price: size === 'M' ? 22 : 20,
    countInStock: size === 'M' && colour === 'Red' ? 3 : 5,
    sku: `TEE-${size}-${colour.toUpperCase()}`,
    enabled: true,
    ...over(size, colour),
  })));
}

describe(`own products with options and variants (issue 34), on ${TEST_DB}`, () => {
  let t: TestApp;
  let admin: TestUser;

  /** What the admin form sends: every field as loaded, without price and stock (set per variant). */
  const formBody = (p: Pick<Product, '_id' | 'name' | 'slug' | 'image' | 'category' | 'brand' | 'description'>, over: Record<string, unknown> = {}) => ({
    _id: p._id, name: p.name, slug: p.slug, image: p.image, category: p.category, brand: p.brand, description: p.description, ...over,
  });
  const put = <T = ProductUpdateResponse>(id: string, body: unknown) => call<T>(t, admin, 'PUT', `/api/products/${id}`, body);
  const variantRows = async (productId: string) => t.database.db.select().from(productVariants)
    .where(eq(productVariants.productId, productId)).orderBy(asc(productVariants.position), asc(productVariants.id));
  const productRow = async (productId: string) => (await t.database.db.select().from(products).where(eq(products.id, productId)))[0]!;
  const idOf = (p: Product, name: string) => p.productVariants!.find((v) => v.name === name)!._id;

  /** A published own product turned into a T-shirt in Size x Colour by the product form. */
  async function createTshirt(over: (size: string, colour: string) => Record<string, unknown> = () => ({}), name = 'Classic Tee'): Promise<Product> {
    const plain = await createProduct(t, { name, countInStock: 7, price: 19 });
    const res = await put(plain.id, formBody({ ...plain, _id: plain.id }, { options: [SIZES, COLOURS], variants: tshirtVariants(over) }));
    if (res.status !== 200) throw new Error(`PUT failed: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body.product;
  }

  async function buy(user: TestUser, productId: string, variantId: string, quantity: number) {
    const cart = await call<Cart>(t, user, 'POST', '/api/cart/items', { productId, quantity, variantId });
    expect(cart.status).toBe(200);
    return call<Order>(t, user, 'POST', '/api/orders', { shippingAddress: sampleAddress(), paymentMethod: 'PayPal' });
  }

  beforeAll(async () => {
    t = await createTestApp();
    admin = await createAdmin(t);
  });
  afterAll(async () => { await t.close(); });

  it('saves Size x Colour as six variants: the product costs the lowest, holds their stock, and lists them for shoppers', async () => {
    const tee = await createTshirt();
    expect(tee.options).toEqual([SIZES, COLOURS]);
    expect(tee.productVariants!.map((v) => v.name)).toEqual(['S / Red', 'S / Blue', 'M / Red', 'M / Blue', 'L / Red', 'L / Blue']);
    expect(tee.productVariants![2]).toMatchObject({
      name: 'M / Red', variantKey: '', price: 22, finalPrice: 22, countInStock: 3, enabled: true, sku: 'TEE-M-RED', options: { Size: 'M', Colour: 'Red' },
    });
    expect(tee).toMatchObject({ price: 20, finalPrice: 20, countInStock: 28, priceRange: { min: 20, max: 22 } });

    // The product page, the home grid and search: 'From $20.00' needs the range; only the page lists variants.
    const page = await call<Product>(t, null, 'GET', `/api/products/slug/${tee.slug}`);
    expect(page.status).toBe(200);
    expect(page.body.productVariants!.map((v) => v.name)).toEqual(tee.productVariants!.map((v) => v.name));
    expect(page.body).toMatchObject({ options: [SIZES, COLOURS], priceRange: { min: 20, max: 22 }, countInStock: 28 });
    const home = await call<Product[]>(t, null, 'GET', '/api/products');
    const card = home.body.find((p) => p._id === tee._id)!;
    expect(card).toMatchObject({ price: 20, priceRange: { min: 20, max: 22 }, countInStock: 28 });
    expect(card.productVariants).toBeUndefined();
    const search = await call<ProductSearchResponse>(t, null, 'GET', '/api/products/search?query=classic%20tee&price=1-20', undefined);
    expect(search.body.products.map((p) => p._id)).toContain(tee._id);

    // Search engines read the range too (schema.org AggregateOffer).
    const row = (await findProductRow(t.database.db, eq(products.id, tee._id)))!;
    expect(productJsonLd(row, 'https://shop.example.com/p', 'https://shop.example.com').offers).toMatchObject({ '@type': 'AggregateOffer', lowPrice: '20.00', highPrice: '22.00' });

    // A sale discount applies to every variant.
    const onSale = await put(tee._id, formBody(tee, { isOnSale: true, saleDiscount: 10 }));
    expect(onSale.status).toBe(200);
    expect(onSale.body.product).toMatchObject({ finalPrice: 18, priceRange: { min: 18, max: 19.8 } });
    expect(onSale.body.product.productVariants![2]).toMatchObject({ price: 22, finalPrice: 19.8 });
  });

  it('buying M / Red takes only that variant\'s stock, and the order and cart name the variant', async () => {
    const tee = await createTshirt();
    const mRed = idOf(tee, 'M / Red');
    const buyer = await createUser(t);
    const refused = await call<Refused>(t, buyer, 'POST', '/api/cart/items', { productId: tee._id, quantity: 1 });
    expect(refused).toMatchObject({ status: 400, body: { message: CHOOSE_VARIANT_MESSAGE } });

    const cart = await call<Cart>(t, buyer, 'POST', '/api/cart/items', { productId: tee._id, quantity: 2, variantId: mRed });
    expect(cart.body.cartItems).toEqual([expect.objectContaining({ _id: tee._id, variantId: mRed, variantName: 'M / Red', price: 22, countInStock: 3, quantity: 2 })]);
    const order = await call<Order>(t, buyer, 'POST', '/api/orders', { shippingAddress: sampleAddress(), paymentMethod: 'PayPal' });
    expect(order.status).toBe(201);
    expect(order.body).toMatchObject({ itemsPrice: 44, totalPrice: 44 });
    expect(order.body.orderItems).toEqual([expect.objectContaining({ product: tee._id, variantId: mRed, variantName: 'M / Red', price: 22, quantity: 2, tracking: null })]);

    const after = new Map((await variantRows(tee._id)).map((v) => [v.name, v.countInStock]));
    expect(Object.fromEntries(after)).toEqual({ 'S / Red': 5, 'S / Blue': 5, 'M / Red': 1, 'M / Blue': 5, 'L / Red': 5, 'L / Blue': 5 });
    expect(await stockOf(t, tee._id)).toBe(26);
    const shown = await call<Order>(t, buyer, 'GET', `/api/orders/${order.body._id}`);
    expect(shown.body.orderItems[0]).toMatchObject({ variantId: mRed, variantName: 'M / Red', tracking: null });

    // The unpaid order expires: the stock goes back to M / Red, and to the product's sum.
    expect(await expireUnpaidOrders(t.database.db, new Date(Date.now() + 24 * 3_600_000))).toContain(order.body._id);
    expect((await variantRows(tee._id)).find((v) => v.name === 'M / Red')!.countInStock).toBe(3);
    expect(await stockOf(t, tee._id)).toBe(28);
  });

  it('concurrent buyers of the last unit of one variant: exactly one order is placed', async () => {
    const tee = await createTshirt((size, colour) => (size === 'L' && colour === 'Blue' ? { countInStock: 1 } : {}));
    const lBlue = idOf(tee, 'L / Blue');
    const buyers = await Promise.all(Array.from({ length: 8 }, (_, i) => createUser(t, { name: `Tee buyer ${i}` })));
    for (const b of buyers) expect((await call(t, b, 'POST', '/api/cart/items', { productId: tee._id, quantity: 1, variantId: lBlue })).status).toBe(200);
    const results = await Promise.all(buyers.map((b) => call<Order | Refused>(t, b, 'POST', '/api/orders', { shippingAddress: sampleAddress() })));
    expect(results.filter((r) => r.status === 201)).toHaveLength(1);
    expect(results.filter((r) => r.status === 400).map((r) => (r.body as Refused).message)).toEqual(Array(7).fill(OUT_OF_STOCK_MESSAGE));
    const rows = await variantRows(tee._id);
    expect(rows.find((v) => v.name === 'L / Blue')!.countInStock).toBe(0);
    expect(rows.filter((v) => v.name !== 'L / Blue').every((v) => v.countInStock === (v.name === 'M / Red' ? 3 : 5))).toBe(true);
    expect(await stockOf(t, tee._id)).toBe(23);
    const sold = await t.database.db.select().from(orderItems).where(eq(orderItems.variantId, lBlue));
    expect(sold.map((l) => l.quantity)).toEqual([1]);
  });

  it('refuses options and variants that break a rule, with a clear message, and changes nothing', async () => {
    const plain = await createProduct(t, { name: 'Rule Tee', countInStock: 4, price: 12 });
    const base = formBody({ ...plain, _id: plain.id });
    const v = (options: Record<string, string>, over: Record<string, unknown> = {}) => ({ options, price: 10, countInStock: 1, ...over });
    const cases: Array<[string, Record<string, unknown>, string, Record<string, string>]> = [
      ['four options', { options: [SIZES, COLOURS, { name: 'Fit', values: ['Slim'] }, { name: 'Sleeve', values: ['Short'] }], variants: [] },
        T.tooManyOptions, { options: T.tooManyOptions }],
      ['a blank option name', { options: [{ name: ' ', values: ['S'] }], variants: [v({ Size: 'S' })] }, T.optionName, { 'options.0.name': T.optionName }],
      ['a name twice', { options: [SIZES, { name: 'size', values: ['XL'] }], variants: [] }, T.optionNameTaken('size'), { 'options.1.name': T.optionNameTaken('size') }],
      ['a value twice', { options: [{ name: 'Size', values: ['S', 's'] }], variants: [] }, T.optionValueTaken('Size', 's'), { 'options.0.values': T.optionValueTaken('Size', 's') }],
      ['an option without values', { options: [{ name: 'Size', values: [] }], variants: [] }, T.optionValues('Size'), { 'options.0.values': T.optionValues('Size') }],
      ['options without variants', { options: [SIZES], variants: [] }, T.variantsRequired, { variants: T.variantsRequired }],
      ['variants without options', { options: [], variants: [v({ Size: 'S' })] }, T.optionsRequired, { variants: T.optionsRequired }],
      ['a variant without a value of an option', { options: [SIZES, COLOURS], variants: [v({ Size: 'S' })] },
        T.variantOptionMissing('Variant 1', 'Colour'), { 'variants.0.options': T.variantOptionMissing('Variant 1', 'Colour') }],
      ['a value the option does not have', { options: [SIZES], variants: [v({ Size: 'XXL' })] },
        T.variantValueUnknown('Variant 1', 'Size', 'XXL'), { 'variants.0.options': T.variantValueUnknown('Variant 1', 'Size', 'XXL') }],
      ['an option the product does not have', { options: [SIZES], variants: [v({ Size: 'S', Fit: 'Slim' })] },
        T.variantOptionUnknown('Variant 1', 'Fit'), { 'variants.0.options': T.variantOptionUnknown('Variant 1', 'Fit') }],
      ['a combination twice', { options: [SIZES], variants: [v({ Size: 'S' }), v({ size: 's' })] }, T.variantTaken('S'), { 'variants.1.options': T.variantTaken('S') }],
      ['a free variant', { options: [SIZES], variants: [v({ Size: 'S' }), v({ Size: 'M' }, { price: 0 })] }, `M: ${M.price}`, { 'variants.1.price': M.price }],
      ['a price that is not a number', { options: [SIZES], variants: [v({ Size: 'S' }, { price: 'abc' })] }, M.priceFormat, { 'variants.0.price': M.priceFormat }],
      ['a negative stock', { options: [SIZES], variants: [v({ Size: 'S' }, { countInStock: -1 })] }, `S: ${M.countInStock}`, { 'variants.0.countInStock': M.countInStock }],
      ['a fractional stock', { options: [SIZES], variants: [v({ Size: 'S' }, { countInStock: '1.5' })] }, M.countInStockFormat, { 'variants.0.countInStock': M.countInStockFormat }],
      ['a new variant without stock', { options: [SIZES], variants: [v({ Size: 'S' }, { countInStock: undefined })] },
        `S: ${T.variantStockRequired}`, { 'variants.0.countInStock': T.variantStockRequired }],
      ['a SKU twice', { options: [SIZES], variants: [v({ Size: 'S' }, { sku: 'A1' }), v({ Size: 'M' }, { sku: 'a1' })] }, T.skuTaken('a1'), { 'variants.1.sku': T.skuTaken('a1') }],
      ['a sale that makes a variant free', { isOnSale: true, saleDiscount: 100, options: [SIZES], variants: [v({ Size: 'S' })] },
        `S: ${M.finalPriceMin}`, { 'variants.0.price': M.finalPriceMin }],
      ['a variant id of another product', { options: [SIZES], variants: [v({ Size: 'S' }, { _id: 'f'.repeat(24) })] }, T.variantId('S'), { 'variants.0._id': T.variantId('S') }],
      ['options without variants in the body', { options: [SIZES] }, T.sendTogether, { variants: T.sendTogether }],
    ];
    for (const [what, over, message, fieldErrors] of cases) {
      const res = await put<Refused>(plain.id, { ...base, ...over });
      expect({ what, status: res.status, body: res.body }).toEqual({ what, status: 400, body: { message, code: 'VALIDATION_ERROR', fieldErrors } });
    }
    expect(await variantRows(plain.id)).toEqual([]);
    expect(await productRow(plain.id)).toMatchObject({ options: [], price: 12, countInStock: 4, variantPriceMax: null, isOnSale: false });

    // A product with options takes its price and stock from its variants: the form cannot set them.
    const tee = await createTshirt();
    const price = await put<Refused>(tee._id, formBody(tee, { price: 25 }));
    expect(price).toEqual({ status: 400, body: { message: T.priceIsPerVariant, code: VARIANT_PRODUCT_FIELDS_CODE, fieldErrors: { price: T.priceIsPerVariant } } });
    const stock = await put<Refused>(tee._id, formBody(tee, { countInStock: 100 }));
    expect(stock).toEqual({ status: 400, body: { message: T.stockIsPerVariant, code: VARIANT_PRODUCT_FIELDS_CODE, fieldErrors: { countInStock: T.stockIsPerVariant } } });
    // Sending the values it has is no change.
    expect((await put(tee._id, formBody(tee, { price: tee.price, countInStock: tee.countInStock, description: 'Soft cotton.' }))).status).toBe(200);

    // A supplier product's variants are the supplier's.
    const supplier = await createProduct(t, { name: 'Supplier Mug', cjData: { pid: 'PID-OWN-VARIANTS', vid: 'V1', variants: [{ vid: 'V1' }] } });
    const cj = await put<Refused>(supplier.id, formBody({ ...supplier, _id: supplier.id }, { options: [SIZES], variants: [v({ Size: 'S' })] }));
    expect(cj).toMatchObject({ status: 400, body: { code: SUPPLIER_PRODUCT_FIELDS_CODE, fieldErrors: { variants: T.supplierVariants } } });
  });

  it('a variant with orders is switched off, not deleted; one without orders is deleted; options with ordered variants cannot be removed', async () => {
    const tee = await createTshirt();
    const mRed = idOf(tee, 'M / Red');
    const sBlue = idOf(tee, 'S / Blue');
    const buyer = await createUser(t);
    const order = await buy(buyer, tee._id, mRed, 1);
    expect(order.status).toBe(201);
    const later = await createUser(t);
    expect((await call(t, later, 'POST', '/api/cart/items', { productId: tee._id, quantity: 1, variantId: mRed })).status).toBe(200);

    // The form drops Red: M / Red has an order, S / Red and L / Red have none.
    const blueOnly = tee.productVariants!.filter((x) => x.options!.Colour === 'Blue')
      .map((x) => ({ _id: x._id, options: x.options, price: x.price, sku: x.sku, enabled: true }));
    const saved = await put(tee._id, formBody(tee, { options: [SIZES, { name: 'Colour', values: ['Blue'] }], variants: blueOnly }));
    expect(saved.status).toBe(200);
    expect(saved.body.product.options).toEqual([SIZES, { name: 'Colour', values: ['Blue'] }]);
    const rows = await variantRows(tee._id);
    expect(rows.map((r) => [r.name, r.enabled])).toEqual([['S / Blue', true], ['M / Blue', true], ['L / Blue', true], ['M / Red', false]]);
    expect(rows.find((r) => r.id === sBlue)).toBeDefined();
    // The product's stock is the Blue ones' (5 each); M / Red keeps its 2 for the order's record.
    expect(await productRow(tee._id)).toMatchObject({ countInStock: 15, price: 20, variantPriceMax: 22 });
    expect(rows.find((r) => r.id === mRed)!.countInStock).toBe(2);

    // Shoppers no longer see it; the order still points at it; a cart holding it loses it with a notice.
    const page = await call<Product>(t, null, 'GET', `/api/products/slug/${tee.slug}`);
    expect(page.body.productVariants!.map((x) => x.name)).toEqual(['S / Blue', 'M / Blue', 'L / Blue']);
    const adminView = await call<Product>(t, admin, 'GET', `/api/products/${tee._id}`);
    expect(adminView.body.productVariants!.map((x) => [x.name, x.enabled])).toEqual([['S / Blue', true], ['M / Blue', true], ['L / Blue', true], ['M / Red', false]]);
    const shown = await call<Order>(t, buyer, 'GET', `/api/orders/${(order.body as Order)._id}`);
    expect(shown.body.orderItems[0]).toMatchObject({ variantId: mRed, variantName: 'M / Red' });
    const cart = await call<Cart>(t, later, 'GET', '/api/cart');
    expect(cart.body).toEqual({ cartItems: [], notices: ["'Classic Tee' is no longer available and was removed from your cart"] });

    // The order expires: its unit goes back to the switched-off variant, not to the product's stock on sale.
    expect(await expireUnpaidOrders(t.database.db, new Date(Date.now() + 24 * 3_600_000))).toContain((order.body as Order)._id);
    expect((await variantRows(tee._id)).find((r) => r.id === mRed)!.countInStock).toBe(3);
    expect(await stockOf(t, tee._id)).toBe(15);

    // Removing every option would leave the ordered variant without a product to belong to.
    const removeAll = await put<Refused>(tee._id, formBody(tee, { options: [], variants: [] }));
    expect(removeAll).toEqual({ status: 409, body: { message: T.orderedVariants, code: VARIANTS_HAVE_ORDERS_CODE, fieldErrors: { options: T.orderedVariants } } });
    expect(await variantRows(tee._id)).toHaveLength(4);
  });

  it('a product without options removes them all, and answers as it always did', async () => {
    const plain = await createProduct(t, { name: 'Plain Mug', countInStock: 6, price: 9.5 });
    const before = await call<Product>(t, admin, 'GET', `/api/products/${plain.id}`);
    expect(before.body).not.toHaveProperty('options');
    expect(before.body).not.toHaveProperty('priceRange');
    expect(before.body).not.toHaveProperty('productVariants');
    const saved = await put(plain.id, formBody(before.body, { options: [], variants: [], description: 'Still plain.' }));
    expect(saved.status).toBe(200);
    expect(saved.body.product).toEqual({ ...before.body, isDraft: false, description: 'Still plain.', updatedAt: saved.body.product.updatedAt, reviews: undefined });

    // A T-shirt whose variants were never ordered can go back to being one product.
    const tee = await createTshirt();
    const back = await put(tee._id, formBody(tee, { options: [], variants: [], price: 15, countInStock: 4 }));
    expect(back.status).toBe(200);
    expect(back.body.product).toMatchObject({ price: 15, countInStock: 4 });
    expect(back.body.product).not.toHaveProperty('options');
    expect(await variantRows(tee._id)).toEqual([]);
    expect(await productRow(tee._id)).toMatchObject({ options: [], variantPriceMax: null });
  });

  it('a plain cart line of a product that gets options is dropped with a notice; a stale variant recount is refused with 409', async () => {
    const plain = await createProduct(t, { name: 'Growing Tee', countInStock: 5, price: 15 });
    const shopper = await createUser(t);
    expect((await call(t, shopper, 'POST', '/api/cart/items', { productId: plain.id, quantity: 1 })).status).toBe(200);
    const saved = await put(plain.id, formBody({ ...plain, _id: plain.id }, { options: [SIZES], variants: SIZES.values.map((s) => ({ options: { Size: s }, price: 15, countInStock: 2 })) }));
    expect(saved.status).toBe(200);
    const cart = await call<Cart>(t, shopper, 'GET', '/api/cart');
    expect(cart.body).toEqual({ cartItems: [], notices: ["'Growing Tee' now comes in options and was removed from your cart: choose one on its page"] });

    // The admin form loaded S with 2; an order takes one; a recount from 2 is refused.
    const s = idOf(saved.body.product, 'S');
    expect((await buy(shopper, plain.id, s, 1)).status).toBe(201);
    const variants = saved.body.product.productVariants!.map((x) => ({ _id: x._id, options: x.options, price: x.price }));
    variants[0] = { ...variants[0]!, countInStock: 10, countInStockWas: 2 } as (typeof variants)[0];
    const stale = await put<Refused>(plain.id, formBody(saved.body.product, { options: [SIZES], variants }));
    expect(stale).toEqual({
      status: 409, body: { message: `S: ${stockChangedMessage(2, 1)}`, code: STOCK_CHANGED_CODE, fieldErrors: { 'variants.0.countInStock': stockChangedMessage(2, 1) } },
    });
    expect((await variantRows(plain.id)).map((r) => r.countInStock)).toEqual([1, 2, 2]);
    // A save that leaves the stock out keeps what the order left.
    const kept = await put(plain.id, formBody(saved.body.product, { options: [SIZES], variants: variants.map(({ _id, options, price }) => ({ _id, options, price: price! + 1 })) }));
    expect(kept.status).toBe(200);
    expect((await variantRows(plain.id)).map((r) => [r.price, r.countInStock])).toEqual([[16, 1], [16, 2], [16, 2]]);
    expect(await stockOf(t, plain.id)).toBe(5);
  });

  it('the assistant names the sizes and colours on sale', async () => {
    await createTshirt((size) => (size === 'L' ? { enabled: false } : {}), 'Harbor Hoodie');
    const sock = await createProduct(t, { name: 'Trail Sock', price: 6 });
    expect((await put(sock.id, formBody({ ...sock, _id: sock.id }, {
      options: [SIZES], variants: SIZES.values.map((s) => ({ options: { Size: s }, price: 6, countInStock: s === 'S' ? 0 : 12 })),
    }))).status).toBe(200);
    const tools = createShopTools(t.database.db);
    const guest = { id: 'guest', name: 'Ann', isGuest: true, isSignedIn: false };
    const hoodie = await answerBuiltIn(tools, guest, 'Do you have the harbor hoodie?');
    expect(hoodie.text).toMatch(/\[Harbor Hoodie\]\(\/product\/[\w-]+\) by Acme: available in S, M \(Size\) and Red, Blue \(Colour\)\. Variants: S \/ Red \$20\.00 \(in stock \(only 5 left\)\), S \/ Blue \$20\.00 \(in stock \(only 5 left\)\), M \/ Red \$22\.00 \(in stock \(only 3 left\)\), M \/ Blue \$22\.00 \(in stock \(only 5 left\)\)\./);
    expect(hoodie.text).not.toContain('L / ');
    const socks = await answerBuiltIn(tools, guest, 'How much are trail socks?');
    expect(socks.text).toMatch(/\[Trail Sock\]\(\/product\/[\w-]+\) by Acme: available in S, M, L\. Variants: S \$6\.00 \(currently out of stock\), M \$6\.00 \(in stock \(12 available\)\), L \$6\.00 \(in stock \(12 available\)\)\./);
  });
});
