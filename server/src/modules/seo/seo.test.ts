import { CARD_IMAGE_SIZES, PRODUCT_IMAGE_SIZES } from '@shop/contracts';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/test-app.ts';
import { insertProduct } from '../products/test-factories.ts';
import { escapeHtml, jsonForScript, summarize } from './html.ts';
import { imagePreload, PRELOADED_CARDS } from './listing-preload.ts';
import { galleryImagePreload } from './product-page-tags.ts';
import { fetchPreload, modulePreload, moduleChunkFiles, routePage, routePreloadTags, searchApiPath, type ViteManifest } from './route-preload.ts';
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

/** A build manifest as Vite writes it: the entry, lazy pages and the chunks they share. */
const MANIFEST: ViteManifest = {
  'index.html': { file: 'assets/index-E1.js', isEntry: true, imports: ['_vendor-V1.js'] },
  '_vendor-V1.js': { file: 'assets/vendor-V1.js' },
  '_Button-B1.js': { file: 'assets/Button-B1.js', imports: ['_vendor-V1.js', '_Row-R1.js'] },
  '_Row-R1.js': { file: 'assets/Row-R1.js', imports: ['_Button-B1.js'] },
  'src/features/cart/pages/CartPage.tsx': { file: 'assets/CartPage-C1.js', imports: ['_Button-B1.js', '_vendor-V1.js', '_Row-R1.js'] },
  'src/features/products/pages/ProductPage.tsx': { file: 'assets/ProductPage-P1.js', imports: ['_Button-B1.js'] },
  'src/features/checkout/pages/ShippingPage.tsx': { file: 'assets/ShippingPage-S1.js' },
  // A page merged into a chunk that its own lazy import shares: the key is the chunk's, not the source path.
  '_ProfilePage-F1.js': { file: 'assets/ProfilePage-F1.js', name: 'ProfilePage', isDynamicEntry: true, imports: ['index.html', '_Button-B1.js'] },
  'src/features/users/lib/profile-schema.ts': { file: 'assets/profile-schema-Z1.js', name: 'profile-schema', src: 'src/features/users/lib/profile-schema.ts', isDynamicEntry: true, imports: ['_ProfilePage-F1.js'] },
  '_PrivacyPage-A1.js': { file: 'assets/PrivacyPage-A1.js', name: 'PrivacyPage', isDynamicEntry: true },
  '_PrivacyPage-A2.js': { file: 'assets/PrivacyPage-A2.js', name: 'PrivacyPage', isDynamicEntry: true },
};

function webBuild(withRobots = false): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'shop-web-'));
  mkdirSync(path.join(dir, 'assets'));
  mkdirSync(path.join(dir, '.vite'));
  writeFileSync(path.join(dir, 'index.html'), INDEX_HTML);
  writeFileSync(path.join(dir, '.vite/manifest.json'), JSON.stringify(MANIFEST));
  if (withRobots) writeFileSync(path.join(dir, 'robots.txt'), 'User-agent: *\nAllow: /\n');
  return dir;
}

const html = { accept: 'text/html,application/xhtml+xml' };

