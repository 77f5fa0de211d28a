import {
  applyPricingRule, CJ_MESSAGES, supplierNotSoldMessage, type Cart, type CjProductListResponse, type CjProductResponse, type CjPublicProduct,
  type CjSavedItem, type CjSavedListResponse, type CjSaveResponse, type Order, type OrderActionResponse, type Product,
  type ProductSearchResponse, type SupplierOrder, type SupplierOrderListResponse,
} from '@shop/contracts';
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../app.ts';
import { jobs, products } from '../../db/schema.ts';
import { addToCart, call, createProduct, placeOrderFor, sampleAddress, stockOf } from '../../test/commerce-factories.ts';
import { startCjMock, type CjMock } from '../../test/cj-mock.ts';
import { createAdmin, createTestApp, createUser, testConfig, TEST_DB, type TestApp, type TestUser } from '../../test/test-app.ts';
import { SUPPLIER_ORDER_JOB } from './supplier-orders.ts';
import { DEFAULT_PRICING_RULE } from './pricing-rule.ts';
import { UNBRANDED } from './save-supplier-product.ts';
import { createOfflineCatalogue } from './offline-client.ts';

const UNAUTHORIZED = { message: 'Not authorized, please sign in', code: 'UNAUTHORIZED' };
const FORBIDDEN = { message: 'Admin access required', code: 'FORBIDDEN' };

const supplierJobs = (t: TestApp, orderId: string) =>
  t.database.db.select().from(jobs).where(and(eq(jobs.kind, SUPPLIER_ORDER_JOB), eq(jobs.dedupeKey, orderId)));
const rowsWithPid = async (t: TestApp, pid: string) =>
  t.database.db.select({ id: products.id }).from(products).where(sql`(${products.cjData} ->> 'pid') = ${pid}`);

async function payDemo(t: TestApp, user: TestUser, orderId: string) {
  return call<OrderActionResponse>(t, user, 'PUT', `/api/orders/${orderId}/pay`, { demo: true });
}

