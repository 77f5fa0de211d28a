import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { signUpViaApi } from './fixtures';

/**
 * Server rendering (issue #22): the storefront's content is in the first response (a browser
 * without JavaScript sees it), and the page the browser then hydrates works with no warning at all.
 */

interface CatalogueProduct { name: string; slug: string; description: string; image: string; finalPrice: number; countInStock: number; cjData?: unknown; options?: unknown[] }

/**
 * A product of the shop's own on the home grid that can be bought as it is (a supplier product, saved by
 * another spec, links to /cj-product/; one with options, also made by another spec, asks for a choice first).
 */
async function aProduct(request: APIRequestContext): Promise<CatalogueProduct> {
  const res = await request.get('/api/products');
  expect(res.ok()).toBe(true);
  const products = (await res.json()) as CatalogueProduct[];
  const product = products.find((p) => !p.cjData && !p.options?.length && p.countInStock > 0 && p.description.trim().length > 0);
  expect(product, 'a product in stock on the home grid').toBeTruthy();
  return product!;
}

const NOT_FOUND_PATH = '/no-such-page-anywhere';

const money = (n: number) => `$${new Intl.NumberFormat('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 }).format(n)}`;

test('without JavaScript: the product page, home and search show their content', async ({ browser, request }) => {
  const product = await aProduct(request);
  const context = await browser.newContext({ javaScriptEnabled: false });
  const page = await context.newPage();

  const res = await page.goto(`/product/${product.slug}`);
  expect(res?.status()).toBe(200);
  await expect(page.getByRole('heading', { level: 1, name: product.name })).toBeVisible();
  await expect(page.getByText(money(product.finalPrice)).first()).toBeVisible();
  await expect(page.getByText(product.description.trim().slice(0, 40)).first()).toBeVisible();
  await expect(page.getByRole('img', { name: product.name }).first()).toBeVisible();
  await expect(page.getByRole('button', { name: 'Add to Cart' })).toBeVisible();

  await page.goto('/');
  await expect(page.getByRole('link', { name: product.name, exact: true })).toHaveAttribute('href', `/product/${product.slug}`);
  await expect(page.getByRole('contentinfo')).toBeVisible(); // the footer
  // The cookie notice is in the page and shows after its second without any script.
  await expect(page.getByRole('region', { name: 'Cookie notice' })).toBeVisible();

  const word = product.name.split(' ')[0]!;
  await page.goto(`/search?query=${encodeURIComponent(word)}`);
  await expect(page.getByRole('link', { name: product.name, exact: true })).toBeVisible();
  await expect(page.getByText(/\d+ Results : /)).toBeVisible();

  const missing = await page.goto(NOT_FOUND_PATH);
  expect(missing?.status()).toBe(404);
  await expect(page.getByRole('heading', { level: 1, name: 'Page Not Found' })).toBeVisible();
  await context.close();
});

/**
 * Every console warning and error and every uncaught error of `page`, except the browser's own note
 * that the not-found page's document came with its (intended) 404 status.
 */
function watchConsole(page: Page): string[] {
  const problems: string[] = [];
  page.on('console', (msg) => {
    if (msg.type() !== 'error' && msg.type() !== 'warning') return;
    const documentStatus = msg.text().startsWith('Failed to load resource: the server responded with a status of 404')
      && new URL(msg.location().url).pathname === NOT_FOUND_PATH;
    if (!documentStatus) problems.push(`${msg.type()}: ${msg.text()} (${msg.location().url})`);
  });
  page.on('pageerror', (err) => problems.push(`pageerror: ${err.message}`));
  return problems;
}

test('with JavaScript: the server-rendered pages hydrate without a warning and the product page adds to the cart', async ({ page, request }) => {
  const product = await aProduct(request);
  const problems = watchConsole(page);
  const productReads: string[] = [];
  const sessionReads: string[] = [];
  page.on('request', (req) => {
    const { pathname } = new URL(req.url());
    if (pathname.startsWith('/api/products/slug/')) productReads.push(req.url());
    if (pathname === '/api/users/current') sessionReads.push(page.url());
  });

  await page.goto(`/product/${product.slug}`);
  await expect(page.getByRole('heading', { level: 1, name: product.name })).toBeVisible();
  await page.waitForLoadState('networkidle');
  // The server's page was painted before the app's code ran (index.html's start script: contracts/src/theme.ts).
  const start = await page.evaluate(() => ({
    paint: performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? null,
    app: performance.getEntriesByName('app-start')[0]?.startTime ?? null,
  }));
  expect(start.paint).not.toBeNull();
  expect(start.app).not.toBeNull();
  expect(start.app!).toBeGreaterThanOrEqual(start.paint!);
  await page.getByRole('button', { name: 'Add to Cart' }).click();
  await expect(page.getByTestId('cart-badge')).toHaveText('1');
  // The product came with the page (dehydrated queries): the browser did not fetch it again.
  expect(productReads).toEqual([]);

  for (const url of ['/', `/search?query=${encodeURIComponent(product.name.split(' ')[0]!)}`, '/privacy', NOT_FOUND_PATH]) {
    await page.goto(url);
    await page.waitForLoadState('networkidle');
  }
  // The dark theme chosen is rendered by the server (cookie) and hydrates as well.
  await page.getByRole('switch', { name: 'Dark mode' }).check();
  await page.goto(`/product/${product.slug}`);
  await expect(page.locator('html')).toHaveAttribute('data-bs-theme', 'dark');
  await page.waitForLoadState('networkidle');
  await expect(page.getByRole('switch', { name: 'Dark mode' })).toBeChecked();
  await expect(page.getByTestId('cart-badge')).toHaveText('1');

  // Each page's request had no session cookie, and the page said so: nobody asked who is signed in.
  expect(sessionReads).toEqual([]);
  // Any warning or error fails, hydration mismatches ("hydrat", "did not match") above all.
  expect(problems).toEqual([]);
});

