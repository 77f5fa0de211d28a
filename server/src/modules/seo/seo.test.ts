import { CARD_IMAGE_SIZES } from '@shop/contracts';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/test-app.ts';
import { insertProduct } from '../products/test-factories.ts';
import { escapeHtml, jsonForScript, summarize } from './html.ts';
import { cardImagePreload, PRELOADED_CARDS } from './listing-preload.ts';
import { renderProductsSitemap, renderSitemap } from './sitemap.ts';

const INDEX_HTML = `<!doctype html>
<html lang="en">
  <head>
    <meta charset="UTF-8" />
    <meta name="description" content="Default description" />
    <title>Shop: Smart Finds. Joyfully Delivered</title>
  </head>
  <body><div id="root"></div></body>
</html>`;

function webBuild(withRobots = false): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'shop-web-'));
  mkdirSync(path.join(dir, 'assets'));
  writeFileSync(path.join(dir, 'index.html'), INDEX_HTML);
  if (withRobots) writeFileSync(path.join(dir, 'robots.txt'), 'User-agent: *\nAllow: /\n');
  return dir;
}

const html = { accept: 'text/html,application/xhtml+xml' };

describe('SEO: product pages, sitemap and robots.txt', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ env: { WEB_DIST_DIR: webBuild(), PUBLIC_URL: 'https://shop.example.com' } });
    await insertProduct(t, {
      name: 'Aurora "Pro" Headphones', slug: 'aurora-pro', brand: 'Sound & Co', category: 'Audio & Video', price: 200,
      isOnSale: true, saleDiscount: 25, countInStock: 3, rating: 4.26, numReviews: 12, image: '/uploads/aurora.webp',
      images: ['/uploads/aurora-2.webp', 'https://cdn.example.com/a3.webp'],
      description: 'Wireless headphones </script><script>alert(1)</script> with <b>bold</b> "quotes" & more.',
    });
    await insertProduct(t, { name: 'Sold Out Mug', slug: 'sold-out-mug', category: 'Home', price: 10, countInStock: 0, numReviews: 0 });
    await insertProduct(t, { name: 'Hidden Draft', slug: 'hidden-draft', isDraft: true });
  });
  afterAll(async () => { await t.close(); });

  it('puts title, description, canonical, Open Graph and JSON-LD into /product/{slug}', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/product/aurora-pro', headers: html });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('text/html');
    const page = res.body;
    expect(page).toContain('<title>Aurora &quot;Pro&quot; Headphones | Shop</title>');
    expect(page.match(/<title>/g)).toHaveLength(1);
    expect(page).not.toContain('Default description');
    expect(page).toContain('<link rel="canonical" href="https://shop.example.com/product/aurora-pro" />');
    expect(page).toContain('<meta property="og:type" content="product" />');
    expect(page).toContain('<meta property="og:title" content="Aurora &quot;Pro&quot; Headphones" />');
    expect(page).toContain('<meta property="og:url" content="https://shop.example.com/product/aurora-pro" />');
    expect(page).toContain('<meta property="og:image" content="https://shop.example.com/uploads/aurora.webp" />');
    expect(page).toContain('<meta property="product:price:amount" content="150.00" />');
    expect(page).toMatch(/<meta name="description" content="Wireless headphones &lt;\/script&gt;&lt;script&gt;alert\(1\)&lt;\/script&gt; with &lt;b&gt;bold&lt;\/b&gt; &quot;quotes&quot; &amp; more." \/>/);
    // The only script element is ours, and nothing in it can close it.
    expect(page.match(/<script/g)).toHaveLength(1);
    expect(page.match(/<\/script>/g)).toHaveLength(1);
    const json = /<script type="application\/ld\+json">([\s\S]*?)<\/script>/.exec(page)?.[1] ?? '';
    expect(json).not.toContain('<');
    const ld = JSON.parse(json);
    expect(ld).toMatchObject({
      '@context': 'https://schema.org',
      '@type': 'Product',
      name: 'Aurora "Pro" Headphones',
      sku: expect.stringMatching(/^[0-9a-f]{24}$/),
      brand: { '@type': 'Brand', name: 'Sound & Co' },
      image: ['https://shop.example.com/uploads/aurora.webp', 'https://shop.example.com/uploads/aurora-2.webp', 'https://cdn.example.com/a3.webp'],
      offers: { '@type': 'Offer', priceCurrency: 'USD', price: '150.00', availability: 'https://schema.org/InStock', url: 'https://shop.example.com/product/aurora-pro' },
      aggregateRating: { '@type': 'AggregateRating', ratingValue: 4.3, reviewCount: 12 },
    });
    expect(ld.description).toContain('</script><script>alert(1)</script>');
  });

  it('marks out-of-stock products and omits the rating when there are no reviews', async () => {
    const page = (await t.app.inject({ method: 'GET', url: '/product/sold-out-mug', headers: html })).body;
    const ld = JSON.parse(/<script type="application\/ld\+json">([\s\S]*?)<\/script>/.exec(page)?.[1] ?? '{}');
    expect(ld.offers.availability).toBe('https://schema.org/OutOfStock');
    expect(ld).not.toHaveProperty('aggregateRating');
  });

  it('answers unknown and draft slugs with a Product Not Found title and noindex', async () => {
    for (const slug of ['no-such-product', 'hidden-draft', `${'x'.repeat(300)}`]) {
      const page = (await t.app.inject({ method: 'GET', url: `/product/${slug}`, headers: html })).body;
      expect(page, slug).toContain('<title>Product Not Found | Shop</title>');
      expect(page).toContain('<meta name="robots" content="noindex" />');
      expect(page).not.toContain('Hidden Draft');
    }
  });

  it('preloads the first card images of the home and search pages with the cards\' srcset and sizes', async () => {
    for (const [url, api, sizes] of [
      ['/', '/api/products', CARD_IMAGE_SIZES.home],
      ['/search', '/api/products/search', CARD_IMAGE_SIZES.search],
    ] as const) {
      const res = (await t.app.inject({ method: 'GET', url: api, headers: { 'cache-control': 'no-cache' } })).json() as
        { image: string }[] | { products: { image: string }[] };
      const first = (Array.isArray(res) ? res : res.products).slice(0, PRELOADED_CARDS).map((p) => p.image);
      expect(first, url).toEqual(['/uploads/aurora.webp', '/uploads/test.webp']);
      const page = (await t.app.inject({ method: 'GET', url, headers: html })).body;
      const links = first.map((src) => {
        const key = src.slice('/uploads/'.length);
        const srcset = `/uploads/w/200/${key} 200w, /uploads/w/400/${key} 400w, /uploads/w/800/${key} 800w`;
        return `  <link rel="preload" as="image" href="${src}" imagesrcset="${srcset}" imagesizes="${sizes}" fetchpriority="high" />\n`;
      });
      expect(page, url).toContain(`${links.join('')}  </head>`);
      expect(page.match(/rel="preload"/g), url).toHaveLength(2);
    }
    for (const url of ['/search?query=x', '/?ref=mail', '/cart', '/product/aurora-pro']) {
      const page = (await t.app.inject({ method: 'GET', url, headers: html })).body;
      expect(page, url).not.toContain('rel="preload"');
    }
  });

  it('preloads a card image that is not in the upload store as it is, without a srcset', () => {
    expect(cardImagePreload('https://cdn.example.com/a.jpg?x=1&y="2"', '50vw')).toBe(
      '<link rel="preload" as="image" href="https://cdn.example.com/a.jpg?x=1&amp;y=&quot;2&quot;" fetchpriority="high" />',
    );
  });

  it('leaves other pages as built', async () => {
    const page = (await t.app.inject({ method: 'GET', url: '/search?query=x', headers: html })).body;
    expect(page).toContain('<title>Shop: Smart Finds. Joyfully Delivered</title>');
    expect(page).toContain('Default description');
  });

  it('lists the storefront pages and every published product in /sitemap.xml', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/sitemap.xml' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/xml; charset=utf-8');
    const xml = res.body;
    expect(xml.startsWith('<?xml version="1.0" encoding="UTF-8"?>')).toBe(true);
    expect(xml).toContain('<loc>https://shop.example.com/</loc>');
    expect(xml).toContain('<loc>https://shop.example.com/search?category=Audio%20%26%20Video</loc>');
    expect(xml).toContain('<loc>https://shop.example.com/product/aurora-pro</loc>');
    expect(xml).toContain('<loc>https://shop.example.com/product/sold-out-mug</loc>');
    expect(xml).not.toContain('hidden-draft');
    expect(xml.match(/<url>/g)).toHaveLength(3 + 2 + 2);
    expect(xml).toMatch(/<lastmod>\d{4}-\d\d-\d\dT/);
  });

  it('splits big catalogues into a sitemap index', async () => {
    const index = await renderSitemap(t.database.db, 'https://s.test', ['Home'], 1);
    expect(index).toContain('<sitemapindex');
    expect(index).toContain('<loc>https://s.test/sitemaps/pages.xml</loc>');
    expect(index).toContain('<loc>https://s.test/sitemaps/products-2.xml</loc>');
    expect(index).not.toContain('products-3.xml');
    const part2 = await renderProductsSitemap(t.database.db, 'https://s.test', 2, 1);
    expect(part2?.match(/<url>/g)).toHaveLength(1);
    expect(await renderProductsSitemap(t.database.db, 'https://s.test', 3, 1)).toBeNull();
    const served = await t.app.inject({ method: 'GET', url: '/sitemaps/products-1.xml' });
    expect(served.statusCode).toBe(200);
    expect(served.body.match(/<url>/g)).toHaveLength(2);
    expect((await t.app.inject({ method: 'GET', url: '/sitemaps/products-9.xml' })).statusCode).toBe(404);
    expect((await t.app.inject({ method: 'GET', url: '/sitemaps/pages.xml' })).body).toContain('/search?category=Home');
  });

  it('serves /robots.txt pointing at the sitemap', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/robots.txt' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/plain; charset=utf-8');
    expect(res.body).toContain('User-agent: *');
    expect(res.body).toContain('Disallow: /admin/');
    expect(res.body).toContain('Disallow: /api/');
    expect(res.body).toContain('Sitemap: https://shop.example.com/sitemap.xml');
  });

  it('defers to a robots.txt in the web build instead of clashing with it', async () => {
    const other = await createTestApp({ env: { WEB_DIST_DIR: webBuild(true) } });
    try {
      const res = await other.app.inject({ method: 'GET', url: '/robots.txt' });
      expect(res.statusCode).toBe(200);
      expect(res.body).toBe('User-agent: *\nAllow: /\n');
      const sitemap = await other.app.inject({ method: 'GET', url: '/sitemap.xml', headers: { host: 'localhost:3000' } });
      expect(sitemap.body).toContain('<loc>http://localhost:3000/</loc>');
    } finally {
      await other.close();
    }
  });

  it('escapes helpers correctly', () => {
    expect(escapeHtml(`<a href="x">'&'</a>`)).toBe('&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;');
    expect(jsonForScript({ a: '</script>&\u2028' })).toBe('{"a":"\\u003c/script\\u003e\\u0026\\u2028"}');
    expect(summarize('word '.repeat(100), 20)).toBe('word word word word…');
    expect(summarize('  short   text ')).toBe('short text');
  });
});
