import { PRODUCT_FORM_MESSAGES as M, type CjProductListResponse, type CjSaveResponse, type Product } from '@shop/contracts';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { products, productVariants } from '../../db/schema.ts';
import { call, createProduct } from '../../test/commerce-factories.ts';
import { createAdmin, createTestApp, TEST_DB, type TestApp, type TestUser } from '../../test/test-app.ts';

/*
 * Issue 32, item 7: the admin product save (PUT products/{id}) and the supplier save (POST
 * cj/products/save) took "0x10" ($16), " 0b11 " and "1e1" as price and stock, and javascript: or
 * data: URLs as images. Every number is now read by the one money or whole-number parser
 * (contracts/src/numbers.ts) and every image by isProductImageUrl (contracts/src/images.ts): each bad
 * shape is a 400 naming its field, and nothing is written.
 */

type Refused = { message: string; code?: string; fieldErrors?: Record<string, string> };

const BAD_PRICES: Array<[unknown, string]> = [
  ['0x10', M.priceFormat], [' 0b11 ', M.priceFormat], ['1e1', M.priceFormat], ['0o7', M.priceFormat], ['Infinity', M.priceFormat],
  ['1,50', M.priceFormat], ['+5', M.priceFormat], ['-5', M.price], ['5 0', M.priceFormat], ['19.999', M.priceDecimals], [19.999, M.priceDecimals],
  [true, M.price], [[16], M.price],
];
const BAD_STOCKS: Array<[unknown, string]> = [
  ['0x10', M.countInStockFormat], [' 0b11 ', M.countInStockFormat], ['1e1', M.countInStockFormat], ['1.0', M.countInStockFormat],
  ['3.5', M.countInStockFormat], [3.5, M.countInStockFormat], ['+1', M.countInStockFormat], ['-1', M.countInStock],
];
const BAD_DISCOUNTS: Array<[unknown, string]> = [['0x10', M.saleDiscountFormat], ['1e1', M.saleDiscountFormat], ['12.5', M.saleDiscountFormat]];
const BAD_IMAGES = [
  'javascript:alert(document.cookie)', 'JAVASCRIPT:alert(1)', 'data:image/svg+xml;base64,PHN2ZyBvbmxvYWQ9YWxlcnQoMSk+', 'vbscript:msgbox(1)',
  '//evil.example/x.jpg', '/admin', '/favicon.svg', '/uploads/../api/users', 'https://user:pw@evil.example/x.jpg', 'file:///etc/passwd',
];

