import AxeBuilder from '@axe-core/playwright';
import type { APIRequestContext, Browser, Page } from '@playwright/test';
import { createAccountViaApi, DEMO_ADMIN, expect, test } from './fixtures';

/*
 * Issue 36: the back office has a frame of its own. Every admin page, on a phone (390 px) and a
 * desktop (1280 px): the sidebar of areas (a menu on the phone), the top bar with View store, the
 * mode switch and the administrator's menu, and none of the storefront (search box, categories,
 * newsletter, footer payment icons, chat button). The frame itself is axe-clean in both themes, with
 * the phone's menu open. A full page load opens at the top; only back/forward (and a reload) restore.
 */

const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1280, height: 800 };
const TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'];

async function json<T>(api: APIRequestContext, url: string): Promise<T> {
  const res = await api.get(url);
  expect(res.status(), url).toBe(200);
  return (await res.json()) as T;
}

async function adminContext(browser: Browser, viewport: { width: number; height: number }, mode: 'light' | 'dark' = 'light') {
  const context = await browser.newContext({ viewport, reducedMotion: 'reduce' });
  await context.addInitScript((m) => {
    localStorage.setItem('cookieConsent', 'true');
    if (!sessionStorage.getItem('layout-theme-set')) {
      localStorage.setItem('mode', JSON.stringify(m));
      sessionStorage.setItem('layout-theme-set', '1');
    }
  }, mode);
  const page = await context.newPage();
  expect((await page.request.post('/api/users/signin', { data: { email: DEMO_ADMIN.email, password: DEMO_ADMIN.password } })).status()).toBe(200);
  return { context, page };
}

/** Every admin page of the route list, with ids of real records. */
async function adminPages(api: APIRequestContext): Promise<string[]> {
  const products = await json<{ products: Array<{ _id: string }> }>(api, '/api/products/admin?page=1');
  const orders = await json<{ orders: Array<{ _id: string }> }>(api, '/api/orders?page=1');
  const users = await json<{ users: Array<{ _id: string }> }>(api, '/api/users?page=1');
  const chats = await json<{ chats: Array<{ _id: string }> }>(api, '/api/chat/all-history');
  const cj = await json<{ data: { content: Array<{ pid: string }> } }>(api, '/api/cj/products?page=1');
  return [
    '/admin/dashboard', '/admin/orders', `/admin/order/${orders.orders[0]!._id}`, '/admin/products', `/admin/product/${products.products[0]!._id}`,
    '/admin/cj-products', `/admin/cj-product-edit/${cj.data.content[0]!.pid}`, '/admin/users', `/admin/user/${users.users[0]!._id}`, '/admin/user',
    '/admin/leads', '/admin/chats', `/admin/chat/${chats.chats[0]!._id}`, '/admin/pages', '/admin/page/faq', '/admin/discounts', '/admin/discount', '/admin/shipping',
  ];
}

/** The storefront's parts must not be on the page (their landmarks and controls). */
async function expectNoStorefront(page: Page, url: string) {
  // (Admin lists have search forms of their own: the storefront's is the product search.)
  await expect(page.getByRole('textbox', { name: 'Search products' }), `${url}: storefront search box`).toHaveCount(0);
  await expect(page.getByPlaceholder('Search products...'), `${url}: storefront search box`).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'All Categories' }), `${url}: category bar`).toHaveCount(0);
  await expect(page.getByLabel('Newsletter e-mail address'), `${url}: newsletter`).toHaveCount(0);
  await expect(page.getByRole('list', { name: 'Payment methods we accept' }), `${url}: payment icons`).toHaveCount(0);
  await expect(page.getByRole('contentinfo'), `${url}: storefront footer`).toHaveCount(0);
  await expect(page.getByRole('button', { name: /^Chat Support/ }), `${url}: chat button`).toHaveCount(0);
}

