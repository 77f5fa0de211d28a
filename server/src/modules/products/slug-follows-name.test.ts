import { draftSlug, type Product } from '@shop/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAdmin, createTestApp, createUser, TEST_DB, type TestApp, type TestUser } from '../../test/test-app.ts';
import { insertProduct } from './test-factories.ts';

describe(`a new product: hidden until saved, its slug following its name until typed by hand, on ${TEST_DB}`, () => {
  let t: TestApp;
  let admin: TestUser;
  let customer: TestUser;
  const as = (u: TestUser | null) => (u ? { cookie: u.cookie } : {});
  const body = (id: string, over: Record<string, unknown> = {}) => ({
    _id: id, name: 'Sample name', slug: draftSlug(id), price: 12.5, image: '/uploads/x.webp', images: [], category: 'Lighting',
    brand: 'Lumo', countInStock: 3, description: 'Bright.', isTodaysDeal: false, isGift: false, isOnSale: false, saleDiscount: 0, ...over,
  });
  const createDraft = async () => {
    const res = await t.app.inject({ method: 'POST', url: '/api/products', headers: as(admin) });
    expect(res.statusCode).toBe(201);
    return (res.json() as { product: Product }).product;
  };
  const put = async (id: string, payload: Record<string, unknown>) => {
    const res = await t.app.inject({ method: 'PUT', url: `/api/products/${id}`, headers: as(admin), payload });
    return { status: res.statusCode, body: res.json() as { message: string; product: Product } };
  };
  const get = (url: string, user: TestUser | null = null) => t.app.inject({ method: 'GET', url, headers: as(user) });

  beforeAll(async () => {
    t = await createTestApp();
    admin = await createAdmin(t);
    customer = await createUser(t);
  });
  afterAll(async () => {
    await t?.close();
  });

  it('the empty product is nowhere on the storefront until a valid save, then everywhere', async () => {
    const draft = await createDraft();
    expect(draft).toMatchObject({ isDraft: true, category: '', slug: draftSlug(draft._id) });
    const hidden = async () => {
      expect((await get('/api/products')).json().map((p: Product) => p._id)).not.toContain(draft._id);
      expect((await get('/api/products/search?query=sample')).json().countProducts).toBe(0);
      expect((await get(`/api/products/slug/${draft.slug}`)).statusCode).toBe(404);
      expect((await get(`/api/products/${draft._id}`)).statusCode).toBe(404);
      expect((await get(`/api/products/${draft._id}`, customer)).statusCode).toBe(404);
      expect((await get('/sitemap.xml')).body).not.toContain(draft._id);
    };
    await hidden();
    expect((await get(`/api/products/${draft._id}`, admin)).json()).toMatchObject({ _id: draft._id, isDraft: true });

    // A refused save (no category chosen) publishes nothing.
    const refused = await put(draft._id, body(draft._id, { name: 'Desk Lamp', category: '' }));
    expect(refused.status).toBe(400);
    expect(refused.body.message).toBe('Category, Brand, and Description are required fields');
    await hidden();

    const saved = await put(draft._id, body(draft._id, { name: 'Desk Lamp' }));
    expect(saved.status).toBe(200);
    expect(saved.body.product).toMatchObject({ isDraft: false, name: 'Desk Lamp', slug: 'desk-lamp' });
    expect((await get('/api/products/slug/desk-lamp')).json()).toMatchObject({ _id: draft._id, name: 'Desk Lamp' });
    expect((await get('/api/products/search?query=lamp')).json().countProducts).toBe(1);
    expect((await get('/sitemap.xml')).body).toContain('/product/desk-lamp');
  });

  it("renaming a draft moves its slug along (the placeholder or the old name's slug sent back, or none), unique with the id's tail", async () => {
    await insertProduct(t, { name: 'Table Lamp', slug: 'table-lamp' });
    const draft = await createDraft();
    // The form sent the placeholder slug back with a new name: the slug is the name's, and taken, so it gets the id's tail.
    const first = await put(draft._id, body(draft._id, { name: 'Table Lamp' }));
    expect(first.status).toBe(200);
    expect(first.body.product.slug).toBe(`table-lamp-${draft._id.slice(-6)}`);

    const other = await createDraft();
    // No slug at all in the body: it follows too.
    const { slug: _omit, ...withoutSlug } = body(other._id, { name: 'Reading Light & Shade' });
    const second = await put(other._id, withoutSlug);
    expect(second.status).toBe(200);
    expect(second.body.product.slug).toBe('reading-light-and-shade');
  });

  it('a slug typed by hand is kept (and refused when taken); a published product keeps its slug when renamed', async () => {
    const draft = await createDraft();
    const typed = await put(draft._id, body(draft._id, { name: 'Floor Lamp', slug: 'my-floor-lamp' }));
    expect(typed.status).toBe(200);
    expect(typed.body.product.slug).toBe('my-floor-lamp');
    // Published: renaming it leaves the address alone, so links keep working.
    const renamed = await put(draft._id, body(draft._id, { name: 'Big Floor Lamp', slug: 'my-floor-lamp' }));
    expect(renamed.body.product).toMatchObject({ name: 'Big Floor Lamp', slug: 'my-floor-lamp' });

    const another = await createDraft();
    const taken = await put(another._id, body(another._id, { name: 'Another', slug: 'my-floor-lamp' }));
    expect(taken).toEqual({ status: 409, body: { message: 'Slug is already in use', code: 'CONFLICT', fieldErrors: { slug: 'Slug is already in use' } } });
    expect((await get(`/api/products/${another._id}`, admin)).json()).toMatchObject({ isDraft: true, slug: draftSlug(another._id) });
  });
});
