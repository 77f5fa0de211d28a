import {
  OUT_OF_STOCK_MESSAGE, STOCK_CHANGED_CODE, stockChangedMessage, SUPPLIER_PRODUCT_FIELDS_CODE, SUPPLIER_PRODUCT_FORM_MESSAGES as SUPPLIER,
  type Product,
} from '@shop/contracts';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { products, productVariants } from '../../db/schema.ts';
import { newId } from '../../lib/ids.ts';
import { addToCart, call, createProduct, placeOrderFor, sampleAddress, stockOf } from '../../test/commerce-factories.ts';
import { createAdmin, createTestApp, createUser, TEST_DB, type TestApp, type TestUser } from '../../test/test-app.ts';

type Saved = { message: string; product: Product };
type Refused = { message: string; code?: string; fieldErrors?: Record<string, string> };

/** What the product form sends: every field as loaded, except the stock (sent only when changed). */
const formBody = (p: Product, over: Record<string, unknown> = {}) => ({
  _id: p._id, name: p.name, slug: p.slug, price: p.price, image: p.image, images: p.images, category: p.category, brand: p.brand,
  description: p.description, isTodaysDeal: p.isTodaysDeal, isGift: p.isGift, isOnSale: p.isOnSale, saleDiscount: p.saleDiscount, ...over,
});

