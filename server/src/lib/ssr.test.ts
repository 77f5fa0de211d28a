import { SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ACCESS_COOKIE } from './auth.ts';
import { addToCart } from '../test/commerce-factories.ts';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { gunzipSync } from 'node:zlib';
import path from 'node:path';
import { buildWebForSsr, TEST_INDEX_HTML } from '../test/ssr-build.ts';
import { createTestApp, createUser, type TestApp, type TestUser } from '../test/test-app.ts';
import { insertProduct } from '../modules/products/test-factories.ts';
import { pageCacheFor } from '../modules/products/catalogue-cache.ts';
import { fillTemplate } from './ssr.ts';

const html = { accept: 'text/html,application/xhtml+xml' };
const SSR_DATA = '<script type="application/json" id="ssr-data">';

/** The markup inside `<div id="root">` (the server-rendered app), '' when there is none. */
const rootOf = (page: string) => /<div id="root">([\s\S]*?)<\/div><script type="application\/json" id="ssr-data">/.exec(page)?.[1] ?? '';

let webDir: string;
beforeAll(async () => {
  webDir = await buildWebForSsr();
}, 180_000);

const SESSION_PRELOAD = '<link rel="preload" as="fetch" href="/api/users/current" crossorigin="use-credentials" />';
/** What the page data of a request without a session cookie says (SsrData.noSession). */
const NO_SESSION = '"noSession":true';

