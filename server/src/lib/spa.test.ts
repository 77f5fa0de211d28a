import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertProduct } from '../modules/products/test-factories.ts';
import { createTestApp, type TestApp } from '../test/test-app.ts';

const INDEX_HTML = '<!doctype html><html><head><title>Shop home</title></head><body><div id="root"></div></body></html>';

function webBuild(): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'shop-spa-'));
  mkdirSync(path.join(dir, 'assets'));
  writeFileSync(path.join(dir, 'index.html'), INDEX_HTML);
  writeFileSync(path.join(dir, 'assets', 'app-123.js'), 'console.log(1)');
  return dir;
}

describe('SPA serving', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ env: { WEB_DIST_DIR: webBuild() } });
    await insertProduct(t, { name: 'Lamp', slug: 'lamp' });
  });
  afterAll(async () => { await t.close(); });

  const isPage = (res: { statusCode: number; headers: Record<string, unknown>; body: string }) => {
    expect(res.statusCode).toBe(200);
    expect(String(res.headers['content-type'])).toBe('text/html; charset=utf-8');
    expect(res.body).toContain('<div id="root"></div>');
  };

  it('serves index.html for a page whatever the Accept header (curl sends none, others */* or JSON)', async () => {
    for (const accept of [undefined, '*/*', 'application/json', 'text/html']) {
      for (const url of ['/', '/search?query=mug', '/product/lamp', '/admin/products', '/some/client/route']) {
        const res = await t.app.inject({ method: 'GET', url, headers: accept ? { accept } : {} });
        isPage(res);
      }
    }
    const head = await t.app.inject({ method: 'HEAD', url: '/orderhistory' });
    expect(head.statusCode).toBe(200);
    expect(String(head.headers['content-type'])).toBe('text/html; charset=utf-8');
  });

  it('keeps 404 JSON for unknown API routes, missing assets and files, and non-GET requests', async () => {
    const cases: Array<[string, string]> = [
      ['GET', '/api/nope'], ['GET', '/api'], ['GET', '/assets/missing.js'], ['GET', '/assets/chunk'], ['GET', '/favicon.ico'],
      ['GET', '/images/photo.png'], ['POST', '/some/page'], ['DELETE', '/'],
    ];
    for (const [method, url] of cases) {
      const res = await t.app.inject({ method: method as 'GET', url, headers: { accept: 'text/html' } });
      expect(res.statusCode, `${method} ${url}`).toBe(404);
      expect(res.json()).toEqual({ message: `Route ${method} ${url} not found`, code: 'NOT_FOUND' });
    }
    const asset = await t.app.inject({ method: 'GET', url: '/assets/app-123.js' });
    expect(asset.statusCode).toBe(200);
    expect(asset.headers['cache-control']).toBe('public, max-age=31536000, immutable');
  });

  it('a product page URL with a NUL character gets the plain page (the app shows its not-found state), not a 500', async () => {
    for (const url of ['/product/a%00b', '/product/%00', '/product/a%0Ab', '/search?category=%00']) {
      const res = await t.app.inject({ method: 'GET', url });
      isPage(res);
      // The product-page transform did not run: the page keeps its default title.
      expect(res.body).toContain('<title>Shop home</title>');
    }
    // A URL that is not even valid percent-encoding is refused by the router with our error shape.
    const malformed = await t.app.inject({ method: 'GET', url: '/product/%E0%A4%A' });
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json()).toEqual({ message: 'Malformed URL', code: 'FST_ERR_BAD_URL' });
    // A real product page still gets its tags.
    const lamp = await t.app.inject({ method: 'GET', url: '/product/lamp' });
    expect(lamp.body).toContain('<title>Lamp | Shop</title>');
  });

  it('a failing page transform is skipped: the page is served', async () => {
    t.app.ctx.htmlTransforms.push(async () => {
      throw new Error('transform exploded');
    });
    try {
      isPage(await t.app.inject({ method: 'GET', url: '/cart' }));
    } finally {
      t.app.ctx.htmlTransforms.pop();
    }
  });
});
