import { HOME_PRODUCTS_LIMIT, PRODUCT_FORM_MESSAGES as M, type Product } from '@shop/contracts';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { products, reviews } from '../../db/schema.ts';
import { newId } from '../../lib/ids.ts';
import { createAdmin, createTestApp, createUser, type TestApp, type TestUser } from '../../test/test-app.ts';
import { insertProduct } from './test-factories.ts';

describe('products: storefront reads', () => {
  let t: TestApp;
  let admin: TestUser;
  let wallet: Awaited<ReturnType<typeof insertProduct>>;
  let draft: Awaited<ReturnType<typeof insertProduct>>;

  beforeAll(async () => {
    t = await createTestApp();
    admin = await createAdmin(t);
    for (let i = 0; i < HOME_PRODUCTS_LIMIT + 3; i += 1) {
      await insertProduct(t, { name: `Filler ${i}`, category: i % 2 ? 'Books' : 'Garden', createdAt: new Date(Date.now() - (100 + i) * 60_000) });
    }
    wallet = await insertProduct(t, { name: 'Leather Wallet', slug: 'leather-wallet', category: 'Fashion', price: 40, isOnSale: true, saleDiscount: 15, images: ['/uploads/w2.webp'], createdAt: new Date() });
    draft = await insertProduct(t, { name: 'Secret Draft', slug: 'secret-draft', category: 'Zeta Drafts', isDraft: true, createdAt: new Date(Date.now() + 1000) });
    await insertProduct(t, { name: 'No Category', category: '', createdAt: new Date(Date.now() - 10 * 86_400_000) });
    await t.database.db.insert(reviews).values([
      { id: newId(Date.now() - 2000), productId: wallet.id, name: 'Older', rating: 4, comment: 'Good', createdAt: new Date(Date.now() - 2000) },
      { id: newId(Date.now() - 1000), productId: wallet.id, name: 'Newer', rating: 5, comment: 'Great', createdAt: new Date(Date.now() - 1000) },
    ]);
  });
  afterAll(async () => { await t.close(); });

  it('GET /api/products lists the newest published products for the home grid, capped', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/products' });
    expect(res.statusCode).toBe(200);
    const list = res.json() as Product[];
    expect(list).toHaveLength(HOME_PRODUCTS_LIMIT);
    expect(list[0]?.name).toBe('Leather Wallet');
    expect(list[0]?.finalPrice).toBe(34);
    expect(list.map((p) => p.name)).not.toContain('Secret Draft');
  });

  it('GET /api/products/slug/{slug} answers the product with its reviews, newest first', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/products/slug/leather-wallet' });
    expect(res.statusCode).toBe(200);
    const p = res.json() as Product;
    expect(p).toMatchObject({ _id: wallet.id, name: 'Leather Wallet', slug: 'leather-wallet', price: 40, finalPrice: 34, images: ['/uploads/w2.webp'] });
    expect(p.reviews?.map((r) => r.name)).toEqual(['Newer', 'Older']);
    expect(p.reviews?.[0]).toMatchObject({ rating: 5, comment: 'Great' });
    expect(p.reviews?.[0]?._id).toMatch(/^[0-9a-f]{24}$/);
    expect(new Date(p.reviews?.[0]?.createdAt ?? '').toISOString()).toBe(p.reviews?.[0]?.createdAt);
  });

  it('answers 404 Product not found for unknown slugs and drafts', async () => {
    for (const url of ['/api/products/slug/nope', '/api/products/slug/secret-draft']) {
      const res = await t.app.inject({ method: 'GET', url });
      expect(res.statusCode, url).toBe(404);
      expect(res.json()).toEqual({ message: 'Product not found', code: 'NOT_FOUND' });
    }
  });

  it('GET /api/products/{id} answers published products to anyone and drafts to admins only', async () => {
    const pub = await t.app.inject({ method: 'GET', url: `/api/products/${wallet.id}` });
    expect(pub.statusCode).toBe(200);
    expect((pub.json() as Product).reviews).toHaveLength(2);
    const hidden = await t.app.inject({ method: 'GET', url: `/api/products/${draft.id}` });
    expect(hidden.statusCode).toBe(404);
    expect(hidden.json().message).toBe('Product not found');
    const user = await createUser(t);
    const asUser = await t.app.inject({ method: 'GET', url: `/api/products/${draft.id}`, headers: { cookie: user.cookie } });
    expect(asUser.statusCode).toBe(404);
    const asAdmin = await t.app.inject({ method: 'GET', url: `/api/products/${draft.id}`, headers: { cookie: admin.cookie } });
    expect(asAdmin.statusCode).toBe(200);
    expect(asAdmin.json()).toMatchObject({ _id: draft.id, isDraft: true });
    for (const id of [newId(), 'not-an-id', '123']) {
      const res = await t.app.inject({ method: 'GET', url: `/api/products/${id}` });
      expect(res.statusCode, id).toBe(404);
      expect(res.json().message).toBe('Product not found');
    }
  });

  it('GET /api/products/categories lists distinct non-empty categories of published products, sorted', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/products/categories' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual(['Books', 'Fashion', 'Garden']);
  });
});