describe('server rendering of the storefront', () => {
  let t: TestApp;
  let lamp: { id: string; slug: string };
  beforeAll(async () => {
    // A generous deadline: the parallel test below renders 54 pages at once on a busy machine, and is
    // about what they contain, not how fast (the deadline has its own tests).
    t = await createTestApp({ env: { WEB_DIST_DIR: webDir, SSR_TIMEOUT_MS: '30000' } });
    lamp = await insertProduct(t, {
      name: 'Lumen Desk Lamp', slug: 'lumen-desk-lamp', price: 49.5, category: 'Home', image: '/uploads/lumen-main.webp',
      images: ['/uploads/lumen-2.webp'], description: 'A warm dimmable lamp with a brass arm.',
    });
    await insertProduct(t, { name: 'Lumen Floor Lamp', slug: 'lumen-floor-lamp', price: 1299, category: 'Home', description: 'Tall.' });
    await insertProduct(t, { name: 'Quartz Watch', slug: 'quartz-watch', price: 80, category: 'Fashion' });
  });
  afterAll(async () => { await t.close(); });

  it('GET /product/{slug}: the name, price, description and main image are in the body, with the page data', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/product/lumen-desk-lamp', headers: html });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('text/html');
    const root = rootOf(res.body);
    expect(root).toContain('<h1 class="h3">Lumen Desk Lamp</h1>');
    expect(root).toContain('$49.50');
    expect(root).toContain('A warm dimmable lamp with a brass arm.');
    // The main image: in the HTML at high priority (not lazy), responsive, and preloaded once in the head (React's hint).
    const main = /<img src="\/uploads\/lumen-main\.webp"[^>]*alt="Lumen Desk Lamp"[^>]*>/.exec(root)?.[0] ?? '';
    expect(main).toMatch(/ fetchPriority="high"/);
    expect(main).not.toContain('loading="lazy"');
    expect(main).toContain('srcSet="/uploads/w/200/lumen-main.webp 200w, /uploads/w/400/lumen-main.webp 400w, /uploads/w/800/lumen-main.webp 800w"');
    const head = res.body.slice(0, res.body.indexOf('</head>'));
    expect(head.match(/<link rel="preload" as="image"[^>]*>/g)).toEqual([
      expect.stringMatching(/imageSrcSet="\/uploads\/w\/200\/lumen-main\.webp 200w, [^"]*" imageSizes="[^"]+" fetchPriority="high"/),
    ]);
    expect(root).not.toContain('rel="preload"');
    expect(root).toContain('Add to Cart');
    // The SEO transforms still run (title) and the product read is not preloaded again: it is in the page.
    expect(res.body).toContain('<title>Lumen Desk Lamp | Shop</title>');
    expect(res.body).not.toContain('as="fetch" href="/api/products/slug/');
    const data = JSON.parse(res.body.slice(res.body.indexOf(SSR_DATA) + SSR_DATA.length, res.body.indexOf('</script>', res.body.indexOf(SSR_DATA)))) as {
      mode: string; queries: { queries: { queryKey: unknown[]; state: { status: string; data: { name?: string } } }[] };
    };
    expect(data.mode).toBe('light');
    const product = data.queries.queries.find((q) => JSON.stringify(q.queryKey) === '["products","slug","lumen-desk-lamp"]');
    expect(product?.state.status).toBe('success');
    expect(product?.state.data.name).toBe('Lumen Desk Lamp');
  });

  it('GET / and GET /search?query=...: product cards with names, prices and links', async () => {
    const home = rootOf((await t.app.inject({ method: 'GET', url: '/', headers: html })).body);
    for (const [name, slug, price] of [['Lumen Desk Lamp', 'lumen-desk-lamp', '$49.50'], ['Lumen Floor Lamp', 'lumen-floor-lamp', '$1,299.00'], ['Quartz Watch', 'quartz-watch', '$80.00']]) {
      expect(home).toContain(`href="/product/${slug}"`);
      expect(home).toContain(`>${name}</a>`);
      expect(home).toContain(price);
    }
    const res = await t.app.inject({ method: 'GET', url: '/search?query=lumen&order=lowest', headers: html });
    expect(res.statusCode).toBe(200);
    const search = rootOf(res.body);
    expect(search).toContain('2 Results : lumen');
    expect(search).toContain('href="/product/lumen-desk-lamp"');
    expect(search).toContain('$1,299.00');
    expect(search).not.toContain('Quartz Watch</a>');
    // Lowest price first, as asked.
    expect(search.indexOf('lumen-desk-lamp')).toBeLessThan(search.indexOf('lumen-floor-lamp'));
    // Another filter, another page of results.
    const fashion = rootOf((await t.app.inject({ method: 'GET', url: '/search?category=Fashion&page=1', headers: html })).body);
    expect(fashion).toContain('Quartz Watch</a>');
    expect(fashion).not.toContain('Lumen Desk Lamp</a>');
  });

  it('answers 404 with the not-found page for an unknown path and an unknown product', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/no/such/page', headers: html });
    expect(res.statusCode).toBe(404);
    expect(rootOf(res.body)).toContain('Page Not Found');
    const product = await t.app.inject({ method: 'GET', url: '/product/no-such-product', headers: html });
    expect(product.statusCode).toBe(404);
    expect(product.body).toContain(SSR_DATA);
  });

  it('/dev/mailbox: the page where a development shop keeps its mail (messages read by the browser), a 404 in production', async () => {
    const dev = await t.app.inject({ method: 'GET', url: '/dev/mailbox', headers: html });
    expect(dev.statusCode).toBe(200);
    expect(rootOf(dev.body)).toContain('Development mailbox');
    // Sign-up and reset links stay out of the HTML.
    expect(dev.body).not.toContain('"dev-mailbox"');
    const production = await createTestApp({
      env: { WEB_DIST_DIR: webDir, SSR_TIMEOUT_MS: '30000', NODE_ENV: 'production', PUBLIC_URL: 'https://shop.example.com' },
    });
    try {
      const res = await production.app.inject({ method: 'GET', url: '/dev/mailbox', headers: html });
      expect(res.statusCode).toBe(404);
      expect(res.body).not.toContain('No mail server is configured');
    } finally {
      await production.close();
    }
  });

  it('renders the theme of the mode cookie on <html> and in the switch', async () => {
    const dark = await t.app.inject({ method: 'GET', url: '/privacy', headers: { ...html, cookie: 'mode=dark' } });
    expect(dark.statusCode).toBe(200);
    expect(dark.body).toContain('<html lang="en" data-bs-theme="dark">');
    expect(rootOf(dark.body)).toMatch(/<input id="mode-switch"[^>]*checked=""/);
    expect(rootOf(dark.body)).toContain('Privacy Policy');
    const odd = await t.app.inject({ method: 'GET', url: '/privacy', headers: { ...html, cookie: 'mode=<b>' } });
    expect(odd.body).toContain('<html lang="en" data-bs-theme="light">');
  });

  it('signed-in pages get the shell; their private data is left to the browser', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/profile', headers: html });
    expect(res.statusCode).toBe(200);
    const root = rootOf(res.body);
    expect(root).toContain('<header class="shop-header">');
    expect(root).toContain('<footer');
    expect(root).toContain('role="status"'); // the guard's loading box until the browser knows the session
  });

  it('hostile URLs get a page, never a 500', async () => {
    for (const url of [
      `/search?query=${'a'.repeat(5000)}`,
      '/product/%00%01',
      '/product/%E0%A4%A',
      `/search?page=-1&order=%3Cscript%3E&price=${encodeURIComponent('"><img>')}`,
      '/search?page=99999999999999999999',
      '/pages/%2e%2e%2f%2e%2e',
      '//evil.example/x',
    ]) {
      const res = await t.app.inject({ method: 'GET', url, headers: html });
      // A malformed escape (%E0%A4%A) is refused by the router itself (400), before any page.
      expect([200, 404, ...(url.endsWith('%A') ? [400] : [])], url).toContain(res.statusCode);
    }
    // Too long to be a real page: the plain shell.
    const long = await t.app.inject({ method: 'GET', url: `/search?query=${'a'.repeat(5000)}`, headers: html });
    expect(long.body).not.toContain(SSR_DATA);
  });

  it('two customers and an anonymous visitor in parallel never see each other: shared pages hold no one\'s name or badge (one copy for everyone with a session cookie), personal pages each customer\'s own; no session value anywhere', async () => {
    const alice = await createUser(t, { name: 'Alice Zebrafinch' });
    const bob = await createUser(t, { name: 'Bob Quokkason' });
    await addToCart(t, alice, lamp.id, 3);
    await addToCart(t, bob, lamp.id, 1);
    const cache = pageCacheFor(t.app.ctx.db);
    const remember = vi.spyOn(cache, 'remember');
    const visitors: { who: string; user: TestUser | null }[] = [{ who: 'alice', user: alice }, { who: 'bob', user: bob }, { who: 'anonymous', user: null }];
    const pages = ['/', '/product/lumen-desk-lamp', '/search?query=lumen', '/cart', '/profile', '/privacy'];
    const sharedPages = ['/', '/product/lumen-desk-lamp', '/search?query=lumen', '/privacy'];
    const requests = [1, 2, 3].flatMap(() => visitors.flatMap((v) => pages.map((url) => ({ ...v, url }))));
    const answers = await Promise.all(requests.map(async (r) => ({
      ...r,
      res: await t.app.inject({ method: 'GET', url: r.url, headers: { ...html, ...(r.user ? { cookie: `mode=light; ${r.user.cookie}` } : { cookie: 'mode=light' }) } }),
    })));
    const badge = (count: number) => `<span class="badge rounded-pill bg-danger" data-testid="cart-badge">${count}</span>`;
    for (const { who, user: visitor, url, res } of answers) {
      expect(res.statusCode, `${who} ${url}`).toBe(200);
      expect(res.body, `${who} ${url}`).toContain(SSR_DATA);
      const root = rootOf(res.body);
      for (const user of [alice, bob]) {
        // The session's tokens are never in a page, not even the visitor's own.
        for (const secret of [user.accessToken, user.refreshToken]) expect(res.body, `${who} ${url}`).not.toContain(secret);
        if (user === visitor) continue;
        for (const secret of [user.name, user.email, user.id]) expect(res.body, `${who} ${url}`).not.toContain(secret);
      }
      if (visitor && sharedPages.includes(url)) {
        // One page for everyone: no name, no badge, no Sign In either (the header waits for the
        // browser's session state); the page does not say nobody is signed in.
        for (const user of [alice, bob]) for (const secret of [user.name, user.email, user.id]) expect(res.body, `${who} ${url}`).not.toContain(secret);
        expect(root, `${who} ${url}`).not.toContain('>Sign In</a>');
        expect(root, `${who} ${url}`).toContain('data-testid="session-pending"');
        expect(res.body, `${who} ${url}`).not.toContain('data-testid="cart-badge"');
        expect(res.body, `${who} ${url}`).not.toContain(NO_SESSION);
        expect(res.body, `${who} ${url}`).toContain(SESSION_PRELOAD);
      } else if (visitor) {
        // A personal page: their name and their cart's badge, rendered by the server (no flip after hydration).
        expect(root, `${who} ${url}`).toContain(`<span class="shop-user-name">Hello, <!-- -->${visitor.name}</span>`);
        expect(root, `${who} ${url}`).not.toContain('>Sign In</a>');
        expect(root, `${who} ${url}`).toContain(badge(visitor === alice ? 3 : 1));
        expect(res.body, `${who} ${url}`).not.toContain(NO_SESSION);
      } else {
        // No session cookie: the page says nobody is signed in (the browser does not ask users/current).
        expect(res.body, `${who} ${url}`).toContain(NO_SESSION);
        expect(root, `${who} ${url}`).toContain('>Sign In</a>');
        expect(res.body, `${who} ${url}`).not.toContain('data-testid="cart-badge"');
        expect(res.body, `${who} ${url}`).not.toContain('"cart"');
      }
      expect(res.body, `${who} ${url}`).not.toContain('set-cookie');
      expect(res.headers['set-cookie'], `${who} ${url}`).toBeUndefined();
      // Every answer to a signed-in request is kept by no cache outside (issue 32); every page varies by cookie.
      expect(res.headers['cache-control'], `${who} ${url}`).toBe(who === 'anonymous' ? 'no-cache' : 'private, no-store');
      expect(res.headers.vary, `${who} ${url}`).toBe('accept-encoding, cookie');
    }
    // The shared page cache (per URL, theme and whether a session cookie came; not by Host): every
    // anonymous page, and the shared pages for the customers too (one copy for both).
    const pageKeys = remember.mock.calls.map(([key]) => key).filter((key) => key.startsWith('page\u0000'));
    expect(pageKeys.length).toBe(pages.length * 3 + sharedPages.length * 3 * 2);
    expect(new Set(pageKeys)).toEqual(new Set([
      ...pages.map((url) => `page\u0000light\u0000none\u0000${url}`),
      ...sharedPages.map((url) => `page\u0000light\u0000session\u0000${url}`),
    ]));
    remember.mockRestore();
  });

  it('an access cookie that is expired, forged or of an ended session gets no one\'s header (waiting for the browser to ask), still private, and the page', async () => {
    const carol = await createUser(t, { name: 'Carol Expiredson' });
    await addToCart(t, carol, lamp.id, 2);
    const claims = JSON.parse(Buffer.from(carol.accessToken.split('.')[1]!, 'base64url').toString('utf8')) as { sub: string; sid: string };
    const key = new TextEncoder().encode(t.app.ctx.config.jwtSecret);
    const expired = await new SignJWT({ sid: claims.sid }).setProtectedHeader({ alg: 'HS256' }).setSubject(claims.sub)
      .setIssuedAt(Math.floor(Date.now() / 1000) - 3600).setExpirationTime(Math.floor(Date.now() / 1000) - 60).sign(key);
    const forged = await new SignJWT({ sid: claims.sid }).setProtectedHeader({ alg: 'HS256' }).setSubject(claims.sub)
      .setExpirationTime(Math.floor(Date.now() / 1000) + 600).sign(new TextEncoder().encode('x'.repeat(40)));
    const signedOut = await createUser(t, { name: 'Carol Signedoutson' });
    const out = await t.app.inject({ method: 'POST', url: '/api/users/signout', headers: { cookie: signedOut.cookie } });
    expect(out.statusCode).toBeLessThan(300);
    const cases = [
      { why: 'expired', token: expired, name: carol.name },
      { why: 'forged', token: forged, name: carol.name },
      { why: 'garbage', token: 'not.a.jwt', name: carol.name },
      { why: 'session ended', token: signedOut.accessToken, name: signedOut.name },
    ];
    for (const { why, token, name } of cases) {
      for (const url of ['/', '/product/lumen-desk-lamp', '/cart']) {
        const res = await t.app.inject({ method: 'GET', url, headers: { ...html, cookie: `mode=light; ${ACCESS_COOKIE}=${token}` } });
        expect(res.statusCode, `${why} ${url}`).toBe(200);
        const root = rootOf(res.body);
        // Neither Sign In nor a name until the browser has asked who it is (it may renew the session).
        expect(root, `${why} ${url}`).not.toContain('>Sign In</a>');
        expect(root, `${why} ${url}`).toContain('data-testid="session-pending"');
        expect(res.body, `${why} ${url}`).not.toContain(name);
        expect(res.body, `${why} ${url}`).not.toContain('data-testid="cart-badge"');
        // An answer to a request with a session cookie is kept by no cache outside, whatever the cookie is worth.
        expect(res.headers['cache-control'], `${why} ${url}`).toBe('private, no-store');
        // The browser must ask who is signed in (it may renew the session): that read is preloaded,
        // and the page does not claim that nobody is.
        expect(res.body, `${why} ${url}`).toContain(SESSION_PRELOAD);
        expect(res.body, `${why} ${url}`).not.toContain(NO_SESSION);
      }
    }
    // A shared page is no one's: the browser asks who it is (preloaded).
    const shared = await t.app.inject({ method: 'GET', url: '/', headers: { ...html, cookie: `mode=light; ${carol.cookie}` } });
    expect(shared.body).not.toContain(carol.name);
    expect(shared.body).toContain(SESSION_PRELOAD);
    // The same visitor with their valid cookie gets their header back on a personal page, and the page holds who they
    // are: no preload of users/current, which the app would not ask for (a wasted request and a
    // "preloaded but not used" warning in the console).
    for (const url of ['/cart', '/shipping']) {
      const valid = await t.app.inject({ method: 'GET', url, headers: { ...html, cookie: `mode=light; ${carol.cookie}` } });
      expect(rootOf(valid.body), url).toContain(carol.name);
      expect(valid.body, url).not.toContain(SESSION_PRELOAD);
    }
  });

  it('pages are gzipped for a browser that takes it, the same page as without', async () => {
    for (const cookie of ['mode=light', `mode=light; ${(await createUser(t, { name: 'Gzip Reader' })).cookie}`]) {
      const plain = await t.app.inject({ method: 'GET', url: '/product/lumen-desk-lamp', headers: { ...html, cookie } });
      expect(plain.headers['content-encoding']).toBeUndefined();
      const zipped = await t.app.inject({ method: 'GET', url: '/product/lumen-desk-lamp', headers: { ...html, cookie, 'accept-encoding': 'gzip, deflate, br' } });
      expect(zipped.statusCode).toBe(200);
      expect(zipped.headers['content-encoding']).toBe('gzip');
      expect(zipped.headers.vary).toContain('accept-encoding');
      expect(zipped.rawPayload.length).toBeLessThan(plain.rawPayload.length / 3);
      // The same markup (the page data's timestamps may differ between two renderings).
      const unzipped = gunzipSync(zipped.rawPayload).toString('utf8');
      expect(rootOf(unzipped)).toBe(rootOf(plain.body));
      expect(rootOf(unzipped)).toContain('Lumen Desk Lamp');
    }
    const refused = await t.app.inject({ method: 'GET', url: '/product/lumen-desk-lamp', headers: { ...html, 'accept-encoding': 'gzip;q=0, br' } });
    expect(refused.headers['content-encoding']).toBeUndefined();
    expect(rootOf(refused.body)).toContain('Lumen Desk Lamp');
  });

  it('anonymous pages are micro-cached and a product write clears them', async () => {
    const first = await t.app.inject({ method: 'GET', url: '/product/quartz-watch', headers: html });
    expect(rootOf(first.body)).toContain('$80.00');
    const admin = await createUser(t, { isAdmin: true });
    const row = await t.app.inject({ method: 'GET', url: '/api/products/slug/quartz-watch' });
    const id = (row.json() as { _id: string })._id;
    const updated = await t.app.inject({
      method: 'PUT', url: `/api/products/${id}`, headers: { cookie: admin.cookie },
      payload: {
        _id: id, name: 'Quartz Watch', slug: 'quartz-watch', price: 95, image: '/uploads/test.webp', images: [], category: 'Fashion', brand: 'Acme',
        countInStock: 5, description: 'Quartz Watch description', isTodaysDeal: false, isGift: false, isOnSale: false, saleDiscount: 0,
      },
    });
    expect(updated.statusCode).toBe(200);
    const after = await t.app.inject({ method: 'GET', url: '/product/quartz-watch', headers: html });
    expect(rootOf(after.body)).toContain('$95.00');
  });
});

