import { gunzipSync } from 'node:zlib';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { products } from '../../db/schema.ts';
import { createAdmin, createTestApp, type TestApp, type TestUser } from '../../test/test-app.ts';
import { createCatalogueCache } from './catalogue-cache.ts';
import { insertProduct } from './test-factories.ts';

describe('micro-cached storefront reads', () => {
  let t: TestApp;
  let admin: TestUser;
  beforeAll(async () => {
    t = await createTestApp();
    admin = await createAdmin(t);
  });
  afterAll(async () => { await t.close(); });

  const get = (url: string, headers: Record<string, string> = {}) => t.app.inject({ method: 'GET', url, headers });

  it('serves a repeated read from memory until the catalogue changes on this instance', async () => {
    const p = await insertProduct(t, { name: 'Cached Kettle', slug: 'cached-kettle', price: 30 });
    const first = await get('/api/products/search?query=kettle');
    expect(first.json().products[0].price).toBe(30);
    expect(first.headers['content-type']).toBe('application/json; charset=utf-8');

    // A change made behind the app's back (another instance) shows after the TTL...
    await t.database.db.update(products).set({ price: 35 }).where(eq(products.id, p.id));
    expect((await get('/api/products/search?query=kettle')).body).toBe(first.body);
    expect((await get('/api/products/search?query=KETTLE')).body).toBe(first.body);
    expect((await get('/api/products/slug/cached-kettle')).json().price).toBe(35);
    await t.database.db.update(products).set({ price: 36 }).where(eq(products.id, p.id));
    expect((await get('/api/products/slug/cached-kettle')).json().price).toBe(35);
    // ...unless the client asks for a fresh answer...
    expect((await get('/api/products/search?query=kettle', { 'cache-control': 'no-cache' })).json().products[0].price).toBe(36);
    expect((await get('/api/products/slug/cached-kettle', { 'cache-control': 'no-cache' })).json().price).toBe(36);

    // ...and a write through this instance clears it at once.
    const del = await t.app.inject({ method: 'DELETE', url: `/api/products/${p.id}`, headers: { cookie: admin.cookie } });
    expect(del.statusCode).toBe(200);
    expect((await get('/api/products/search?query=kettle')).json().countProducts).toBe(0);
    expect((await get('/api/products/slug/cached-kettle')).statusCode).toBe(404);
  });

  it('gzips answers of 4 KB and more when the client accepts gzip, in one piece, cached or not', async () => {
    for (let i = 0; i < 12; i += 1) {
      await insertProduct(t, { name: `Zipped Teapot ${i}`, slug: `zipped-teapot-${i}`, description: `A teapot that pours well. ${'Porcelain, hand glazed. '.repeat(12)}` });
    }
    for (const fresh of [{}, { 'cache-control': 'no-cache' }] as Array<Record<string, string>>) {
      const plain = await get('/api/products/search?query=zipped', fresh);
      expect(plain.json().products).toHaveLength(12);
      expect(plain.rawPayload.length).toBeGreaterThanOrEqual(4096);
      expect(plain.headers['content-encoding']).toBeUndefined();
      expect(plain.headers.vary).toBe('accept-encoding');
      const zipped = await get('/api/products/search?query=zipped', { ...fresh, 'accept-encoding': 'gzip, deflate, br' });
      expect(zipped.headers['content-encoding']).toBe('gzip');
      expect(zipped.headers['content-type']).toBe('application/json; charset=utf-8');
      expect(zipped.headers['transfer-encoding']).toBeUndefined();
      expect(Number(zipped.headers['content-length'])).toBe(zipped.rawPayload.length);
      expect(zipped.rawPayload.length).toBeLessThan(plain.rawPayload.length / 2);
      expect(gunzipSync(zipped.rawPayload).toString()).toBe(plain.body);
      // gzip refused (q=0), or not offered: as it is.
      expect((await get('/api/products/search?query=zipped', { ...fresh, 'accept-encoding': 'br, gzip;q=0' })).headers['content-encoding']).toBeUndefined();
      expect((await get('/api/products/search?query=zipped', { ...fresh, 'accept-encoding': 'br' })).headers['content-encoding']).toBeUndefined();
      // A product page under 4 KB goes as it is.
      const small = await get('/api/products/slug/zipped-teapot-1', { ...fresh, 'accept-encoding': 'gzip' });
      expect(small.statusCode).toBe(200);
      expect(small.rawPayload.length).toBeLessThan(4096);
      expect(small.headers['content-encoding']).toBeUndefined();
      expect(small.json().name).toBe('Zipped Teapot 1');
    }
  });

  it('does not cache failures', async () => {
    expect((await get('/api/products/slug/later')).statusCode).toBe(404);
    await insertProduct(t, { name: 'Later', slug: 'later' });
    expect((await get('/api/products/slug/later')).statusCode).toBe(200);
  });

  it('expires entries, shares concurrent loads and forgets loads that raced with a clear', async () => {
    let now = 0;
    const cache = createCatalogueCache(() => now);
    let loads = 0;
    const load = async () => { loads += 1; return loads; };
    const [a, b] = await Promise.all([cache.remember('k', 100, load), cache.remember('k', 100, load)]);
    expect([a, b, loads]).toEqual([1, 1, 1]);
    now = 50;
    expect(await cache.remember('k', 100, load)).toBe(1);
    now = 150;
    expect(await cache.remember('k', 100, load)).toBe(2);
    let release: (v: number) => void = () => undefined;
    const slow = cache.remember('s', 100, () => new Promise<number>((r) => { release = r; }));
    cache.clear();
    release(7);
    expect(await slow).toBe(7);
    expect(await cache.remember('s', 100, async () => 8)).toBe(8);
    await expect(cache.remember('e', 100, async () => { throw new Error('boom'); })).rejects.toThrow('boom');
    expect(await cache.remember('e', 100, async () => 9)).toBe(9);
  });

  it('with staleMs, answers an expired entry while one load refreshes it; a failed refresh keeps it; clear() drops it', async () => {
    let now = 0;
    const cache = createCatalogueCache(() => now, 100, 1_000);
    let loads = 0;
    let release: (v: string) => void = () => undefined;
    let fail = false;
    const load = () => {
      loads += 1;
      if (fail) return Promise.reject(new Error('render failed'));
      return loads === 1 ? Promise.resolve('v1') : new Promise<string>((r) => { release = r; });
    };
    expect(await cache.remember('p', 100, load)).toBe('v1');
    now = 150; // expired, within the stale window: the old page at once, one refresh started
    const answers = await Promise.all([cache.remember('p', 100, load), cache.remember('p', 100, load), cache.remember('p', 100, load)]);
    expect(answers).toEqual(['v1', 'v1', 'v1']);
    expect(loads).toBe(2);
    release('v2');
    await new Promise((r) => setImmediate(r));
    expect(await cache.remember('p', 100, load)).toBe('v2');
    expect(loads).toBe(2);
    // A refresh that fails keeps the stale page; the next request tries again.
    now = 300;
    fail = true;
    expect(await cache.remember('p', 100, load)).toBe('v2');
    await new Promise((r) => setImmediate(r));
    expect(await cache.remember('p', 100, load)).toBe('v2');
    expect(loads).toBe(4);
    // Past the stale window: a miss that waits for its load (and fails with it).
    now = 300 + 1_200;
    await expect(cache.remember('p', 100, load)).rejects.toThrow('render failed');
    // clear() (a product write) drops stale pages too: the next request waits for a fresh one.
    fail = false;
    loads = 0;
    expect(await cache.remember('q', 100, load)).toBe('v1');
    now += 150;
    cache.clear();
    const after = cache.remember('q', 100, load);
    release('fresh');
    expect(await after).toBe('fresh');
  });
});