describe(`PUT /api/products/{id}: stock and supplier products, on ${TEST_DB}`, () => {
  let t: TestApp;
  let admin: TestUser;

  const load = async (id: string) => (await call<Product>(t, admin, 'GET', `/api/products/${id}`)).body;
  const put = <T = Saved>(id: string, body: unknown) => call<T>(t, admin, 'PUT', `/api/products/${id}`, body);

  beforeAll(async () => {
    t = await createTestApp();
    admin = await createAdmin(t);
  });
  afterAll(async () => { await t.close(); });

  it('a stale form saved without countInStock keeps the stock the orders left: the last unit is not sold twice', async () => {
    const product = await createProduct(t, { countInStock: 1 });
    const first = await createUser(t);
    const second = await createUser(t);
    await addToCart(t, second, product.id); // while one is left
    const form = await load(product.id); // the admin opens the edit form: stock 1
    expect(form.countInStock).toBe(1);

    await placeOrderFor(t, first, [{ productId: product.id, quantity: 1 }]);
    expect(await stockOf(t, product.id)).toBe(0);

    const saved = await put(product.id, formBody(form, { description: 'Fixed the description.' }));
    expect(saved.status).toBe(200);
    expect(saved.body.product).toMatchObject({ description: 'Fixed the description.', countInStock: 0 });
    expect(await stockOf(t, product.id)).toBe(0);

    const refused = await call<Refused>(t, second, 'POST', '/api/orders', { shippingAddress: sampleAddress(), paymentMethod: 'PayPal' });
    expect(refused).toMatchObject({ status: 400, body: { message: OUT_OF_STOCK_MESSAGE } });
    expect(await stockOf(t, product.id)).toBe(0);
  });

  it('a recount against a stock that orders changed since the form loaded is refused with 409; nothing is written', async () => {
    const product = await createProduct(t, { countInStock: 3 });
    const form = await load(product.id);
    await placeOrderFor(t, await createUser(t), [{ productId: product.id, quantity: 2 }]);

    const refused = await put<Refused>(product.id, formBody(form, { description: 'New text', countInStock: 10, countInStockWas: 3 }));
    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject({
      code: STOCK_CHANGED_CODE, message: stockChangedMessage(3, 1), fieldErrors: { countInStock: stockChangedMessage(3, 1) },
    });
    const [row] = await t.database.db.select().from(products).where(eq(products.id, product.id));
    expect(row).toMatchObject({ countInStock: 1, description: product.description });

    // Against the stock as it is now, the recount is written.
    const saved = await put(product.id, formBody(form, { countInStock: 10, countInStockWas: 1 }));
    expect(saved.status).toBe(200);
    expect(await stockOf(t, product.id)).toBe(10);
  });

  it('still writes countInStock sent without countInStockWas (older clients), and validates it', async () => {
    const product = await createProduct(t, { countInStock: 4 });
    const form = await load(product.id);
    expect((await put(product.id, formBody(form, { countInStock: '7' }))).status).toBe(200);
    expect(await stockOf(t, product.id)).toBe(7);
    const bad = await put<Refused>(product.id, formBody(form, { countInStock: -1 }));
    expect(bad).toMatchObject({ status: 400, body: { fieldErrors: { countInStock: 'Count in stock must be greater than 0' } } });
    expect(await stockOf(t, product.id)).toBe(7);
  });

  describe('a supplier (CJ) product', () => {
    let supplied: Product;
    const vid = 'V-MAIN-1';

    const variantOf = async (productId: string) =>
      (await t.database.db.select().from(productVariants).where(eq(productVariants.productId, productId)))[0];

    beforeAll(async () => {
      const row = await createProduct(t, {
        name: 'Supplier Lamp', price: 26.99, countInStock: 100, supplierCost: 17.92,
        cjData: { pid: `P-${newId().slice(-8)}`, vid, variants: [{ vid }] },
      });
      await t.database.db.insert(productVariants).values({ id: newId(), productId: row.id, vid, name: 'Main', supplierCost: 17.92, price: 26.99, countInStock: 100 });
      supplied = await load(row.id);
      expect(supplied.cjData).toBeTruthy();
    });

    it.each([
      ['price', { price: 20 }, ['price']],
      ['price sent as a decimal string', { price: '27.50' }, ['price']],
      ['sale', { isOnSale: true, saleDiscount: 50 }, ['isOnSale', 'saleDiscount']],
      ['stock', { countInStock: 5 }, ['countInStock']],
      ['stock with countInStockWas', { countInStock: 5, countInStockWas: 100 }, ['countInStock']],
    ])('refuses a change of %s with 400 and writes nothing', async (_what, change, fields) => {
      const res = await put<Refused>(supplied._id, formBody(supplied, { description: 'Changed too', ...change }));
      expect(res.status).toBe(400);
      expect(res.body.message).toBe(SUPPLIER.locked);
      expect(res.body.message).toBe('Price, sale and stock of a supplier product are set in the supplier catalogue (Admin → CJ Products)');
      expect(res.body.code).toBe(SUPPLIER_PRODUCT_FIELDS_CODE);
      expect(Object.keys(res.body.fieldErrors ?? {}).sort()).toEqual([...fields].sort());
      for (const f of fields) expect(res.body.fieldErrors?.[f]).toBe(SUPPLIER[f as keyof typeof SUPPLIER]);
      const [row] = await t.database.db.select().from(products).where(eq(products.id, supplied._id));
      expect(row).toMatchObject({ price: 26.99, isOnSale: false, saleDiscount: 0, countInStock: 100, description: supplied.description });
      expect(await variantOf(supplied._id)).toMatchObject({ price: 26.99, countInStock: 100 });
    });

    it('saves the other fields when price, sale and stock are the stored values or left out', async () => {
      // As the generic form sent them before (every field, numbers possibly as strings).
      const same = await put(supplied._id, formBody(supplied, { name: 'Supplier Desk Lamp', price: '26.99', countInStock: 100, saleDiscount: 30 }));
      expect(same.status).toBe(200);
      expect(same.body.product).toMatchObject({ name: 'Supplier Desk Lamp', price: 26.99, finalPrice: 26.99, countInStock: 100, isOnSale: false });
      // As the form sends them now: without price, sale and stock.
      const { price: _p, isOnSale: _s, saleDiscount: _d, ...rest } = formBody(supplied);
      const left = await put(supplied._id, { ...rest, description: 'Warm light.', brand: 'Lumo', isGift: true, images: ['/uploads/lamp-2.webp'] });
      expect(left.status).toBe(200);
      expect(left.body.product).toMatchObject({
        description: 'Warm light.', brand: 'Lumo', isGift: true, images: ['/uploads/lamp-2.webp'], price: 26.99, countInStock: 100,
      });
      expect(left.body.product.cjData).toMatchObject({ vid });
      expect(await variantOf(supplied._id)).toMatchObject({ price: 26.99, countInStock: 100 });
    });

    it('an order of the main variant meanwhile is not undone by a save of the form', async () => {
      const form = await load(supplied._id);
      const variant = (await variantOf(supplied._id))!;
      const buyer = await createUser(t);
      const cart = await call(t, buyer, 'POST', '/api/cart/items', { productId: supplied._id, variantId: variant.id.trim(), quantity: 2 });
      expect(cart.status).toBe(200);
      const order = await call(t, buyer, 'POST', '/api/orders', { shippingAddress: sampleAddress(), paymentMethod: 'PayPal' });
      expect(order.status).toBe(201);
      expect(await variantOf(supplied._id)).toMatchObject({ countInStock: 98 });
      const stockAfterOrder = await stockOf(t, supplied._id);
      expect(stockAfterOrder).toBe(98);
      // The form loaded 100: sent as it was (an older client), it is a change and refused; left out, it is kept.
      expect((await put<Refused>(supplied._id, formBody(form, { countInStock: 100 }))).status).toBe(400);
      expect((await put(supplied._id, formBody(form, { name: 'Supplier Lamp' }))).status).toBe(200);
      expect(await stockOf(t, supplied._id)).toBe(98);
      expect(await variantOf(supplied._id)).toMatchObject({ price: 26.99, countInStock: 98 });
    });
  });
});