describe('server rendering failures', () => {
  it('a template without an empty root element (rendering cannot be used) gets the plain page, 200', async () => {
    expect(fillTemplate('<html><head></head><body><div id="app"></div></body></html>', { status: 200, mode: 'light', appHtml: 'x', headHtml: '', dataScript: '', forViewer: false })).toBeNull();
  });

  /** A web build whose server bundle is `source` (a stand-in for entry-server.js). */
  function buildWithEntry(source: string): string {
    const dir = mkdtempSync(path.join(tmpdir(), 'shop-ssr-fake-'));
    mkdirSync(path.join(dir, 'web'));
    mkdirSync(path.join(dir, 'web-ssr'));
    writeFileSync(path.join(dir, 'web/index.html'), TEST_INDEX_HTML);
    writeFileSync(path.join(dir, 'web-ssr/entry-server.js'), source);
    return path.join(dir, 'web');
  }

  it('the shared cache keys a page by the parameters it reads: utm_*, fbclid, unknown ones and their order make no new render; HEAD is GET\'s page; concurrent misses share one render', async () => {
    const renders: string[] = [];
    (globalThis as { __shopRenders?: string[] }).__shopRenders = renders;
    const source = `export const SSR_DATA_ID = 'ssr-data';
export async function render({ url }) {
  globalThis.__shopRenders.push(url);
  await new Promise((r) => setTimeout(r, 50));
  return { status: 200, appHtml: '<main>rendered ' + url.replace(/[<>&]/g, '') + '</main>', headHtml: '', data: '{}' };
}
`;
    const t = await createTestApp({ env: { WEB_DIST_DIR: buildWithEntry(source), SSR_TIMEOUT_MS: '10000' } });
    try {
      const get = (url: string, method: 'GET' | 'HEAD' = 'GET') => t.app.inject({ method, url, headers: html });
      // Ten visitors at once on a page not yet rendered: one render.
      const burst = await Promise.all(Array.from({ length: 10 }, (_, i) => get(`/?utm_source=mail&utm_content=${i}`)));
      for (const res of burst) expect(rootOf(res.body)).toContain('rendered /<');
      expect(renders).toEqual(['/']);
      for (const url of ['/', '/?fbclid=abc', '/?gclid=1&x=2', '/?']) expect(rootOf((await get(url)).body), url).toContain('rendered /<');
      expect((await get('/', 'HEAD')).statusCode).toBe(200);
      expect(renders).toEqual(['/']);
      // The search page: its own parameters, in one order; the others dropped.
      await get('/search?query=lamp&page=2&utm_campaign=winter');
      await get('/search?page=2&gclid=9&query=lamp');
      await get('/search?page=2&query=lamp', 'HEAD');
      expect(renders).toEqual(['/', '/search?page=2&query=lamp']);
      await get('/search?page=3&query=lamp');
      expect(renders.at(-1)).toBe('/search?page=3&query=lamp');
      // Pages that may read anything keep their URL.
      await get('/admin/orders?status=paid&x=1');
      expect(renders.at(-1)).toBe('/admin/orders?status=paid&x=1');
    } finally {
      await t.close();
      delete (globalThis as { __shopRenders?: string[] }).__shopRenders;
    }
  });

  it.each([
    ['never finishes (a stalled data read)', 'export function render() { return new Promise(() => {}); }'],
    ['throws', "export async function render() { throw new Error('render failed'); }"],
    ['needs what the bundle lacks', 'export function render() { return undefined.page; }'],
  ])('rendering that %s gets the plain page, 200, within SSR_TIMEOUT_MS', async (_name, source) => {
    const t = await createTestApp({ env: { WEB_DIST_DIR: buildWithEntry(`export const SSR_DATA_ID = 'ssr-data';\n${source}\n`), SSR_TIMEOUT_MS: '300' } });
    try {
      for (const url of ['/', '/search?query=x', '/product/any', '/no/such/page']) {
        const started = Date.now();
        const res = await t.app.inject({ method: 'GET', url, headers: html });
        expect(res.statusCode, url).toBe(200);
        expect(res.body, url).toContain('<div id="root"></div>');
        expect(res.body, url).not.toContain(SSR_DATA);
        expect(Date.now() - started, url).toBeLessThan(5000);
      }
    } finally {
      await t.close();
    }
  });

  it('without a rendering bundle the storefront is the plain client-rendered page, as before', async () => {
    const t = await createTestApp({ env: { WEB_DIST_DIR: webDir, SSR_TIMEOUT_MS: '0' } });
    try {
      const res = await t.app.inject({ method: 'GET', url: '/', headers: html });
      expect(res.statusCode).toBe(200);
      expect(res.body).toContain('<div id="root"></div>');
      const missing = await t.app.inject({ method: 'GET', url: '/no/such/page', headers: html });
      expect(missing.statusCode).toBe(200);
    } finally {
      await t.close();
    }
  });
});