test('signed in: shared pages are no one\'s, the header shows the name and badge from the session without a flash of Sign In; personal pages are rendered for the visitor', async ({ page, request }) => {
  const product = await aProduct(request);
  const problems = watchConsole(page);
  const name = `Ssr Shopper ${Date.now().toString(36)}`;
  // Whether the header's Sign In link was ever in the document (from the first byte on): it must not be.
  await page.addInitScript(() => {
    const w = window as unknown as { sawSignIn?: boolean };
    const look = () => {
      if (document.querySelector('header a.nav-link[href="/signin"]')) w.sawSignIn = true;
    };
    new MutationObserver(look).observe(document, { childList: true, subtree: true });
    document.addEventListener('DOMContentLoaded', look);
  });
  await signUpViaApi(page, { name }); // the page's context now holds the session cookies, its storage nothing

  // The product page is one page for everyone: no name in it, no Sign In either; the name comes from the session.
  const first = await page.goto(`/product/${product.slug}`);
  const firstHtml = await first!.text();
  expect(firstHtml).not.toContain(name);
  expect(firstHtml).toContain('data-testid="session-pending"');
  expect(firstHtml).not.toMatch(/<a class="nav-link" href="\/signin"[^>]*>Sign In<\/a>/);
  expect(first!.headers()['cache-control']).toBe('private, no-store');
  await expect(page.getByText(`Hello, ${name}`)).toBeVisible();
  await page.waitForLoadState('networkidle');
  await page.getByRole('button', { name: 'Add to Cart' }).click();
  await expect(page.getByTestId('cart-badge')).toHaveText('1');

  for (const url of ['/', `/product/${product.slug}`, '/cart']) {
    const res = await page.goto(url);
    const html = await res!.text();
    if (url === '/cart') {
      // A personal page: rendered for the visitor, their name and badge in the first byte.
      expect(html, url).toContain(`Hello, <!-- -->${name}`);
      expect(html, url).toContain('data-testid="cart-badge">1</span>');
    } else {
      expect(html, url).not.toContain(name);
    }
    expect(res!.headers()['cache-control'], url).toBe('private, no-store');
    await expect(page.getByText(`Hello, ${name}`)).toBeVisible();
    await expect(page.getByTestId('cart-badge')).toHaveText('1');
    await page.waitForLoadState('networkidle');
  }
  expect(await page.evaluate(() => (window as unknown as { sawSignIn?: boolean }).sawSignIn ?? false)).toBe(false);
  // Another browser (no session) gets the anonymous page for the same URL, with its Sign In.
  const anonymous = await request.get(`/product/${product.slug}`, { headers: { accept: 'text/html' } });
  const anonymousHtml = await anonymous.text();
  expect(anonymousHtml).not.toContain(name);
  expect(anonymousHtml).toMatch(/<a class="nav-link" href="\/signin"[^>]*>Sign In<\/a>/);

  expect(problems).toEqual([]);
});

test('a product card opens its page inside the app (no new document); a Ctrl-click is left to the browser', async ({ page, context, request }) => {
  const product = await aProduct(request);
  const problems = watchConsole(page);
  await page.goto('/');
  await page.waitForFunction(() => document.documentElement.hasAttribute('data-app-ready'));
  // A mark on this document: it survives only if the click does not load a new one.
  await page.evaluate(() => { (window as unknown as { shopMark?: string }).shopMark = 'same document'; });
  const card = page.locator('.product-card').filter({ has: page.getByRole('link', { name: product.name, exact: true }) });
  const link = card.getByRole('link', { name: product.name, exact: true });
  await expect(link).toHaveAttribute('href', `/product/${product.slug}`);
  // Ctrl-click: a new tab, this page stays.
  const [tab] = await Promise.all([context.waitForEvent('page'), link.click({ modifiers: ['ControlOrMeta'] })]);
  await tab.close();
  await expect(page).toHaveURL('/');
  // A plain click on the card's image opens the product in the app: the link is stretched over the
  // card, so the click lands on it (force: Playwright would otherwise refuse an image that is covered).
  await card.locator('img').click({ force: true });
  await expect(page).toHaveURL(`/product/${product.slug}`);
  await expect(page.getByRole('heading', { level: 1, name: product.name })).toBeVisible();
  expect(await page.evaluate(() => (window as unknown as { shopMark?: string }).shopMark)).toBe('same document');
  // Back returns to the home page, still in the same document.
  await page.goBack();
  await expect(page).toHaveURL('/');
  expect(await page.evaluate(() => (window as unknown as { shopMark?: string }).shopMark)).toBe('same document');
  expect(problems).toEqual([]);
});