describe(`supplier catalogue with a CJ account (local CJ server), on ${TEST_DB}`, () => {
  let cj: CjMock;
  let t: TestApp;
  let admin: TestUser;
  let customer: TestUser;
  let env: Record<string, string>;
  const pids = () => [...cj.products.keys()];

  beforeAll(async () => {
    cj = await startCjMock({ products: 45 });
    env = { CJ_API_KEY: cj.apiKey, CJ_API_BASE: cj.url, CJ_REQUESTS_PER_SECOND: '100' };
    t = await createTestApp({ env });
    admin = await createAdmin(t);
    customer = await createUser(t);
  });
  afterAll(async () => {
    await t.close();
    await cj.close();
  });

  it('lets only administrators use the supplier screens: anonymous 401, customer 403, admin 200', async () => {
    const pid = pids()[0]!;
    const routes: Array<['GET' | 'POST' | 'DELETE', string, unknown?]> = [
      ['GET', '/api/cj/status'], ['GET', '/api/cj/categories'], ['GET', '/api/cj/products'], ['GET', `/api/cj/products/${pid}`],
      ['GET', '/api/cj/products/saved'], ['GET', '/api/cj/orders'], ['POST', '/api/cj/products/save', { pid }],
    ];
    for (const [method, url, body] of routes) {
      expect(await call(t, null, method, url, body), `${method} ${url}`).toEqual({ status: 401, body: UNAUTHORIZED });
      expect(await call(t, customer, method, url, body), `${method} ${url}`).toEqual({ status: 403, body: FORBIDDEN });
      expect((await call(t, admin, method, url, body)).status, `${method} ${url}`).toBeLessThan(300);
    }
    expect(await call(t, customer, 'DELETE', `/api/cj/products/${pid}`)).toEqual({ status: 403, body: FORBIDDEN });
    expect((await call(t, admin, 'DELETE', `/api/cj/products/${pid}`)).status).toBe(200);
    expect(await rowsWithPid(t, pid)).toHaveLength(0);
  });

  it('pages the supplier catalogue from page 1 (10 a page), marks saved products and caches pages', async () => {
    const res = await call<CjProductListResponse>(t, admin, 'GET', '/api/cj/products?page=1&limit=10');
    expect(res.status).toBe(200);
    expect(res.body.source).toBe('cj');
    expect(res.body.data).toMatchObject({ pageNum: 1, pageSize: 10, total: 45, totalPages: 5 });
    expect(res.body.data.content).toHaveLength(10);
    const item = res.body.data.content[0]!;
    expect(item).toMatchObject({ pid: pids()[0], productId: pids()[0], isSaved: false, savedProductId: null });
    expect(JSON.parse(item.productImage)).toEqual([item.bigImage]);
    expect(item.price).toBe(Number(/\d+(\.\d+)?/.exec(item.sellPrice)![0]));

    const last = await call<CjProductListResponse>(t, admin, 'GET', '/api/cj/products?page=5');
    expect(last.body.data.content).toHaveLength(5);
    expect(last.body.data.content[0]!.pid).toBe(pids()[40]);
    const beyond = await call<CjProductListResponse>(t, admin, 'GET', '/api/cj/products?page=6');
    expect(beyond.body.data).toMatchObject({ content: [], totalPages: 5 });

    // Paging back is served from the cache: no second call to CJ for the same page.
    const before = cj.count('product/list');
    await call(t, admin, 'GET', '/api/cj/products?page=1&limit=10');
    await call(t, admin, 'GET', '/api/cj/products?page=5');
    expect(cj.count('product/list')).toBe(before);
    const sent = cj.requests.filter((r) => r.path === 'product/list').at(-1)!;
    expect(sent.query).toMatchObject({ pageNum: '6', pageSize: '10' });
  });

  it('searches by name and filters by category, with CJ parameters', async () => {
    const first = cj.products.get(pids()[3]!)!;
    const word = first.productNameEn.split(' ').at(-1)!;
    const res = await call<CjProductListResponse>(t, admin, 'GET', `/api/cj/products?query=${encodeURIComponent(word)}`);
    expect(res.status).toBe(200);
    expect(res.body.data.content.length).toBeGreaterThan(0);
    expect(res.body.data.content.every((p) => p.productNameEn.toLowerCase().includes(word.toLowerCase()))).toBe(true);
    expect(cj.requests.filter((r) => r.path === 'product/list').at(-1)!.query.productNameEn).toBe(word);

    const cats = await call<{ categories: Array<{ categoryId: string; categoryName: string; group: string }> }>(t, admin, 'GET', '/api/cj/categories');
    expect(cats.body.categories.length).toBeGreaterThanOrEqual(5);
    const cat = cats.body.categories.find((c) => c.categoryId === first.categoryId)!;
    expect(first.categoryName).toBe(`${cat.group} > ${cat.categoryName}`);
    const inCat = await call<CjProductListResponse>(t, admin, 'GET', `/api/cj/products?category=${cat.categoryId}&limit=50`);
    expect(inCat.body.data.content.length).toBeGreaterThan(0);
    expect(inCat.body.data.content.every((p) => p.categoryId === cat.categoryId)).toBe(true);
  });

  it('refuses bad paging with clear messages', async () => {
    expect(await call(t, admin, 'GET', '/api/cj/products?page=0')).toMatchObject({
      status: 400, body: { message: 'Page must be a whole number from 1 to 999999' },
    });
    expect(await call(t, admin, 'GET', '/api/cj/products?limit=201')).toMatchObject({
      status: 400, body: { message: 'Limit must be a whole number from 1 to 200' },
    });
    expect(await call(t, admin, 'GET', '/api/cj/products?limit=abc')).toMatchObject({ status: 400 });
  });

  it('shows one supplier product with its variants; an unknown pid is 404', async () => {
    const pid = pids()[5]!;
    const res = await call<CjProductResponse>(t, admin, 'GET', `/api/cj/products/${pid}`);
    expect(res.status).toBe(200);
    const src = cj.products.get(pid)!;
    expect(res.body).toMatchObject({ pid, productNameEn: src.productNameEn, source: 'cj', isSaved: false });
    expect(res.body.variants.map((v) => v.vid)).toEqual(src.variants.map((v) => v.vid));
    expect(res.body.variants.length).toBeGreaterThanOrEqual(1);
    expect(res.body.variants.length).toBeLessThanOrEqual(6);
    expect(res.body.description).not.toMatch(/<p>/);
    expect(JSON.parse(res.body.productImage)).toEqual(res.body.productImageSet);
    expect(await call(t, admin, 'GET', '/api/cj/products/NO-SUCH-PRODUCT')).toEqual({
      status: 404, body: { message: 'Supplier product not found', code: 'SUPPLIER_NOT_FOUND' },
    });
    expect(await call(t, admin, 'GET', `/api/cj/products/${encodeURIComponent('bad pid!')}`)).toMatchObject({
      status: 400, body: { message: 'Product ID is missing' },
    });
  });

  it('saves a product from just its pid (slug from the lower-cased name, stock 100, price from sellPrice) and shows it everywhere', async () => {
    const pid = pids()[6]!;
    const src = cj.products.get(pid)!;
    const res = await call<CjSaveResponse>(t, admin, 'POST', '/api/cj/products/save', { pid, isSaved: true });
    expect(res.status).toBe(201);
    expect(res.body.message).toBe('Product saved successfully!');
    expect(res.body.created).toBe(true);
    const p = res.body.product;
    const expectedSlug = src.productNameEn.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '');
    expect(p).toMatchObject({
      isSaved: true, pid, vid: src.variants[0]!.vid, name: src.productNameEn, nameEn: src.productNameEn, slug: expectedSlug,
      // The price comes from the pricing rule (default: cost + 50 %, ending in .99); no brand is made up.
      countInStock: 100, price: applyPricingRule(Number(src.variants[0]!.variantSellPrice), DEFAULT_PRICING_RULE), brand: UNBRANDED,
      category: src.categoryName.split(' > ').at(-1), image: src.bigImage, images: src.productImageSet.slice(1),
      supplierCost: Number(src.variants[0]!.variantSellPrice), supplierDiscontinuedAt: null,
    });
    expect(p.cjData).toMatchObject({ pid, vid: src.variants[0]!.vid, variants: src.variants.map((v) => expect.objectContaining({ vid: v.vid })) });
    // Shoppers never see what the supplier charges us.
    expect(JSON.stringify(p.cjData)).not.toContain('variantSellPrice');
    expect(p.margin).toBe(Math.round((p.price - p.supplierCost!) * 100) / 100);

    // It is a product: home grid, search, its public page, and a 24-character id.
    const home = await call<Product[]>(t, null, 'GET', '/api/products');
    expect(home.body.map((x) => x._id)).toContain(p._id);
    const search = await call<ProductSearchResponse>(t, null, 'GET', `/api/products/search?query=${encodeURIComponent(src.productNameEn)}`);
    expect(search.body.products.map((x) => x._id)).toContain(p._id);
    const pub = await call<CjPublicProduct>(t, null, 'GET', `/api/cj/products/saved/slug/${p.slug}`);
    expect(pub.status).toBe(200);
    expect(pub.body).toMatchObject({ _id: p._id, isSaved: true, vid: p.vid, isDiscontinued: false, reviews: [] });
    expect(pub.body.variants).toHaveLength(src.variants.length);
    expect(JSON.stringify(pub.body)).not.toContain('supplierCost');
    expect(p._id).toMatch(/^[0-9a-f]{24}$/);
    const byId = await call<CjSavedItem>(t, admin, 'GET', `/api/cj/products/saved/${p._id}`);
    expect(byId.body).toMatchObject({ _id: p._id, pid });

    // The supplier list now marks it saved.
    const list = await call<CjProductListResponse>(t, admin, 'GET', '/api/cj/products?page=1&limit=10');
    expect(list.body.data.content.find((x) => x.pid === pid)).toMatchObject({ isSaved: true, savedProductId: p._id });
  });

  it('saving the same pid twice updates the one product, never duplicates it', async () => {
    const pid = pids()[7]!;
    const src = cj.products.get(pid)!;
    const vid = src.variants.at(-1)!.vid;
    const first = await call<CjSaveResponse>(t, admin, 'POST', '/api/cj/products/save', { pid });
    expect(first.status).toBe(201);
    const body = {
      pid, isSaved: true, vid, category: 'Gadgets', brand: 'Acme', countInStock: 7, slug: `my-${first.body.product.slug}`,
      price: '24.99', name: 'My Better Name', description: 'Our own words', image: first.body.product.image, images: [],
      isTodaysDeal: true, isGift: false, isOnSale: true, saleDiscount: 10,
    };
    const second = await call<CjSaveResponse>(t, admin, 'POST', '/api/cj/products/save', body);
    expect(second.status).toBe(200);
    expect(second.body.created).toBe(false);
    expect(second.body.product).toMatchObject({
      _id: first.body.product._id, vid, name: 'My Better Name', slug: body.slug, price: 24.99, finalPrice: 22.49, countInStock: 7,
      category: 'Gadgets', brand: 'Acme', isOnSale: true, saleDiscount: 10, isTodaysDeal: true,
      supplierCost: Number(src.variants.at(-1)!.variantSellPrice),
    });
    expect(second.body.product.margin).toBe(Math.round((22.49 - Number(src.variants.at(-1)!.variantSellPrice)) * 100) / 100);
    // Saving again with only the pid keeps what the administrator chose.
    const third = await call<CjSaveResponse>(t, admin, 'POST', '/api/cj/products/save', { pid });
    expect(third.body.product).toMatchObject({ _id: first.body.product._id, name: 'My Better Name', price: 24.99, vid });
    // Two first saves at the same moment still make one product.
    const pid2 = pids()[8]!;
    const both = await Promise.all([1, 2].map(() => call<CjSaveResponse>(t, admin, 'POST', '/api/cj/products/save', { pid: pid2 })));
    expect(both.map((r) => r.status).sort()).toEqual([200, 201]);
    expect(await rowsWithPid(t, pid)).toHaveLength(1);
    expect(await rowsWithPid(t, pid2)).toHaveLength(1);
  });

  it("validates the save with the product form's rules and the supplier extras", async () => {
    expect(await call(t, admin, 'POST', '/api/cj/products/save', {})).toEqual({
      status: 400, body: { message: 'Product ID is missing', code: 'BAD_REQUEST', fieldErrors: { pid: 'Product ID is missing' } },
    });
    expect(await call(t, admin, 'POST', '/api/cj/products/save', { pid: '   ' })).toMatchObject({ status: 400, body: { message: 'Product ID is missing' } });
    const pid = pids()[9]!;
    const noVariants = cj.products.get(pid)!;
    const saved = noVariants.variants;
    noVariants.variants = [];
    expect(await call(t, admin, 'POST', '/api/cj/products/save', { pid })).toEqual({
      status: 400, body: { message: 'Product variant ID is missing', code: 'BAD_REQUEST', fieldErrors: { vid: 'Product variant ID is missing' } },
    });
    noVariants.variants = saved;
    const pid2 = pids()[10]!;
    expect(await call(t, admin, 'POST', '/api/cj/products/save', { pid: pid2, vid: 'NOT-A-VARIANT' })).toMatchObject({
      status: 400, body: { message: CJ_MESSAGES.vidUnknown },
    });
    const bad = await call<{ message: string; fieldErrors: Record<string, string> }>(t, admin, 'POST', '/api/cj/products/save', {
      pid: pid2, price: 0, name: ' ', countInStock: -1, isOnSale: true, saleDiscount: 0, brand: '',
    });
    expect(bad.status).toBe(400);
    expect(bad.body.fieldErrors).toEqual({
      name: 'Name is required', price: 'Price must be greater than 0', countInStock: 'Count in stock must be greater than 0',
      brand: 'Brand is required', saleDiscount: 'Sale discount must be between 1 and 100',
    });
    expect(await call(t, admin, 'POST', '/api/cj/products/save', { pid: 'NO-SUCH-PRODUCT' })).toMatchObject({
      status: 404, body: { message: 'Supplier product not found' },
    });
    const own = await createProduct(t, { slug: 'taken-slug' });
    expect(await call(t, admin, 'POST', '/api/cj/products/save', { pid: pid2, slug: own.slug })).toEqual({
      status: 409, body: { message: 'Slug is already in use', code: 'CONFLICT', fieldErrors: { slug: 'Slug is already in use' } },
    });
    expect(await rowsWithPid(t, pid2)).toHaveLength(0);
  });

  it('answers a clear message when CJ limits requests or is down', async () => {
    const pid = pids()[11]!;
    cj.failNext('product/query', { code: 1600200, message: 'Too Many Requests' }, 4);
    expect(await call(t, admin, 'GET', `/api/cj/products/${pid}`)).toEqual({
      status: 429, body: { message: CJ_MESSAGES.rateLimited, code: 'SUPPLIER_RATE_LIMITED' },
    });
    cj.failNext('product/query', { code: 1600201, message: 'Quota has been used up' });
    expect(await call(t, admin, 'POST', '/api/cj/products/save', { pid })).toEqual({
      status: 429, body: { message: CJ_MESSAGES.quotaUsedUp, code: 'SUPPLIER_QUOTA' },
    });
    expect(await rowsWithPid(t, pid)).toHaveLength(0);
  });

  it('lists saved products with cost and margin, filters them, and deletes one', async () => {
    const res = await call<CjSavedListResponse>(t, admin, 'GET', '/api/cj/products/saved?page=1&limit=10');
    expect(res.status).toBe(200);
    expect(res.body.data.total).toBeGreaterThanOrEqual(3);
    expect(res.body.data.content.every((x) => x.isSaved && x.supplierCost !== null && x.margin !== null)).toBe(true);
    const named = await call<CjSavedListResponse>(t, admin, 'GET', '/api/cj/products/saved?query=better');
    expect(named.body.data.content.map((x) => x.name)).toEqual(['My Better Name']);
    const target = res.body.data.content[0]!;
    const byCat = await call<CjSavedListResponse>(t, admin, 'GET', `/api/cj/products/saved?category=${target.supplierCategoryId}`);
    expect(byCat.body.data.content.every((x) => x.supplierCategoryId === target.supplierCategoryId)).toBe(true);
    expect(byCat.body.data.content.map((x) => x._id)).toContain(target._id);

    expect(await call(t, admin, 'DELETE', `/api/cj/products/${target._id}`)).toEqual({ status: 200, body: { message: 'Product deleted successfully' } });
    expect(await call(t, admin, 'GET', `/api/cj/products/saved/${target._id}`)).toMatchObject({ status: 404, body: { message: 'Product not found' } });
    expect(await call(t, admin, 'DELETE', `/api/cj/products/${target._id}`)).toMatchObject({ status: 404, body: { message: 'Product not found' } });
    expect(await call(t, null, 'GET', `/api/cj/products/saved/slug/${target.slug}`)).toMatchObject({ status: 404, body: { message: 'Product Not Found' } });
    // Only supplier products go through this door.
    const own = await createProduct(t);
    expect(await call(t, admin, 'DELETE', `/api/cj/products/${own.id}`)).toMatchObject({ status: 404 });
    expect(await call(t, null, 'GET', `/api/cj/products/saved/slug/${own.slug}`)).toMatchObject({ status: 404 });
    expect(await stockOf(t, own.id)).toBe(10);
  });

  it('refreshes cost and stock from CJ; a product CJ stopped selling is flagged and cannot be bought', async () => {
    const pid = pids()[12]!;
    const saved = (await call<CjSaveResponse>(t, admin, 'POST', '/api/cj/products/save', { pid })).body.product;
    const buyer = await createUser(t);
    await addToCart(t, buyer, saved._id, 2);
    const v = cj.products.get(pid)!.variants[0]!;
    v.variantSellPrice = 3.33;
    cj.stock.set(saved.vid, 57);
    const refreshed = await call<{ message: string; product: CjSavedItem }>(t, admin, 'POST', `/api/cj/products/saved/${saved._id}/refresh`);
    expect(refreshed.status).toBe(200);
    expect(refreshed.body.message).toBe('Product refreshed from supplier');
    expect(refreshed.body.product).toMatchObject({ supplierCost: 3.33, countInStock: 57, supplierDiscontinuedAt: null });

    // An unpaid order holds 2: the stock offered is CJ's less those.
    const order = await placeOrderFor(t, buyer, []);
    expect(order.orderItems[0]).toMatchObject({ name: saved.name, quantity: 2 });
    await call(t, admin, 'POST', `/api/cj/products/saved/${saved._id}/refresh`);
    expect(await stockOf(t, saved._id)).toBe(55);

    cj.removeProduct(pid);
    const gone = await call<{ message: string; product: CjSavedItem }>(t, admin, 'POST', `/api/cj/products/saved/${saved._id}/refresh`);
    expect(gone.body.message).toBe('The supplier no longer sells this product');
    expect(gone.body.product.supplierDiscontinuedAt).not.toBeNull();
    expect(gone.body.product.countInStock).toBe(0);
    const pub = await call<CjPublicProduct>(t, null, 'GET', `/api/cj/products/saved/slug/${saved.slug}`);
    expect(pub.body).toMatchObject({ isDiscontinued: true, countInStock: 0 });

    const other = await createUser(t);
    expect(await call(t, other, 'POST', '/api/cart/items', { productId: saved._id, quantity: 1 })).toEqual({
      status: 400, body: { message: supplierNotSoldMessage(saved.name), code: 'SUPPLIER_DISCONTINUED' },
    });
    // Already in a cart before it was flagged: placing the order is refused with the same message.
    const late = await createUser(t);
    await t.database.db.update(products).set({ supplierDiscontinuedAt: null, countInStock: 5 }).where(eq(products.id, saved._id));
    await addToCart(t, late, saved._id, 1);
    await t.database.db.update(products).set({ supplierDiscontinuedAt: new Date() }).where(eq(products.id, saved._id));
    expect(await call(t, late, 'POST', '/api/orders', { shippingAddress: sampleAddress(), paymentMethod: 'PayPal' })).toEqual({
      status: 400, body: { message: supplierNotSoldMessage(saved.name), code: 'SUPPLIER_DISCONTINUED' },
    });
    expect(await stockOf(t, saved._id)).toBe(5);
  });

  it('sells a supplier product with the no-oversell guarantee', async () => {
    const pid = pids()[13]!;
    const saved = (await call<CjSaveResponse>(t, admin, 'POST', '/api/cj/products/save', { pid, countInStock: 1 })).body.product;
    const buyers = await Promise.all([createUser(t), createUser(t), createUser(t)]);
    for (const b of buyers) await addToCart(t, b, saved._id, 1);
    const results = await Promise.all(buyers.map((b) => call<Order>(t, b, 'POST', '/api/orders', { shippingAddress: sampleAddress(), paymentMethod: 'PayPal' })));
    expect(results.map((r) => r.status).sort()).toEqual([201, 400, 400]);
    expect(results.filter((r) => r.status === 400).every((r) => (r.body as unknown as { message: string }).message === 'Sorry. Product is out of stock')).toBe(true);
    expect(await stockOf(t, saved._id)).toBe(0);
  });

  it('a paid order with supplier lines makes exactly one CJ order, even with the payment replayed and a restart mid-send', async () => {
    const pid = pids()[14]!;
    const src = cj.products.get(pid)!;
    const saved = (await call<CjSaveResponse>(t, admin, 'POST', '/api/cj/products/save', { pid, vid: src.variants.at(-1)!.vid })).body.product;
    const own = await createProduct(t, { price: 5 });
    const buyer = await createUser(t);
    const order = await placeOrderFor(t, buyer, [{ productId: saved._id, quantity: 2 }, { productId: own.id, quantity: 1 }]);
    await t.app.ctx.jobs.runDue(); // the carts' lead updates (jobs too): the counts below are the supplier order's
    expect(await call(t, admin, 'GET', `/api/cj/orders/${order._id}`)).toMatchObject({ status: 404, body: { message: 'This order has no supplier order' } });

    expect((await payDemo(t, buyer, order._id)).body.message).toBe('Order is paid successfully');
    expect((await payDemo(t, buyer, order._id)).body.message).toBe('Order is paid');
    expect(await supplierJobs(t, order._id)).toHaveLength(1);
    const pending = await call<SupplierOrder>(t, admin, 'GET', `/api/cj/orders/${order._id}`);
    expect(pending.body).toMatchObject({
      orderId: order._id, status: 'pending', source: 'cj', cjOrderId: null, attempts: 0,
      lines: [{ productId: saved._id, name: saved.name, vid: saved.vid, quantity: 2 }],
    });

    // Instance A starts sending; CJ has not answered when A dies.
    const held = cj.hold('shopping/order/createOrderV2');
    const aRun = t.app.ctx.jobs.runDue();
    await held.arrived;
    expect((await call<SupplierOrder>(t, admin, 'GET', `/api/cj/orders/${order._id}`)).body.status).toBe('sending');
    // A restart: another instance on the same database, once A's lease has run out.
    const b = await buildApp({ config: testConfig(env), database: t.database, logger: false });
    await b.ready();
    await t.database.db.update(jobs).set({ lockedUntil: new Date(Date.now() - 1000) }).where(eq(jobs.dedupeKey, order._id));
    expect(await b.ctx.jobs.runDue()).toBe(1);
    const sent = await call<SupplierOrder>(t, admin, 'GET', `/api/cj/orders/${order._id}`);
    const cjOrder = cj.orders.get(order._id)!;
    expect(sent.body).toMatchObject({ status: 'sent', cjOrderId: cjOrder.orderId, attempts: 2, lastError: null });
    expect(cjOrder.body).toMatchObject({
      orderNumber: order._id, shippingCountryCode: 'US', shippingCountry: 'United States', shippingCity: 'Springfield',
      shippingZip: sampleAddress().postalCode, shippingAddress: sampleAddress().address, shippingCustomerName: sampleAddress().fullName,
      logisticName: 'CJPacket Ordinary', fromCountryCode: 'CN',
      products: [{ vid: saved.vid, quantity: 2, storeLineItemId: `${order._id}-1` }],
    });

    // A's late answer changes nothing; replays and further rounds send nothing more.
    held.release();
    await aRun;
    expect((await payDemo(t, buyer, order._id)).body.message).toBe('Order is paid');
    expect(await t.app.ctx.jobs.runDue()).toBe(0);
    expect(await b.ctx.jobs.runDue()).toBe(0);
    await b.close();
    expect(cj.count('shopping/order/createOrderV2')).toBe(2);
    expect([...cj.orders.values()].filter((o) => o.orderNumber === order._id)).toHaveLength(1);
    expect(await supplierJobs(t, order._id)).toHaveLength(1);
    expect((await call<SupplierOrder>(t, admin, 'GET', `/api/cj/orders/${order._id}`)).body).toMatchObject({ status: 'sent', cjOrderId: cjOrder.orderId });
  });

  it('shows a refused supplier order as failed with the reason; Retry sends it again', async () => {
    const pid = pids()[15]!;
    const saved = (await call<CjSaveResponse>(t, admin, 'POST', '/api/cj/products/save', { pid })).body.product;
    const buyer = await createUser(t);
    const order = await placeOrderFor(t, buyer, [{ productId: saved._id, quantity: 1 }]);
    await payDemo(t, buyer, order._id);
    cj.failNext('shopping/order/createOrderV2', { code: 1605000, message: 'Logistic not found' });
    await t.app.ctx.jobs.runDue();
    const failed = await call<SupplierOrder>(t, admin, 'GET', `/api/cj/orders/${order._id}`);
    expect(failed.body).toMatchObject({ status: 'failed', cjOrderId: null, lastError: 'CJ refused the request (code 1605000): Logistic not found', attempts: 1 });

    const list = await call<SupplierOrderListResponse>(t, admin, 'GET', '/api/cj/orders?status=failed');
    expect(list.body.data.content.map((o) => o.orderId)).toContain(order._id);
    // The list names our order by its number too.
    expect(list.body.data.content.find((o) => o.orderId === order._id)?.orderNumber).toBe(order.number);
    expect(await call(t, customer, 'POST', `/api/cj/orders/${order._id}/retry`)).toEqual({ status: 403, body: FORBIDDEN });
    const retried = await call<{ message: string; supplierOrder: SupplierOrder }>(t, admin, 'POST', `/api/cj/orders/${order._id}/retry`);
    expect(retried.status).toBe(200);
    expect(retried.body).toMatchObject({ message: 'Supplier order queued to be sent again', supplierOrder: { status: 'pending', attempts: 0 } });
    await t.app.ctx.jobs.runDue();
    expect((await call<SupplierOrder>(t, admin, 'GET', `/api/cj/orders/${order._id}`)).body).toMatchObject({ status: 'sent', lastError: null });
    expect(await call(t, admin, 'POST', `/api/cj/orders/${order._id}/retry`)).toEqual({
      status: 409, body: { message: 'Only a failed supplier order can be retried', code: 'CONFLICT' },
    });
  });

  it('keeps a supplier order pending with the reason while CJ is down, and sends it later', async () => {
    const pid = pids()[16]!;
    const saved = (await call<CjSaveResponse>(t, admin, 'POST', '/api/cj/products/save', { pid })).body.product;
    const buyer = await createUser(t);
    const order = await placeOrderFor(t, buyer, [{ productId: saved._id, quantity: 1 }]);
    await payDemo(t, buyer, order._id);
    cj.failNext('shopping/order/createOrderV2', { httpStatus: 503, rawBody: 'down' }, 4);
    await t.app.ctx.jobs.runDue();
    const waiting = await call<SupplierOrder>(t, admin, 'GET', `/api/cj/orders/${order._id}`);
    expect(waiting.body).toMatchObject({ status: 'pending', attempts: 1, lastError: CJ_MESSAGES.unavailable });
    expect(new Date(waiting.body.nextAttemptAt!).getTime()).toBeGreaterThan(Date.now());
    await t.database.db.update(jobs).set({ runAt: new Date(Date.now() - 1000) }).where(eq(jobs.dedupeKey, order._id));
    await t.app.ctx.jobs.runDue();
    expect((await call<SupplierOrder>(t, admin, 'GET', `/api/cj/orders/${order._id}`)).body).toMatchObject({ status: 'sent', attempts: 2 });
  });

  it('the periodic refresh updates stale saved products, once per period', async () => {
    const pid = pids()[17]!;
    const saved = (await call<CjSaveResponse>(t, admin, 'POST', '/api/cj/products/save', { pid })).body.product;
    await t.database.db.update(products).set({ supplierSyncedAt: new Date(Date.now() - 7 * 3_600_000) }).where(eq(products.id, saved._id));
    cj.stock.set(saved.vid, 321);
    // Earlier rounds ran this period's refresh already: start a new period.
    await t.database.db.delete(jobs).where(eq(jobs.kind, 'supplier.refresh'));
    await t.app.ctx.jobs.runDue();
    expect(await stockOf(t, saved._id)).toBe(321);
    await t.app.ctx.jobs.runDue();
    const refreshJobs = await t.database.db.select().from(jobs).where(eq(jobs.kind, 'supplier.refresh'));
    expect(refreshJobs).toHaveLength(1);
    expect(refreshJobs[0]).toMatchObject({ status: 'done', result: { updated: 1, discontinued: 0, stoppedEarly: false } });
  });
});