describe(`admin saves take decimal numbers and the shop's own or http(s) images only, on ${TEST_DB}`, () => {
  let t: TestApp;
  let admin: TestUser;
  let product: Product;
  const rowOf = async (id: string) => (await t.database.db.select().from(products).where(eq(products.id, id)))[0];

  beforeAll(async () => {
    t = await createTestApp();
    admin = await createAdmin(t);
    const row = await createProduct(t, { price: 20, countInStock: 5 });
    product = (await call<Product>(t, admin, 'GET', `/api/products/${row.id}`)).body;
  });
  afterAll(async () => { await t.close(); });

  /** What the product form sends: every field as loaded. */
  const formBody = (over: Record<string, unknown>) => ({
    _id: product._id, name: product.name, slug: product.slug, price: product.price, image: product.image, images: product.images,
    category: product.category, brand: product.brand, countInStock: product.countInStock, description: product.description,
    isTodaysDeal: product.isTodaysDeal, isGift: product.isGift, isOnSale: product.isOnSale, saleDiscount: product.saleDiscount, ...over,
  });

  const cases: Array<[string, Record<string, unknown>, string, string]> = [
    ...BAD_PRICES.map(([price, message]): [string, Record<string, unknown>, string, string] => [`price ${JSON.stringify(price)}`, { price }, 'price', message]),
    ...BAD_STOCKS.map(([countInStock, message]): [string, Record<string, unknown>, string, string] => [`stock ${JSON.stringify(countInStock)}`, { countInStock }, 'countInStock', message]),
    ...BAD_DISCOUNTS.map(([saleDiscount, message]): [string, Record<string, unknown>, string, string] => [`discount ${JSON.stringify(saleDiscount)}`, { isOnSale: true, saleDiscount }, 'saleDiscount', message]),
    // A malformed discount is refused even while not on sale (it would be stored as 0, but the body is wrong).
    ['discount "0x10" when not on sale', { isOnSale: false, saleDiscount: '0x10' }, 'saleDiscount', M.saleDiscountFormat],
    ...BAD_IMAGES.map((image): [string, Record<string, unknown>, string, string] => [`image ${image}`, { image }, 'image', M.imageUrl]),
    ...BAD_IMAGES.map((bad): [string, Record<string, unknown>, string, string] => [`images [..., ${bad}]`, { images: ['/uploads/fine.webp', bad] }, 'images', M.imagesUrl]),
  ];

  it.each(cases)('PUT products/{id} refuses %s with a 400 naming the field; nothing changes', async (_label, over, field, message) => {
    const before = await rowOf(product._id);
    const res = await call<Refused>(t, admin, 'PUT', `/api/products/${product._id}`, formBody({ ...over, description: 'Changed by a refused save' }));
    expect(res).toEqual({ status: 400, body: { message, code: 'VALIDATION_ERROR', fieldErrors: { [field]: message } } });
    expect(await rowOf(product._id)).toEqual(before);
  });

  it('PUT products/{id} still takes decimal text and JSON numbers, and the shop\'s and http(s) images', async () => {
    const goods: Array<[Record<string, unknown>, Partial<Product>]> = [
      [{ price: '16' }, { price: 16 }],
      [{ price: ' 16.50 ', countInStock: '12' }, { price: 16.5, countInStock: 12 }],
      [{ price: '.99', countInStock: 0 }, { price: 0.99, countInStock: 0 }],
      [{ price: 0.1 + 0.2, countInStock: '007' }, { price: 0.3, countInStock: 7 }],
      [{ price: '20.', isOnSale: true, saleDiscount: '15' }, { price: 20, isOnSale: true, saleDiscount: 15, finalPrice: 17 }],
      [{ image: 'https://cdn.example.com/lamp.jpg', images: ['/uploads/lamp-2.webp', 'http://img.example.org/l.png', '/api/cj/offline-images/v1/p1-0.webp'] },
        { image: 'https://cdn.example.com/lamp.jpg', images: ['/uploads/lamp-2.webp', 'http://img.example.org/l.png', '/api/cj/offline-images/v1/p1-0.webp'] }],
      [{ image: '/uploads/lamp.webp', images: [] }, { image: '/uploads/lamp.webp', images: [] }],
    ];
    for (const [over, expected] of goods) {
      const res = await call<{ product: Product }>(t, admin, 'PUT', `/api/products/${product._id}`, formBody(over));
      expect(res.status, JSON.stringify(over)).toBe(200);
      expect(res.body.product).toMatchObject(expected);
    }
  });

  describe('POST cj/products/save (the offline supplier catalogue)', () => {
    let pid: string;
    const saves = async (p: string) => (await t.database.db.select({ n: sql<number>`count(*)::int` }).from(products).where(sql`${products.cjData} ->> 'pid' = ${p}`))[0]!.n;

    beforeAll(async () => {
      const list = await call<CjProductListResponse>(t, admin, 'GET', '/api/cj/products?limit=5');
      pid = list.body.data.content.find((p) => !p.isSaved)!.pid;
    });

    const supplierCases: Array<[string, Record<string, unknown>, string, string]> = [
      ...BAD_PRICES.slice(0, 6).map(([price, message]): [string, Record<string, unknown>, string, string] => [`price ${JSON.stringify(price)}`, { price }, 'price', message]),
      ...BAD_STOCKS.slice(0, 4).map(([countInStock, message]): [string, Record<string, unknown>, string, string] => [`stock ${JSON.stringify(countInStock)}`, { countInStock }, 'countInStock', message]),
      ['discount "1e1"', { isOnSale: true, saleDiscount: '1e1' }, 'saleDiscount', M.saleDiscountFormat],
      ...BAD_IMAGES.slice(0, 5).map((image): [string, Record<string, unknown>, string, string] => [`image ${image}`, { image }, 'image', M.imageUrl]),
      ...BAD_IMAGES.slice(0, 5).map((bad): [string, Record<string, unknown>, string, string] => [`images [${bad}]`, { images: [bad] }, 'images', M.imagesUrl]),
    ];

    it.each(supplierCases)('refuses %s with a 400 naming the field; nothing is saved', async (_label, over, field, message) => {
      const res = await call<Refused>(t, admin, 'POST', '/api/cj/products/save', { pid, isSaved: true, brand: 'Acme', ...over });
      expect(res).toEqual({ status: 400, body: { message, code: 'VALIDATION_ERROR', fieldErrors: { [field]: message } } });
      expect(await saves(pid)).toBe(0);
    });

    it('refuses a variant price or stock that is not decimal, naming the variants; nothing is saved', async () => {
      const product = (await call<{ variants: Array<{ vid: string }> }>(t, admin, 'GET', `/api/cj/products/${pid}`)).body;
      const other = product.variants[1]?.vid ?? product.variants[0]!.vid;
      for (const [variant, message] of [
        [{ vid: other, price: '0x10' }, 'Variant price must be a number written like 19.99'],
        [{ vid: other, countInStock: '1e1' }, 'Variant stock must be a whole number written like 12'],
      ] as const) {
        const res = await call<Refused>(t, admin, 'POST', '/api/cj/products/save', { pid, brand: 'Acme', variants: [variant] });
        expect(res).toEqual({ status: 400, body: { message, code: 'VALIDATION_ERROR', fieldErrors: { [Object.keys(variant)[1] === 'price' ? 'variants.0.price' : 'variants.0.countInStock']: message } } });
      }
      expect(await saves(pid)).toBe(0);
    });

    it('saves with decimal text and the supplier\'s own images; a later bad save changes nothing', async () => {
      const res = await call<CjSaveResponse>(t, admin, 'POST', '/api/cj/products/save', { pid, isSaved: true, brand: 'Acme', price: '24.50', countInStock: ' 12 ' });
      expect(res.status).toBe(201);
      expect(res.body.product).toMatchObject({ price: 24.5, countInStock: 12, brand: 'Acme' });
      expect(res.body.product.image).toMatch(/^\/api\/cj\/offline-images\/v1\/p\d+-0\.webp$/);
      const id = res.body.product._id;
      const before = { product: await rowOf(id), variants: await t.database.db.select().from(productVariants).where(eq(productVariants.productId, id)) };
      for (const over of [{ price: '0x10' }, { countInStock: ' 0b11 ' }, { image: 'javascript:alert(1)' }, { images: ['data:,x'] }]) {
        expect((await call(t, admin, 'POST', '/api/cj/products/save', { pid, ...over })).status, JSON.stringify(over)).toBe(400);
      }
      expect({ product: await rowOf(id), variants: await t.database.db.select().from(productVariants).where(eq(productVariants.productId, id)) }).toEqual(before);
    });
  });
});
