import { SUPPLIER_DEFAULT_BRAND, type CjListItem, type CjProductListResponse, type CjProductResponse, type CjSaveResponse } from '@shop/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createProduct } from '../../test/commerce-factories.ts';
import { createAdmin, createTestApp, TEST_DB, type TestApp, type TestUser } from '../../test/test-app.ts';
import { closestCategory } from './suggest-category.ts';

const SHOP = ['Audio', 'Books', 'Electronics', 'Fashion', 'Garden', 'Home & Kitchen', 'Office', 'Sports & Outdoors', 'Toys & Games'];

describe('closestCategory', () => {
  it("picks the shop's category that shares the most words with the deepest levels of the supplier's path", () => {
    expect(closestCategory('Consumer Electronics > Home Audio & Video > Earphones & Speakers', SHOP)).toBe('Audio');
    expect(closestCategory('Home, Garden & Furniture > Kitchen, Dining & Bar > Drinkware & Kitchen', SHOP)).toBe('Home & Kitchen');
    expect(closestCategory('Sports & Outdoors > Fitness & Body Building > Sports & Fitness', SHOP)).toBe('Sports & Outdoors');
    expect(closestCategory('Toys, Kids & Babies > Toys & Hobbies > Toys & Puzzles', SHOP)).toBe('Toys & Games');
    expect(closestCategory('Computer & Office > Office & School Supplies > Notebooks & Stationery', SHOP)).toBe('Office');
    // Word forms: 'Lights' and 'Lighting' are one word.
    expect(closestCategory('Home Improvement > Lights & Lighting > Lamps', ['Lighting', 'Home & Kitchen'])).toBe('Lighting');
  });

  it('answers null when no category shares a word (and for an empty shop)', () => {
    expect(closestCategory("Women's Clothing > Tops & Tees > T-Shirts & Tops", SHOP)).toBeNull();
    expect(closestCategory('Consumer Electronics > Earphones', [])).toBeNull();
    expect(closestCategory('', SHOP)).toBeNull();
  });
});

describe(`an import starts in the shop's closest category with a brand (offline catalogue), on ${TEST_DB}`, () => {
  let t: TestApp;
  let admin: TestUser;
  let catalogue: CjListItem[];
  const inCategory = (last: string) => {
    const found = catalogue.find((p) => p.categoryName.endsWith(`> ${last}`) && !p.isSaved);
    if (!found) throw new Error(`no offline product in ${last}`);
    return found;
  };

  beforeAll(async () => {
    t = await createTestApp();
    admin = await createAdmin(t);
    await createProduct(t, { name: 'Studio Monitor Headphones', category: 'Audio' });
    await createProduct(t, { name: 'Everyday Cotton T-Shirt', category: 'Fashion' });
    await createProduct(t, { name: 'Chef Knife', category: 'Home & Kitchen' });
    await createProduct(t, { name: 'Unpublished Notebook Draft', category: 'Drafted Category', isDraft: true });
    const list = await call<CjProductListResponse>(t, admin, 'GET', '/api/cj/products?page=1&limit=200');
    expect(list.status).toBe(200);
    catalogue = list.body.data.content;
  });
  afterAll(async () => {
    await t?.close();
  });

  it('GET cj/products/{pid} suggests the closest existing category, by name or by the products like it', async () => {
    const earphones = inCategory('Earphones & Speakers');
    const res = await call<CjProductResponse>(t, admin, 'GET', `/api/cj/products/${earphones.pid}`);
    expect(res.status).toBe(200);
    expect(res.body.suggestedCategory).toEqual({ category: 'Audio', isExisting: true });

    // No category name shares a word with "Women's Clothing > Tops & Tees > T-Shirts & Tops": the
    // shop's own t-shirt says where shirts go.
    const shirt = inCategory('T-Shirts & Tops');
    expect((await call<CjProductResponse>(t, admin, 'GET', `/api/cj/products/${shirt.pid}`)).body.suggestedCategory)
      .toEqual({ category: 'Fashion', isExisting: true });

    // Nothing close at all (a draft's category does not count): the supplier's last level, marked as new.
    const notebook = inCategory('Notebooks & Stationery');
    expect((await call<CjProductResponse>(t, admin, 'GET', `/api/cj/products/${notebook.pid}`)).body.suggestedCategory)
      .toEqual({ category: 'Notebooks & Stationery', isExisting: false });
  });

  it('a save without brand or category takes the default brand and the suggested category, never "Brand is required"', async () => {
    const earphones = inCategory('Earphones & Speakers');
    const res = await call<CjSaveResponse>(t, admin, 'POST', '/api/cj/products/save', { pid: earphones.pid, isSaved: true });
    expect(res.status).toBe(201);
    expect(res.body.product).toMatchObject({ brand: SUPPLIER_DEFAULT_BRAND, category: 'Audio', pid: earphones.pid });
    expect(SUPPLIER_DEFAULT_BRAND).toBe('Unbranded');

    // What the administrator chose stays theirs: a new category on purpose, and a brand.
    const lamp = catalogue.find((p) => p.categoryName.endsWith('> Lamps & Decor'))!;
    const own = await call<CjSaveResponse>(t, admin, 'POST', '/api/cj/products/save', { pid: lamp.pid, category: 'Lighting', brand: 'Lumo' });
    expect(own.status).toBe(201);
    expect(own.body.product).toMatchObject({ category: 'Lighting', brand: 'Lumo' });
    // A saved product keeps its category on a later save without one.
    const again = await call<CjSaveResponse>(t, admin, 'POST', '/api/cj/products/save', { pid: lamp.pid });
    expect(again).toMatchObject({ status: 200, body: { product: { category: 'Lighting', brand: 'Lumo' } } });
  });
});