describe('SEO: product pages, sitemap and robots.txt', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ env: { WEB_DIST_DIR: webBuild(), PUBLIC_URL: 'https://shop.example.com' } });
    // Explicit ages: the listing order (newest first) must not depend on how long each insert takes.
    const now = Date.now();
    await insertProduct(t, {
      createdAt: new Date(now - 60_000),
      name: 'Aurora "Pro" Headphones', slug: 'aurora-pro', brand: 'Sound & Co', category: 'Audio & Video', price: 200,
      isOnSale: true, saleDiscount: 25, countInStock: 3, rating: 4.26, numReviews: 12, image: '/uploads/aurora.webp',
      images: ['/uploads/aurora-2.webp', 'https://cdn.example.com/a3.webp'],
      description: 'Wireless headphones </script><script>alert(1)</script> with <b>bold</b> "quotes" & more.',
    });
    await insertProduct(t, { createdAt: new Date(now - 120_000), name: 'Sold Out Mug', slug: 'sold-out-mug', category: 'Home', price: 10, countInStock: 0, numReviews: 0 });
    await insertProduct(t, { createdAt: new Date(now - 180_000), name: 'Hidden Draft', slug: 'hidden-draft', isDraft: true });
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
      expect(page, url).toContain(links.join(''));
      expect(page.match(/rel="preload" as="image"/g), url).toHaveLength(2);
    }
    for (const url of ['/search?query=x', '/?ref=mail', '/cart']) {
      const page = (await t.app.inject({ method: 'GET', url, headers: html })).body;
      expect(page, url).not.toContain('rel="preload" as="image"');
    }
  });

  it("preloads a product page's main image", async () => {
    const page = (await t.app.inject({ method: 'GET', url: '/product/aurora-pro', headers: html })).body;
    const srcset = (key: string) => `/uploads/w/200/${key} 200w, /uploads/w/400/${key} 400w, /uploads/w/800/${key} 800w`;
    expect(page).toContain(
      `<link rel="preload" as="image" href="/uploads/aurora.webp" imagesrcset="${srcset('aurora.webp')}" imagesizes="${PRODUCT_IMAGE_SIZES}" fetchpriority="high" />`,
    );
    expect(page.match(/rel="preload" as="image"/g)).toHaveLength(1);
    expect(galleryImagePreload({ image: '', images: ['', '/uploads/b.webp'] })).toEqual([
      `<link rel="preload" as="image" href="/uploads/b.webp" imagesrcset="${srcset('b.webp')}" imagesizes="${PRODUCT_IMAGE_SIZES}" fetchpriority="high" />`,
    ]);
    expect(galleryImagePreload({ image: '', images: [] })).toEqual([]);
    const missing = (await t.app.inject({ method: 'GET', url: '/product/no-such-product', headers: html })).body;
    expect(missing).not.toContain('as="image"');
  });

  it("modulepreloads a lazy page's chunks from the build manifest, without the entry's", async () => {
    expect(moduleChunkFiles(MANIFEST, 'src/features/cart/pages/CartPage.tsx')).toEqual([
      'assets/CartPage-C1.js', 'assets/Button-B1.js', 'assets/Row-R1.js',
    ]);
    expect(moduleChunkFiles(MANIFEST, 'src/features/users/pages/ProfilePage.tsx')).toEqual(['assets/ProfilePage-F1.js', 'assets/Button-B1.js', 'assets/Row-R1.js']);
    // Two chunks of that name: none is guessed.
    expect(moduleChunkFiles(MANIFEST, 'src/features/privacy/pages/PrivacyPage.tsx')).toEqual([]);
    expect(moduleChunkFiles(MANIFEST, 'src/features/search/pages/SearchPage.tsx')).toEqual([]);
    const cart = (await t.app.inject({ method: 'GET', url: '/cart', headers: html })).body;
    // Low priority: the page's stylesheet and images go first on a slow link (web/src/lib/app-start-html.ts).
    const preloads = [...cart.matchAll(/<link rel="modulepreload" fetchpriority="low" crossorigin href="([^"]+)" \/>/g)].map((m) => m[1]);
    expect(preloads).toEqual(['/assets/CartPage-C1.js', '/assets/Button-B1.js', '/assets/Row-R1.js']);
    expect(cart.indexOf('rel="modulepreload"')).toBeLessThan(cart.indexOf('</head>'));
    // Signed out: no API reads that need a session.
    expect(cart).not.toContain('as="fetch"');
    // The home page's code is in the entry; unknown pages and the admin area get nothing.
    for (const url of ['/', '/no-such-page', '/admin/products']) {
      const page = (await t.app.inject({ method: 'GET', url, headers: html })).body;
      expect(page.replace(/<link [^>]*data-app-entry>/, ''), url).not.toContain('rel="modulepreload"');
    }
  });

  it('preloads the API reads a page starts with, the session ones only with a session cookie', async () => {
    const fetches = (page: string) => [...page.matchAll(/<link rel="preload" as="fetch" href="([^"]+)" crossorigin="use-credentials" \/>/g)].map((m) => m[1]!.replaceAll('&amp;', '&'));
    const get = async (url: string, cookie?: string) =>
      (await t.app.inject({ method: 'GET', url, headers: { ...html, ...(cookie ? { cookie } : {}) } })).body;
    expect(fetches(await get('/'))).toEqual(['/api/products']);
    expect(fetches(await get('/product/aurora-pro'))).toEqual(['/api/products/slug/aurora-pro']);
    expect(fetches(await get('/shipping'))).toEqual([]);
    expect(fetches(await get('/shipping', 'access_token=abc'))).toEqual(['/api/users/current', '/api/addresses']);
    expect(fetches(await get('/orderhistory/', 'access_token=abc'))).toEqual(['/api/users/current', '/api/orders/mine']);
    expect(fetches(await get('/payment?x=1', 'other=1; access_token=abc'))).toEqual(['/api/users/current']);
    expect(fetches(await get('/payment', 'refresh_token=abc'))).toEqual([]);
    expect(fetches(await get('/placeorder', 'access_token=abc'))).toEqual(['/api/users/current', '/api/cart']);
    // A page the server rendered for the signed-in visitor holds who they are: only the page's own read.
    expect(routePreloadTags(null, { url: '/shipping', cookies: { access_token: 'abc' }, serverRendered: true, renderedForViewer: true }).filter((tag) => tag.includes('as="fetch"')))
      .toEqual([fetchPreload('/api/addresses')]);
    expect(routePreloadTags(null, { url: '/shipping', cookies: { access_token: 'abc' }, serverRendered: true, renderedForViewer: false }).filter((tag) => tag.includes('as="fetch"')))
      .toEqual([fetchPreload('/api/users/current'), fetchPreload('/api/addresses')]);
    expect(fetches(await get('/cart'))).toEqual([]);
    expect(fetches(await get('/search?query=nova'))).toEqual(['/api/products/search?query=nova&category=all&price=all&rating=all&order=newest&page=1&tag=all']);
    // The preloaded answers are the ones the app asks for, so they must be real routes.
    const product = await t.app.inject({ method: 'GET', url: '/api/products/slug/aurora-pro' });
    expect(product.statusCode).toBe(200);
    // With the shipping page's chunk, the tags come in order: code first, then data.
    const shipping = await get('/shipping', 'access_token=abc');
    expect(shipping.indexOf(modulePreload('assets/ShippingPage-S1.js'))).toBeGreaterThan(-1);
    expect(shipping.indexOf(modulePreload('assets/ShippingPage-S1.js'))).toBeLessThan(shipping.indexOf(fetchPreload('/api/addresses')));
  });

  it("names the search page's API read as the web app builds it", async () => {
    const all = 'category=all&price=all&rating=all';
    expect(searchApiPath('')).toBe(`/api/products/search?query=all&${all}&order=newest&page=1&tag=all`);
    expect(searchApiPath('?query=%20red+shoes%20&order=lowest&page=3')).toBe(`/api/products/search?query=red+shoes&${all}&order=lowest&page=3&tag=all`);
    expect(searchApiPath('?order=cheapest&page=-2&tag=todays-deal&category=&price=1-50&rating=4')).toBe(
      '/api/products/search?query=all&category=all&price=1-50&rating=4&order=newest&page=1&tag=todays-deal',
    );
    expect(searchApiPath('?query=caf%C3%A9%20%26%20t%C3%A9&page=2.5')).toBe(`/api/products/search?query=caf%C3%A9+%26+t%C3%A9&${all}&order=newest&page=1&tag=all`);
    // A real route that answers that URL.
    const res = await t.app.inject({ method: 'GET', url: searchApiPath('?query=aurora') });
    expect(res.statusCode).toBe(200);
    expect((res.json() as { products: { slug: string }[] }).products.map((p) => p.slug)).toContain('aurora-pro');
  });

  it('maps paths to the pages of web/src/app/router.tsx, with the URLs the app requests', () => {
    expect(routePage('/product/caf%C3%A9%20au%20lait')?.data).toEqual(['/api/products/slug/caf%C3%A9%20au%20lait']);
    expect(routePage("/product/it's")?.data).toEqual(["/api/products/slug/it's"]);
    expect(routePage('/cj-product/abc')?.data).toEqual(['/api/cj/products/saved/slug/abc']);
    expect(routePage('/order/o1')?.signedInData).toEqual(['/api/orders/o1']);
    expect(routePage('/product/%E0%A4%A')).toBeNull();
    expect(routePage('/product/a/b')).toBeNull();
    expect(routePage('/nope')).toBeNull();
    // Every module named here is a lazily imported page of the web app's router.
    const router = readFileSync(path.resolve(import.meta.dirname, '../../../../web/src/app/router.tsx'), 'utf8');
    const paths = ['/cart', '/search', '/signin', '/signup', '/forgot-password', '/reset-password', '/privacy', '/confirm-signup', '/confirm-email',
      '/cj-products', '/newsletter/unsubscribe', '/shipping', '/payment', '/placeorder', '/orderhistory', '/profile', '/product/x',
      '/cj-product/x', '/order/x'];
    for (const p of paths) {
      const module = routePage(p)?.module;
      expect(module, p).toMatch(/^src\/.+\.tsx$/);
      const specifier = `../${module!.slice('src/'.length).replace(/\.tsx$/, '')}`;
      expect(router, p).toContain(`lazyPage(() => import('${specifier}'))`);
      const pattern = p.replace(/\/x$/, '/:');
      expect(router, p).toContain(`path: '${pattern}`);
    }
  });

  it('preloads a card image that is not in the upload store as it is, without a srcset', () => {
    expect(imagePreload('https://cdn.example.com/a.jpg?x=1&y="2"', '50vw')).toBe(
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
      // without PUBLIC_URL, on http://localhost:PORT whatever the Host
      const sitemap = await other.app.inject({ method: 'GET', url: '/sitemap.xml', headers: { host: 'evil.example' } });
      expect(sitemap.body).toContain('<loc>http://localhost:3000/</loc>');
      expect(sitemap.body).not.toContain('evil.example');
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

describe('SEO: supplier product pages', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ env: { WEB_DIST_DIR: webBuild() } });
    await insertProduct(t, { name: 'Supplier Lamp', slug: 'supplier-lamp', image: '/api/cj/offline-images/v1/p0-0.webp', cjData: { pid: 'P-1', variants: [] } });
    await insertProduct(t, { name: 'Own Lamp', slug: 'own-lamp', image: '/uploads/own.webp' });
  });
  afterAll(async () => { await t.close(); });

  it("preloads a supplier product page's main image and nothing for other slugs", async () => {
    const page = (await t.app.inject({ method: 'GET', url: '/cj-product/supplier-lamp', headers: html })).body;
    expect(page).toContain('<link rel="preload" as="image" href="/api/cj/offline-images/v1/p0-0.webp" fetchpriority="high" />');
    // Only the preload: the supplier page keeps the default title (no SEO tags).
    expect(page).toContain('<title>Shop: Smart Finds. Joyfully Delivered</title>');
    for (const url of ['/cj-product/own-lamp', '/cj-product/no-such-lamp']) {
      const other = (await t.app.inject({ method: 'GET', url, headers: html })).body;
      expect(other, url).not.toContain('as="image"');
    }
  });
});
