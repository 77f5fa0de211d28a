import AxeBuilder from '@axe-core/playwright';
import type { APIRequestContext, Browser, BrowserContext, Locator, Page } from '@playwright/test';
import { uploadPng } from './catalogue-data';
import { DEMO_ADMIN, createAccountViaApi, expect, test, uniqueEmail } from './fixtures';

/*
 * Browser quality: axe on every page of the shop (storefront, account, checkout, back office, the chat
 * widget open), in the light and the dark theme, must find nothing serious or critical. One browser
 * context per role (visitor, customer, administrator) keeps it fast; the theme is switched with the
 * header's own Dark mode switch, as a shopper would.
 */

const TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'];
const THEMES = ['light', 'dark'] as const;
type Theme = (typeof THEMES)[number];

interface Finding {
  page: string;
  theme: Theme;
  rule: string;
  impact: string;
  help: string;
  targets: string[];
}

/** A signed-in (or not) context in the light theme, with reduced motion so no colour is caught mid-transition. */
async function newRoleContext(browser: Browser): Promise<BrowserContext> {
  const context = await browser.newContext({ reducedMotion: 'reduce', viewport: { width: 1280, height: 800 } });
  await context.addInitScript(() => {
    localStorage.setItem('cookieConsent', 'true');
    if (!sessionStorage.getItem('a11y-theme-set')) {
      localStorage.setItem('mode', '"light"');
      sessionStorage.setItem('a11y-theme-set', '1');
    }
  });
  return context;
}

/** Waits for the page's content: no spinner, no request in flight. */
async function settle(page: Page, ready?: Locator) {
  if (ready) await expect(ready.first()).toBeVisible();
  await page.waitForLoadState('networkidle');
  await expect(page.locator('.spinner-border:visible')).toHaveCount(0);
}

async function setTheme(page: Page, theme: Theme) {
  const current = await page.locator('html').getAttribute('data-bs-theme');
  if (current !== theme) await page.getByRole('switch', { name: 'Dark mode' }).click();
  await expect(page.locator('html')).toHaveAttribute('data-bs-theme', theme);
}

/**
 * The rules a theme can change: the switch swaps colours only (the same markup, names and roles), so
 * the dark pass runs the colour rules and the light pass runs them all.
 */
const COLOUR_RULES = ['color-contrast', 'link-in-text-block'];

/** Runs axe in both themes (every rule in the light one, the colour rules in the dark one) and returns the serious and critical findings. */
async function audit(page: Page, name: string): Promise<Finding[]> {
  const findings: Finding[] = [];
  for (const theme of THEMES) {
    await setTheme(page, theme);
    const axe = new AxeBuilder({ page });
    const results = await (theme === 'light' ? axe.withTags(TAGS) : axe.withRules(COLOUR_RULES)).analyze();
    for (const v of results.violations) {
      if (v.impact !== 'serious' && v.impact !== 'critical') continue;
      findings.push({ page: name, theme, rule: v.id, impact: v.impact, help: v.help, targets: v.nodes.slice(0, 5).map((n) => n.target.join(' ')) });
    }
  }
  await setTheme(page, 'light');
  return findings;
}

interface PageCheck {
  name: string;
  /** The address to open, or how to get there from the page before (a checkout step). */
  url: string | ((page: Page) => Promise<void>);
  /** What shows once the page has its content. */
  ready: (page: Page) => Locator;
  /** Something to do before the audit (open a panel, ...). */
  open?: (page: Page) => Promise<void>;
}

async function auditAll(page: Page, checks: PageCheck[]): Promise<{ findings: Finding[]; audited: number }> {
  const findings: Finding[] = [];
  const timings: string[] = [];
  for (const check of checks) {
    const started = Date.now();
    if (typeof check.url === 'string') await page.goto(check.url);
    else await check.url(page);
    await settle(page, check.ready(page));
    if (check.open) {
      await check.open(page);
      await settle(page);
    }
    findings.push(...(await audit(page, check.name)));
    timings.push(`${check.name} ${((Date.now() - started) / 1000).toFixed(1)}s`);
  }
  console.info(`a11y timings: ${timings.join(', ')}`);
  return { findings, audited: checks.length };
}

function report(role: string, result: { findings: Finding[]; audited: number }) {
  console.info(`a11y ${role}: ${result.audited} pages x ${THEMES.length} themes, ${result.findings.length} serious/critical findings`);
  const lines = result.findings.map((f) => `${f.page} [${f.theme}] ${f.impact} ${f.rule}: ${f.help} — ${f.targets.join(' | ')}`);
  expect(lines, 'axe serious/critical findings').toEqual([]);
}