describe(`offline supplier catalogue (no CJ_API_KEY), on ${TEST_DB}`, () => {
  let t: TestApp;
  let admin: TestUser;
  beforeAll(async () => {
    t = await createTestApp();
    admin = await createAdmin(t);
  });
  afterAll(async () => { await t.close(); });

  it('says which source is in use', async () => {
    const res = await call<{ source: string; notice: string }>(t, admin, 'GET', '/api/cj/status');
    expect(res.body.source).toBe('offline');
    expect(res.body.notice).toMatch(/^Offline supplier catalogue: no CJ account is connected/);
  });

  it('bundles over 200 products in several categories, 1-6 variants each, paged like CJ', async () => {
    const first = await call<CjProductListResponse>(t, admin, 'GET', '/api/cj/products');
    expect(first.body.source).toBe('offline');
    expect(first.body.data).toMatchObject({ pageNum: 1, pageSize: 10, totalPages: Math.ceil(first.body.data.total / 10) });
    expect(first.body.data.total).toBeGreaterThanOrEqual(200);
    const all = await call<CjProductListResponse>(t, admin, 'GET', '/api/cj/products?limit=200&page=2');
    expect(all.body.data.content).toHaveLength(first.body.data.total - 200);
    const cats = await call<{ categories: unknown[] }>(t, admin, 'GET', '/api/cj/categories');
    expect(cats.body.categories.length).toBeGreaterThanOrEqual(5);
    const counts = new Set<number>();
    for (let page = 1; page <= 2; page += 1) {
      const list = await call<CjProductListResponse>(t, admin, 'GET', `/api/cj/products?limit=200&page=${page}`);
      for (const item of list.body.data.content.filter((_, i) => i % 7 === 0)) {
        const p = await call<CjProductResponse>(t, admin, 'GET', `/api/cj/products/${item.pid}`);
        expect(p.body.variants.length).toBeGreaterThanOrEqual(1);
        expect(p.body.variants.length).toBeLessThanOrEqual(6);
        counts.add(p.body.variants.length);
      }
    }
    expect(counts.size).toBeGreaterThanOrEqual(4);
  });

  it('serves its images locally as WebP', async () => {
    const list = await call<CjProductListResponse>(t, admin, 'GET', '/api/cj/products');
    const img = list.body.data.content[0]!.bigImage;
    expect(img).toMatch(/^\/api\/cj\/offline-images\/v1\/p\d+-0\.webp$/);
    const res = await t.app.inject({ method: 'GET', url: img });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('image/webp');
    expect(res.rawPayload.subarray(0, 4).toString()).toBe('RIFF');
    expect(res.rawPayload.subarray(8, 12).toString()).toBe('WEBP');
    expect((await t.app.inject({ method: 'GET', url: '/api/cj/offline-images/v1/p99999-0.webp' })).statusCode).toBe(404);
  });

  it('saves and sells offline products; their supplier orders are simulated (sent at once) and listed', async () => {
    const list = await call<CjProductListResponse>(t, admin, 'GET', '/api/cj/products?page=3');
    const pid = list.body.data.content[2]!.pid;
    const saved = await call<CjSaveResponse>(t, admin, 'POST', '/api/cj/products/save', { pid, countInStock: 5 });
    expect(saved.status).toBe(201);
    expect(saved.body.product.cjData).toMatchObject({ pid, source: 'offline' });
    const buyer = await createUser(t);
    await addToCart(t, buyer, saved.body.product._id, 1);
    const cart = await call<Cart>(t, buyer, 'GET', '/api/cart');
    expect(cart.body.cartItems[0]).toMatchObject({ _id: saved.body.product._id, cjData: { pid } });
    const order = await placeOrderFor(t, buyer, []);
    await payDemo(t, buyer, order._id);
    expect(await t.app.ctx.jobs.runDue()).toBeGreaterThanOrEqual(0);
    const so = await call<SupplierOrder>(t, admin, 'GET', `/api/cj/orders/${order._id}`);
    // Offline, forwarding is simulated (issue 20): the order is "sent" with an offline CJ order id.
    expect(so.body).toMatchObject({ status: 'sent', source: 'offline', attempts: 1 });
    expect(so.body.cjOrderId).toMatch(new RegExp(`^OFFLINE-\\d+-${order._id}$`));
    const orders = await call<SupplierOrderListResponse>(t, admin, 'GET', '/api/cj/orders');
    expect(orders.body).toMatchObject({ source: 'offline' });
    expect(orders.body.data.content.map((o) => o.orderId)).toEqual([order._id]);

    // Cancelled before it "ships": withdrawn (deleteOrder, as at CJ), cancelled and refunded.
    const cancelled = await call<{ order: Order }>(t, admin, 'POST', `/api/orders/${order._id}/cancel`, { reason: 'Test' });
    expect(cancelled).toMatchObject({ status: 200, body: { order: { status: 'cancelled', refundedAmount: order.totalPrice } } });
  });

  it('offline, deleteOrder follows CJ\'s rule: an order can be withdrawn until it ships', async () => {
    let clock = 1_000_000;
    const offline = createOfflineCatalogue({ shipDelaySeconds: 60, now: () => clock });
    const created = await offline.createOrder({ orderNumber: 'aaaaaaaaaaaaaaaaaaaaaaaa' } as never);
    await expect(offline.deleteOrder(created.orderId)).resolves.toBeUndefined();
    clock += 60_000;
    expect((await offline.getOrderDetail(created.orderId)).orderStatus).toBe('SHIPPED');
    await expect(offline.deleteOrder(created.orderId)).rejects.toMatchObject({ code: 'SUPPLIER_REFUSED', statusCode: 502 });
    await expect(offline.deleteOrder('nonsense')).rejects.toMatchObject({ code: 'SUPPLIER_NOT_FOUND' });
  });
});