describe('products: administration', () => {
  let t: TestApp;
  let admin: TestUser;
  let customer: TestUser;
  const as = (u: TestUser | null) => (u ? { cookie: u.cookie } : {});
  const validBody = (id: string, over: Record<string, unknown> = {}) => ({
    _id: id, name: 'Desk Lamp', slug: 'desk-lamp', price: 49.99, image: '/uploads/lamp.webp', images: ['/uploads/lamp-2.webp'],
    category: 'Home', brand: 'Lumo', countInStock: 7, description: 'A warm desk lamp.', isTodaysDeal: false, isGift: true,
    isOnSale: true, saleDiscount: 10, ...over,
  });
  const createDraft = async () => {
    const res = await t.app.inject({ method: 'POST', url: '/api/products', headers: as(admin) });
    expect(res.statusCode).toBe(201);
    return (res.json() as { product: Product }).product;
  };
  const put = (id: string, body: unknown, user: TestUser | null = admin) =>
    t.app.inject({ method: 'PUT', url: `/api/products/${id}`, headers: as(user), payload: body as object });

  beforeAll(async () => {
    t = await createTestApp();
    admin = await createAdmin(t);
    customer = await createUser(t);
  });
  afterAll(async () => { await t.close(); });

  it('enforces admin access on every back-office route', async () => {
    const id = newId();
    const routes = [
      { method: 'GET' as const, url: '/api/products/admin' },
      { method: 'POST' as const, url: '/api/products' },
      { method: 'PUT' as const, url: `/api/products/${id}`, payload: { _id: id } },
      { method: 'DELETE' as const, url: `/api/products/${id}` },
    ];
    for (const r of routes) {
      const anon = await t.app.inject(r);
      expect(anon.statusCode, `${r.method} ${r.url}`).toBe(401);
      const user = await t.app.inject({ ...r, headers: as(customer) });
      expect(user.statusCode, `${r.method} ${r.url}`).toBe(403);
      expect(user.json()).toEqual({ message: 'Admin access required', code: 'FORBIDDEN' });
    }
    expect(await t.database.db.select().from(products)).toHaveLength(0);
  });

  it('POST /api/products creates a draft with placeholder values, hidden from the storefront', async () => {
    const p = await createDraft();
    expect(p).toMatchObject({
      name: 'Sample name', price: 0, finalPrice: 0, image: '', images: [], category: '', brand: 'Sample brand',
      countInStock: 0, description: 'Sample description', rating: 0, numReviews: 0, isDraft: true, isOnSale: false, saleDiscount: 0,
    });
    expect(p._id).toMatch(/^[0-9a-f]{24}$/);
    expect(p.slug).toBe(`sample-name-${p._id}`);
    const search = await t.app.inject({ method: 'GET', url: '/api/products/search' });
    expect(search.json().countProducts).toBe(0);
    expect((await t.app.inject({ method: 'GET', url: '/api/products' })).json()).toEqual([]);
    expect((await t.app.inject({ method: 'GET', url: '/api/products/categories' })).json()).toEqual([]);
  });

  it('PUT saves a valid form, publishes the draft and answers the product', async () => {
    const draft = await createDraft();
    const res = await put(draft._id, validBody(draft._id));
    expect(res.statusCode).toBe(200);
    const body = res.json() as { message: string; product: Product };
    expect(body.message).toBe('Product updated successfully');
    expect(body.product).toMatchObject({
      _id: draft._id, name: 'Desk Lamp', slug: 'desk-lamp', price: 49.99, finalPrice: 44.99, image: '/uploads/lamp.webp',
      images: ['/uploads/lamp-2.webp'], category: 'Home', brand: 'Lumo', countInStock: 7, description: 'A warm desk lamp.',
      isGift: true, isOnSale: true, saleDiscount: 10, isDraft: false,
    });
    const pub = await t.app.inject({ method: 'GET', url: '/api/products/slug/desk-lamp' });
    expect(pub.statusCode).toBe(200);
    const search = await t.app.inject({ method: 'GET', url: '/api/products/search?query=lamp' });
    expect(search.json().countProducts).toBe(1);
    expect((await t.app.inject({ method: 'GET', url: '/api/products/categories' })).json()).toEqual(['Home']);
  });

  it("answers 'Product ID is required' when the body has no _id", async () => {
    const draft = await createDraft();
    for (const body of [{ ...validBody(draft._id), _id: undefined }, { ...validBody(draft._id), _id: '' }, {}, undefined]) {
      const res = await put(draft._id, body);
      expect(res.statusCode).toBe(400);
      expect(res.json().message).toBe('Product ID is required');
    }
  });

  it("answers 'Category, Brand, and Description are required fields' when one is missing", async () => {
    const draft = await createDraft();
    for (const missing of ['category', 'brand', 'description']) {
      const res = await put(draft._id, { ...validBody(draft._id), [missing]: '' });
      expect(res.statusCode, missing).toBe(400);
      expect(res.json().message).toBe('Category, Brand, and Description are required fields');
      expect(Object.keys(res.json().fieldErrors)).toEqual([missing]);
    }
    const res = await put(draft._id, { _id: draft._id, name: 'x' });
    expect(res.json()).toMatchObject({
      message: M.categoryBrandDescriptionRequired,
      fieldErrors: { category: 'Category is required', brand: 'Brand is required', description: 'Description is required' },
    });
  });

  it.each([
    ['name', { name: '' }, 'Name is required'],
    ['name', { name: '   ' }, 'Name is required'],
    ['slug', { slug: '' }, 'Slug is required'],
    ['slug', { slug: 'has space' }, 'Slug may only contain lowercase letters, numbers and hyphens'],
    ['price', { price: 0 }, 'Price must be greater than 0'],
    ['price', { price: -3 }, 'Price must be greater than 0'],
    ['price', { price: '' }, 'Price must be greater than 0'],
    ['price', { price: 'abc' }, 'Price must be a number written like 19.99'],
    ['price', { price: '19.999' }, 'Price must have at most 2 decimal places'],
    ['price', { price: null }, 'Price must be greater than 0'],
    ['image', { image: '' }, 'Image is required'],
    ['countInStock', { countInStock: -1 }, 'Count in stock must be greater than 0'],
    ['countInStock', { countInStock: 1.5 }, 'Count in stock must be a whole number written like 12'],
    ['countInStock', { countInStock: '' }, 'Count in stock must be greater than 0'],
    ['saleDiscount', { isOnSale: true, saleDiscount: 0 }, 'Sale discount must be between 1 and 100'],
    ['saleDiscount', { isOnSale: true, saleDiscount: 101 }, 'Sale discount must be between 1 and 100'],
    ['saleDiscount', { isOnSale: true, saleDiscount: 12.5 }, 'Sale discount must be a whole number written like 15'],
  ])('answers the field error for %s (%j)', async (field, over, message) => {
    const draft = await createDraft();
    const res = await put(draft._id, { ...validBody(draft._id, { slug: `s-${draft._id}` }), ...over });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ message, fieldErrors: { [field]: message } });
    const still = await t.app.inject({ method: 'GET', url: `/api/products/${draft._id}`, headers: as(admin) });
    expect(still.json().isDraft).toBe(true);
  });

  it('keeps stored values for fields left out, so a draft needs a real price and image', async () => {
    const draft = await createDraft();
    const res = await put(draft._id, { _id: draft._id, category: 'Home', brand: 'Lumo', description: 'Lamp' });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({
      message: 'Price must be greater than 0',
      fieldErrors: { price: 'Price must be greater than 0', image: 'Image is required' },
    });
  });

  it('accepts count in stock 0, decimal strings and a discount only when on sale', async () => {
    const draft = await createDraft();
    const res = await put(draft._id, validBody(draft._id, { slug: `ok-${draft._id}`, countInStock: '0', price: '19.99', isOnSale: false, saleDiscount: 500 }));
    expect(res.statusCode).toBe(200);
    expect(res.json().product).toMatchObject({ countInStock: 0, price: 19.99, finalPrice: 19.99, isOnSale: false, saleDiscount: 0 });
  });

  it('refuses a slug used by another product with 409 and a slug field error', async () => {
    const a = await createDraft();
    expect((await put(a._id, validBody(a._id, { slug: 'taken-slug' }))).statusCode).toBe(200);
    const b = await createDraft();
    const res = await put(b._id, validBody(b._id, { slug: 'Taken-Slug ' }));
    expect(res.statusCode).toBe(409);
    expect(res.json()).toEqual({ message: 'Slug is already in use', code: 'CONFLICT', fieldErrors: { slug: 'Slug is already in use' } });
    // Saving a product with its own slug is fine.
    expect((await put(a._id, validBody(a._id, { slug: 'taken-slug', name: 'Renamed' }))).statusCode).toBe(200);
  });

  it('answers Product not found for unknown ids and a mismatched _id', async () => {
    const id = newId();
    const res = await put(id, validBody(id, { slug: 'ghost' }));
    expect(res.statusCode).toBe(404);
    expect(res.json().message).toBe('Product not found');
    const draft = await createDraft();
    const mismatch = await put(draft._id, validBody(id));
    expect(mismatch.statusCode).toBe(400);
    expect(mismatch.json().message).toBe('Product ID does not match the product being updated');
    const del = await t.app.inject({ method: 'DELETE', url: `/api/products/${id}`, headers: as(admin) });
    expect(del.statusCode).toBe(404);
    expect(del.json().message).toBe('Product not found');
    const bad = await t.app.inject({ method: 'DELETE', url: '/api/products/zzz', headers: as(admin) });
    expect(bad.statusCode).toBe(404);
  });

  it('DELETE removes the product and its reviews', async () => {
    const draft = await createDraft();
    expect((await put(draft._id, validBody(draft._id, { slug: `del-${draft._id}` }))).statusCode).toBe(200);
    const review = await t.app.inject({ method: 'POST', url: `/api/products/${draft._id}/reviews`, headers: as(customer), payload: { rating: 5, comment: 'Nice' } });
    expect(review.statusCode).toBe(201);
    const res = await t.app.inject({ method: 'DELETE', url: `/api/products/${draft._id}`, headers: as(admin) });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ message: 'Product deleted successfully' });
    expect(await t.database.db.select().from(products).where(eq(products.id, draft._id))).toHaveLength(0);
    expect(await t.database.db.select().from(reviews).where(eq(reviews.productId, draft._id))).toHaveLength(0);
    const again = await t.app.inject({ method: 'DELETE', url: `/api/products/${draft._id}`, headers: as(admin) });
    expect(again.statusCode).toBe(404);
  });

  it('GET /api/products/admin pages through every product including drafts, 10 by default', async () => {
    const before = (await t.app.inject({ method: 'GET', url: '/api/products/admin', headers: as(admin) })).json();
    const existing = before.countProducts as number;
    for (let i = 0; i < 12; i += 1) await createDraft();
    const total = existing + 12;
    const p1 = await t.app.inject({ method: 'GET', url: '/api/products/admin', headers: as(admin) });
    expect(p1.statusCode).toBe(200);
    const b1 = p1.json() as { products: Product[]; pages: number; page: number; countProducts: number };
    expect(b1.products).toHaveLength(10);
    expect(b1.pages).toBe(Math.ceil(total / 10));
    expect(b1.countProducts).toBe(total);
    expect(b1.products.every((p) => typeof p.isDraft === 'boolean')).toBe(true);
    const created = b1.products.map((p) => p.createdAt);
    expect(created).toEqual([...created].sort().reverse());
    const last = await t.app.inject({ method: 'GET', url: `/api/products/admin?page=${b1.pages}&pageSize=10`, headers: as(admin) });
    expect(last.json().products).toHaveLength(total - (b1.pages - 1) * 10);
    const big = await t.app.inject({ method: 'GET', url: '/api/products/admin?page=1&pageSize=100', headers: as(admin) });
    expect(big.json().products).toHaveLength(total);
    const bad = await t.app.inject({ method: 'GET', url: '/api/products/admin?page=0', headers: as(admin) });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toBe('Page must be a whole number of at least 1');
    const badSize = await t.app.inject({ method: 'GET', url: '/api/products/admin?pageSize=1000', headers: as(admin) });
    expect(badSize.statusCode).toBe(400);
    expect(badSize.json().message).toBe('Page size must be a whole number from 1 to 100');
  });
});
