import { mkdirSync, mkdtempSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import type { AddressInfo } from 'node:net';
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

/** A build as scripts/build-web.mjs leaves it: `<root>/dist-<id>/` with its index.html and assets. */
function buildDir(root: string, id: string, assets: Record<string, string>): string {
  const dir = path.join(root, `dist-${id}`);
  mkdirSync(path.join(dir, 'assets'), { recursive: true });
  mkdirSync(path.join(dir, '.vite'), { recursive: true });
  writeFileSync(path.join(dir, 'index.html'), INDEX_HTML.replace('Shop home', `Shop build ${id}`));
  writeFileSync(path.join(dir, '.vite', 'manifest.json'), '{}');
  for (const [name, body] of Object.entries(assets)) writeFileSync(path.join(dir, 'assets', name), body);
  return dir;
}

describe('SPA serving while a deploy switches the build under a running instance', () => {
  let t: TestApp;
  let root: string;
  let link: string;
  beforeAll(async () => {
    root = mkdtempSync(path.join(tmpdir(), 'shop-spa-deploy-'));
    link = path.join(root, 'dist');
    buildDir(root, 'a', { 'index-A.js': 'build a', 'shared-S.js': 'shared' });
    symlinkSync('dist-a', link);
    writeFileSync(path.join(root, 'secret.txt'), 'NOT FOR THE WEB');
    t = await createTestApp({ env: { WEB_DIST_DIR: link } });
  });
  afterAll(async () => {
    await t.close();
    rmSync(root, { recursive: true, force: true });
  });

  const get = (url: string, method: 'GET' | 'HEAD' = 'GET') => t.app.inject({ method, url });

  it('serves files that appear after the start, looked up on request, with the same cache headers', async () => {
    expect((await get('/assets/late-L.js')).statusCode).toBe(404);
    writeFileSync(path.join(root, 'dist-a', 'assets', 'late-L.js'), 'late');
    writeFileSync(path.join(root, 'dist-a', 'late.svg'), '<svg/>');
    const asset = await get('/assets/late-L.js');
    expect(asset.statusCode).toBe(200);
    expect(asset.body).toBe('late');
    expect(asset.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    const head = await get('/assets/late-L.js', 'HEAD');
    expect(head.statusCode).toBe(200);
    expect(head.body).toBe('');
    // Compressed as before (a route, which @fastify/compress sees).
    writeFileSync(path.join(root, 'dist-a', 'assets', 'big-G.js'), `console.log(${JSON.stringify('x'.repeat(5000))})`);
    const big = await t.app.inject({ method: 'GET', url: '/assets/big-G.js', headers: { 'accept-encoding': 'gzip' } });
    expect(big.statusCode).toBe(200);
    expect(big.headers['content-encoding']).toBe('gzip');
    expect(big.headers['content-type']).toBe('application/javascript; charset=utf-8');
    const top = await get('/late.svg');
    expect(top.statusCode).toBe(200);
    expect(top.body).toBe('<svg/>');
    expect(top.headers['cache-control']).toBe('public, max-age=3600');
  });

  it('after the link moves to a new build: serves the new build\'s files and the old one\'s, and keeps rendering the page it started with', async () => {
    // The new build carries the old build's shared asset (kept by the build), not its entry.
    buildDir(root, 'b', { 'index-B.js': 'build b', 'shared-S.js': 'shared' });
    symlinkSync('dist-b', path.join(root, '.dist.link'));
    renameSync(path.join(root, '.dist.link'), link);
    // A page of the new build, rendered by an instance started on it, names index-B.js: this instance serves it.
    const b = await get('/assets/index-B.js');
    expect(b.statusCode).toBe(200);
    expect(b.body).toBe('build b');
    // Its own build's files are still found (in the build it started with).
    expect((await get('/assets/index-A.js')).body).toBe('build a');
    expect((await get('/assets/shared-S.js')).body).toBe('shared');
    // Its pages stay those of the build it started with (their chunks are the ones it serves).
    const page = await get('/cart');
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('<title>Shop build a</title>');
    expect((await get('/assets/missing-M.js')).statusCode).toBe(404);
  });

  it('never serves a path outside the build, a hidden file or a directory: 404 JSON', async () => {
    const urls = [
      '/assets/..%2f..%2fsecret.txt', '/assets/%2e%2e/%2e%2e/secret.txt', '/..%2fsecret.txt', '/%2e%2e/secret.txt',
      '/assets/..%5c..%5csecret.txt', '/.vite/manifest.json', '/assets/.hidden.js', '/assets/', '/assets/%00.js',
      '/assets//index-A.js', '/index.html/..%2f..%2fsecret.txt',
    ];
    writeFileSync(path.join(root, 'dist-b', 'assets', '.hidden.js'), 'HIDDEN CONTENT');
    // Over a socket, as sent (inject would resolve the dots of the URL first).
    await t.app.listen({ host: '127.0.0.1', port: 0 });
    const { port } = t.app.server.address() as AddressInfo;
    for (const url of [...urls, '/assets/../../secret.txt', '/../secret.txt', '/assets/./index-A.js/../../../secret.txt']) {
      const res = await new Promise<{ status: number; type: string; body: string }>((resolve, reject) => {
        request({ host: '127.0.0.1', port, path: url }, (r) => {
          let body = '';
          r.on('data', (d: Buffer) => { body += d.toString(); });
          r.on('end', () => resolve({ status: r.statusCode ?? 0, type: String(r.headers['content-type']), body }));
        }).on('error', reject).end();
      });
      expect(res.body, url).not.toContain('NOT FOR THE WEB');
      expect(res.body, url).not.toContain('HIDDEN CONTENT');
      expect([400, 404], url).toContain(res.status);
      expect(res.type, url).toContain('application/json');
    }
  });
});