const h1 = (text: string | RegExp) => (page: Page) => page.getByRole('heading', { level: 1, name: text });
const anyH1 = (page: Page) => page.getByRole('heading', { level: 1 });
const chatButton = (page: Page) => page.getByRole('button', { name: /^Chat Support/ });

async function firstProduct(request: APIRequestContext): Promise<{ _id: string; slug: string; name: string }> {
  const res = await request.get('/api/products');
  expect(res.status()).toBe(200);
  const body = (await res.json()) as { products?: Array<{ _id: string; slug: string; name: string }> } | Array<{ _id: string; slug: string; name: string }>;
  const list = Array.isArray(body) ? body : (body.products ?? []);
  const p = list[0];
  if (!p) throw new Error('no product in the demo catalogue');
  return p;
}

/** Saves one supplier product (as the administrator) and returns its storefront slug. */
async function savedSupplierProductSlug(admin: APIRequestContext): Promise<{ slug: string; pid: string }> {
  const list = await admin.get('/api/cj/products?page=1');
  expect(list.status()).toBe(200);
  const pid = ((await list.json()) as { data: { content: Array<{ pid: string }> } }).data.content[0]!.pid;
  const saved = await admin.post('/api/cj/products/save', { data: { pid } });
  expect([200, 201]).toContain(saved.status());
  return { slug: ((await saved.json()) as { product: { slug: string } }).product.slug, pid };
}

/** A product of the test's own (bought by the customer), so the demo catalogue's stock stays as the other specs expect. */
async function ownProduct(browser: Browser): Promise<{ _id: string; slug: string; name: string }> {
  const admin = await browser.newContext();
  await signInApi(admin.request, DEMO_ADMIN.email, DEMO_ADMIN.password);
  const created = await admin.request.post('/api/products');
  expect(created.status()).toBe(201);
  const { product } = (await created.json()) as { product: { _id: string } };
  const name = `Axe Lamp ${Date.now().toString(36)}`;
  const slug = name.toLowerCase().replace(/[^a-z0-9]+/g, '-');
  const res = await admin.request.put(`/api/products/${product._id}`, {
    data: {
      _id: product._id, name, slug, price: 19.99, image: await uploadPng(admin.request, [60, 160, 90]), images: [], category: 'Accessibility Test', brand: 'E2E',
      countInStock: 5, description: 'A lamp for the accessibility test', isTodaysDeal: false, isGift: false, isOnSale: false, saleDiscount: 0,
    },
  });
  expect(res.status(), await res.text()).toBe(200);
  await admin.close();
  return { _id: product._id, slug, name };
}

async function signInApi(request: APIRequestContext, email: string, password: string) {
  const res = await request.post('/api/users/signin', { data: { email, password } });
  expect(res.status()).toBe(200);
}

/** The administrator's context and the records the back-office pages show (a customer with a conversation). */
async function adminSetup(browser: Browser) {
  const customer = await browser.newContext();
  const account = await createAccountViaApi(customer.request, { name: 'Axe Chatter', email: uniqueEmail('axe-chat') });
  expect((await customer.request.post('/api/chat/save', { data: { message: { content: 'Do you ship to Canada?', clientId: `axe-${Date.now()}` } } })).status()).toBe(201);
  await customer.close();

  const context = await newRoleContext(browser);
  const page = await context.newPage();
  await signInApi(page.request, DEMO_ADMIN.email, DEMO_ADMIN.password);
  const api = page.request;
  const product = await firstProduct(api);
  const users = (await (await api.get(`/api/users?search=${encodeURIComponent(account.email)}`)).json()) as { users: Array<{ _id: string }> };
  const userId = users.users[0]!._id;
  const chats = (await (await api.get(`/api/chat/all-history?search=${encodeURIComponent(account.email)}`)).json()) as { chats: Array<{ _id: string }> };
  const chatId = chats.chats[0]!._id;
  const orders = (await (await api.get('/api/orders?page=1')).json()) as { orders: Array<{ _id: string }> };
  const catalogue = (await (await api.get('/api/cj/products?page=1')).json()) as { data: { content: Array<{ pid: string }> } };
  const cj = { pid: catalogue.data.content[0]!.pid };
  return { context, page, account, product, userId, chatId, orderId: orders.orders[0]!._id, cj };
}