for (const [label, viewport] of [['1280 px', DESKTOP], ['390 px', PHONE]] as const) {
  test(`every admin page is in the back office's own frame, with none of the storefront (${label})`, async ({ browser }) => {
    test.setTimeout(240_000);
    const { context, page } = await adminContext(browser, viewport);
    const urls = await adminPages(page.request);
    const phone = viewport.width < 992;
    for (const url of urls) {
      await page.goto(url);
      await expect(page.getByRole('heading', { level: 1 }).first(), url).toBeVisible({ timeout: 30_000 });
      const topBar = page.getByRole('banner');
      await expect(topBar.getByRole('link', { name: 'View store' }), url).toHaveAttribute('href', '/');
      await expect(topBar.getByRole('switch', { name: 'Dark mode' }), url).toBeVisible();
      await expect(topBar.getByRole('button', { name: `Hello, ${DEMO_ADMIN.name}` }), url).toBeVisible();
      if (phone) {
        await expect(page.getByRole('complementary', { name: 'Back office' }), url).toBeHidden();
        await expect(page.getByRole('button', { name: 'Open navigation' }), url).toBeVisible();
      } else {
        const areas = page.getByRole('complementary', { name: 'Back office' }).getByRole('navigation', { name: 'Back office areas' }).getByRole('link');
        await expect(areas, url).toHaveText(['Dashboard', 'Orders', 'Products', 'Supplier catalogue', 'Discounts', 'Users', 'Leads', /^Chats/, 'Pages', 'Shipping']);
        await expect(page.getByRole('complementary', { name: 'Back office' }).locator('[aria-current="page"]'), url).toHaveCount(1);
      }
      await page.waitForLoadState('networkidle');
      await expectNoStorefront(page, url);
      const sideways = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
      expect(sideways, `${url} scrolls sideways`).toBeLessThanOrEqual(0);
    }

    // The areas from the phone's menu (or the sidebar), and back to the store.
    await page.goto('/admin/dashboard');
    if (phone) {
      await page.getByRole('button', { name: 'Open navigation' }).click();
      const menu = page.getByRole('dialog', { name: 'Back office' });
      await expect(menu.getByRole('link')).toHaveText(['Dashboard', 'Orders', 'Products', 'Supplier catalogue', 'Discounts', 'Users', 'Leads', /^Chats/, 'Pages', 'Shipping', 'View store']);
      await menu.getByRole('link', { name: 'Products', exact: true }).click();
      await expect(menu).toBeHidden();
    } else {
      await page.getByRole('complementary', { name: 'Back office' }).getByRole('link', { name: 'Products', exact: true }).click();
    }
    await expect(page).toHaveURL(/\/admin\/products$/);
    await expect(page.getByRole('heading', { level: 1, name: 'Products' })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Create Product' })).toBeVisible();
    await page.getByRole('banner').getByRole('link', { name: 'View store' }).click();
    await expect(page).toHaveURL(/\/$/);
    // The storefront keeps its shell, with the specification's Admin menu.
    await expect(page.getByPlaceholder('Search products...')).toBeVisible();
    if (phone) await page.getByRole('button', { name: 'Toggle navigation' }).click();
    await page.getByRole('button', { name: 'Admin', exact: true }).click();
    await page.locator('.dropdown-menu.show').getByRole('link', { name: 'Chats', exact: true }).click();
    await expect(page).toHaveURL(/\/admin\/chats$/);
    await expect(page.getByRole('heading', { level: 1, name: 'Chats' })).toBeVisible();
    await expectNoStorefront(page, '/admin/chats (in-app)');
    await context.close();
  });
}

for (const mode of ['light', 'dark'] as const) {
  test(`the back office frame is axe-clean (${mode}): sidebar at 1280 px, the menu open at 390 px; screenshots`, async ({ browser }) => {
    test.setTimeout(180_000);
    // A conversation with an unread message, so the Chats badge shows.
    const customer = await browser.newContext();
    await createAccountViaApi(customer.request, { name: 'Layout Chatter' });
    expect((await customer.request.post('/api/chat/save', { data: { message: { content: 'Is the layout nice?', clientId: `layout-${mode}-${Date.now()}` } } })).status()).toBe(201);
    await customer.close();

    for (const viewport of [DESKTOP, PHONE]) {
      const { context, page } = await adminContext(browser, viewport, mode);
      await page.goto('/admin/chats');
      await expect(page.locator('html')).toHaveAttribute('data-bs-theme', mode);
      await expect(page.getByTestId('chat-row').first()).toBeVisible();
      await page.waitForLoadState('networkidle');
      if (viewport.width < 992) {
        await page.screenshot({ path: test.info().outputPath(`admin-chats-${mode}-${viewport.width}px.png`), fullPage: true });
        await page.getByRole('button', { name: 'Open navigation' }).click();
        await expect(page.getByRole('dialog', { name: 'Back office' })).toBeVisible();
        await expect(page.getByRole('dialog', { name: 'Back office' }).getByRole('link', { name: /^Chats, \d+ conversations? with unread messages$/ })).toBeVisible();
        await page.screenshot({ path: test.info().outputPath(`admin-menu-${mode}-${viewport.width}px.png`) });
      } else {
        await expect(page.getByRole('complementary', { name: 'Back office' }).getByRole('link', { name: /^Chats, \d+ conversations? with unread messages$/ })).toBeVisible();
        await page.screenshot({ path: test.info().outputPath(`admin-chats-${mode}-${viewport.width}px.png`), fullPage: true });
      }
      const results = await new AxeBuilder({ page }).withTags(TAGS).analyze();
      const serious = results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${v.id}: ${v.nodes.slice(0, 3).map((n) => n.target.join(' ')).join(', ')}`);
      expect(serious, `${mode} ${viewport.width} px`).toEqual([]);
      await context.close();
    }
  });
}

for (const viewport of [PHONE, DESKTOP]) {
  test(`a full page load opens at the top; back/forward and a reload keep the place (${viewport.width} px)`, async ({ page }) => {
    await page.setViewportSize(viewport);
    await page.goto('/search');
    await expect(page.locator('.product-card').first()).toBeVisible();
    const product = await page.locator('.product-card a').nth(5).getAttribute('href');
    await page.evaluate(() => window.scrollTo(0, 778));
    await expect.poll(() => page.evaluate(() => window.scrollY)).toBeGreaterThan(700);
    // Loaded in full (an address typed, a link from elsewhere): the top.
    await page.goto(product!);
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    await expect.poll(() => page.evaluate(() => window.scrollY)).toBe(0);
    // Stays there once the app has started and the page has settled.
    await page.waitForLoadState('networkidle');
    expect(await page.evaluate(() => window.scrollY)).toBe(0);
    await page.evaluate(() => window.scrollTo(0, 300));
    await expect.poll(() => page.evaluate(() => window.scrollY)).toBeGreaterThan(250);
    // A reload keeps the place, as browsers do.
    await page.reload();
    await expect.poll(() => page.evaluate(() => window.scrollY)).toBeGreaterThan(250);
    // Back to the search page (another document): where it was left.
    await page.goBack();
    await expect(page).toHaveURL(/\/search$/);
    await expect.poll(() => page.evaluate(() => window.scrollY)).toBeGreaterThan(700);
    // Forward again: the product page where it was left.
    await page.goForward();
    await expect.poll(() => page.evaluate(() => window.scrollY)).toBeGreaterThan(250);
  });
}