// The tests of this file are independent, so the runner spreads them over its workers (each worker
// has a shop of its own): one long test per role kept a worker busy for minutes after the others were done.
test.describe('axe: 0 serious or critical findings on every page, light and dark', () => {
  test.describe.configure({ mode: 'parallel', timeout: 240_000 });

  test('storefront as a visitor', async ({ browser }) => {
    const context = await newRoleContext(browser);
    const page = await context.newPage();
    const product = await firstProduct(page.request);
    const adminContext = await browser.newContext();
    await signInApi(adminContext.request, DEMO_ADMIN.email, DEMO_ADMIN.password);
    const cj = await savedSupplierProductSlug(adminContext.request);

    const result = await auditAll(page, [
      { name: 'home', url: '/', ready: (p) => p.locator('main .card').first() },
      { name: 'search', url: '/search', ready: (p) => p.locator('main .card').first() },
      { name: 'search, nothing found', url: '/search?query=zzqqxxnothing', ready: (p) => p.getByText(/No Product Found/i) },
      { name: 'product', url: `/product/${product.slug}`, ready: h1(product.name) },
      { name: 'cj-product', url: `/cj-product/${cj.slug}`, ready: anyH1 },
      { name: 'cart (empty)', url: '/cart', ready: h1(/Shopping Cart/i) },
      { name: '404', url: '/no-such-page-here', ready: anyH1 },
      { name: 'privacy', url: '/privacy', ready: anyH1 },
    ]);
    await context.close();
    // Leave the catalogue as the other specs expect it.
    expect((await adminContext.request.delete(`/api/cj/products/${cj.pid}`)).status()).toBe(200);
    await adminContext.close();
    report('visitor (storefront)', result);
  });

  test('account pages and the chat widget as a visitor', async ({ browser }) => {
    const context = await newRoleContext(browser);
    const page = await context.newPage();
    const result = await auditAll(page, [
      { name: 'signin', url: '/signin', ready: h1(/Sign In/i) },
      { name: 'register', url: '/signup', ready: h1(/Sign Up|Create/i) },
      { name: 'forgot password', url: '/forgot-password', ready: h1(/Forgot/i) },
      { name: 'reset password', url: '/reset-password?token=not-a-real-token', ready: anyH1 },
      { name: 'confirm sign-up (bad link)', url: '/confirm-signup?token=not-a-real-token', ready: anyH1 },
      { name: 'confirm new e-mail (bad link)', url: '/confirm-email?token=not-a-real-token', ready: (p) => p.getByRole('alert') },
      { name: 'newsletter unsubscribe', url: '/newsletter/unsubscribe?token=not-a-real-token', ready: anyH1 },
      {
        name: 'chat widget (guest form)', url: '/', ready: (p) => p.locator('main .card').first(),
        open: async (p) => {
          await chatButton(p).click();
          await expect(p.getByRole('dialog', { name: 'Welcome to Chat' })).toBeVisible();
        },
      },
      {
        name: 'chat widget (guest chatting)', url: '/', ready: (p) => p.locator('main .card').first(),
        open: async (p) => {
          await chatButton(p).click();
          const dialog = p.getByRole('dialog');
          await dialog.getByRole('button', { name: 'Start Chatting' }).click();
          await dialog.getByLabel('Your Name').fill('Axe Guest');
          await dialog.getByLabel('Your Email').fill(uniqueEmail('axe-guest'));
          await dialog.getByRole('button', { name: 'Start Chatting' }).click();
          await expect(p.getByRole('dialog', { name: 'Chat Support' })).toBeVisible();
          await expect(dialog.getByPlaceholder('Type your message...')).toBeEnabled();
        },
      },
    ]);
    await context.close();
    report('visitor (account pages, chat)', result);
  });

  test('account and checkout as a customer, the chat widget open', async ({ browser }) => {
    const context = await newRoleContext(browser);
    const page = await context.newPage();
    const account = await createAccountViaApi(page.request, { name: 'Axe Customer', email: uniqueEmail('axe') });
    const product = await ownProduct(browser);
    expect((await page.request.post('/api/cart/items', { data: { productId: product._id, quantity: 1 } })).status()).toBe(200);
    const address = { fullName: 'Axe Customer', address: '1 Main Street', city: 'Springfield', postalCode: '10001', country: 'USA' };
    const placed = await page.request.post('/api/orders', { data: { shippingAddress: address, paymentMethod: 'PayPal' } });
    expect(placed.status()).toBe(201);
    const order = (await placed.json()) as { _id: string; number: number };
    // A cart with an item and a saved address for the checkout steps.
    expect((await page.request.post('/api/cart/items', { data: { productId: product._id, quantity: 1 } })).status()).toBe(200);
    expect((await page.request.post('/api/addresses', { data: address })).status()).toBe(201);

    const result = await auditAll(page, [
      { name: 'cart', url: '/cart', ready: (p) => p.getByRole('link', { name: product.name }) },
      { name: 'shipping', url: '/shipping', ready: h1(/Shipping/i) },
      { name: 'payment', url: (p) => p.getByRole('button', { name: 'Continue' }).click(), ready: h1(/Payment/i) },
      { name: 'placeorder', url: (p) => p.getByRole('button', { name: 'Continue' }).click(), ready: h1(/Preview Order|Place Order/i) },
      { name: 'order', url: `/order/${order._id}`, ready: h1(new RegExp(`#${order.number}$`)) },
      { name: 'order history', url: '/orderhistory', ready: (p) => p.getByRole('button', { name: `Details of order #${order.number}`, exact: true }) },
      { name: 'profile', url: '/profile', ready: h1(/Profile/i) },
      // A customer opening the back office: the sign-in page says an administrator account is needed.
      { name: 'signin (administrator needed)', url: '/admin/dashboard', ready: (p) => p.getByRole('button', { name: 'Sign In' }) },
      {
        name: 'chat widget (customer)', url: '/', ready: (p) => p.locator('main .card').first(),
        open: async (p) => {
          await chatButton(p).click();
          await expect(p.getByRole('dialog', { name: 'Chat Support' })).toBeVisible();
          await expect(p.getByRole('dialog').getByPlaceholder('Type your message...')).toBeEnabled();
        },
      },
    ]);
    expect(account.email).toContain('axe');
    await context.close();
    report('customer', result);
  });

  test('back office catalogue, orders and users as an administrator', async ({ browser }) => {
    const { context, page, product, userId, orderId } = await adminSetup(browser);
    const result = await auditAll(page, [
      { name: 'admin dashboard', url: '/admin/dashboard', ready: h1(/Dashboard/i) },
      { name: 'admin products', url: '/admin/products', ready: (p) => p.locator('main table tbody tr').first() },
      { name: 'admin product edit', url: `/admin/product/${product._id}`, ready: (p) => p.getByLabel('Name', { exact: true }) },
      { name: 'admin orders', url: '/admin/orders', ready: (p) => p.locator('main table tbody tr').first() },
      { name: 'admin order', url: `/admin/order/${orderId}`, ready: anyH1 },
      { name: 'admin users', url: '/admin/users', ready: (p) => p.locator('main table tbody tr').first() },
      { name: 'admin user edit', url: `/admin/user/${userId}`, ready: (p) => p.getByLabel('Name', { exact: true }) },
      { name: 'admin discounts', url: '/admin/discounts', ready: h1(/Discounts/i) },
      { name: 'admin discount create', url: '/admin/discount', ready: (p) => p.getByLabel('Code', { exact: true }) },
      { name: 'admin shipping', url: '/admin/shipping', ready: (p) => p.getByLabel('Flat rate per order ($)') },
    ]);
    await context.close();
    report('administrator (catalogue, orders, users)', result);
  });

  test('back office leads, chats and supplier as an administrator, and the chat widget open on the storefront', async ({ browser }) => {
    const { context, page, account, chatId, cj } = await adminSetup(browser);
    const result = await auditAll(page, [
      { name: 'admin new user', url: '/admin/user', ready: anyH1 },
      { name: 'admin leads', url: '/admin/leads', ready: (p) => p.locator('main table tbody tr').first() },
      { name: 'admin chats', url: '/admin/chats', ready: (p) => p.getByText(account.name).first() },
      { name: 'admin chat detail', url: `/admin/chat/${chatId}`, ready: (p) => p.getByText('Do you ship to Canada?') },
      {
        name: 'admin chat detail (a reply typed)', url: `/admin/chat/${chatId}`, ready: (p) => p.getByText('Do you ship to Canada?'),
        open: async (p) => {
          await p.getByRole('textbox', { name: 'Reply to Axe Chatter' }).fill('We do: 5 to 8 working days.');
        },
      },
      { name: 'admin cj-products', url: '/admin/cj-products', ready: (p) => p.getByTestId('cj-row').first() },
      { name: 'admin cj-product edit', url: `/admin/cj-product-edit/${cj.pid}`, ready: anyH1 },
      // The widget's administrator view lives on the storefront (the back office answers on its Chats pages).
      {
        name: 'chat widget (administrator)', url: '/', ready: (p) => p.locator('main .card').first(),
        open: async (p) => {
          await chatButton(p).click();
          await expect(p.getByRole('dialog')).toBeVisible();
          await expect(p.getByRole('dialog').getByRole('button', { name: /^(Online|Offline)$/ })).toBeVisible();
        },
      },
    ]);
    await context.close();
    report('administrator (leads, chats, supplier)', result);
  });
});
