import type { Page } from '@playwright/test';
import { DEMO_ADMIN, DEMO_CUSTOMER, expect, readLoggedMails, screenshotWidths, signIn, signUpViaApi, test, uniqueEmail } from './fixtures';

/**
 * The storefront as a new shopper tries it, on a phone and a desktop (issue 8, "Storefront"):
 * scroll position, long words, typo-tolerant search, page links, the admin guard, the newsletter,
 * the header at 390/768 px, order history on a phone, cart line totals, the dark theme, unpaid and
 * expired orders. Screenshots at 390 px and 1280 px are attached to the test output.
 */

const sidewaysOverflow = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
const cardNames = (page: Page) => page.locator('.product-card .card-title').allInnerTexts();

test('a new page opens at the top; back returns to the scroll position', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 700 });
  await page.goto('/search');
  await expect(page.locator('.product-card').first()).toBeVisible();
  await page.evaluate(() => window.scrollTo(0, 900));
  await expect.poll(() => page.evaluate(() => window.scrollY)).toBeGreaterThan(800);
  await page.locator('.product-card a').nth(7).click();
  await expect(page).toHaveURL(/\/product\//);
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await expect.poll(() => page.evaluate(() => window.scrollY)).toBe(0);
  await page.goBack();
  await expect(page).toHaveURL(/\/search$/);
  await expect.poll(() => page.evaluate(() => window.scrollY)).toBeGreaterThan(800);
});

test('search matches misspelt words one by one, suggests when nothing matches, and shows the last page past the end', async ({ page }) => {
  await page.goto(`/search?query=${encodeURIComponent('noise cancelng headphones')}`);
  await expect(page.getByTestId('results-summary')).toHaveText(/^\d+ Results : noise cancelng headphones$/);
  expect(await cardNames(page)).toContain('Aurora Wireless Headphones');

  await page.goto('/search?query=tshirt');
  await expect(page.locator('.product-card').first()).toBeVisible();
  expect(await cardNames(page)).toContain('Everyday Cotton T-Shirt');

  await page.goto(`/search?query=${encodeURIComponent('wireles hedphones')}`);
  await expect(page.locator('.product-card').first()).toBeVisible();
  expect((await cardNames(page))[0]).toBe('Aurora Wireless Headphones');

  await page.goto(`/search?query=${encodeURIComponent('qqxyzzy hedphones')}`);
  await expect(page.getByText('No Product Found')).toBeVisible();
  await expect(page.getByRole('link', { name: 'headphones' })).toBeVisible();
  await expect(page.getByRole('navigation', { name: 'Browse categories' }).getByRole('link').first()).toBeVisible();
  await screenshotWidths(page, 'search-suggestions');
  await page.getByRole('link', { name: 'headphones' }).click();
  await expect(page.locator('.product-card').first()).toBeVisible();

  await page.goto('/search?page=99');
  await expect(page.getByText(/^Page 99 does not exist: showing page \d+ of \d+\.$/)).toBeVisible();
  await expect(page.locator('.product-card').first()).toBeVisible();
  await expect(page.getByText('No Product Found')).toHaveCount(0);
  await expect(page.getByRole('link', { name: 'Page 1' })).toBeVisible();
});

test('any GET that is not the API or a file gets the app, whatever the Accept header', async ({ request }) => {
  for (const accept of ['application/json', '*/*', '']) {
    const res = await request.get('/', { headers: accept ? { accept } : {} });
    expect(res.status(), `Accept: ${accept}`).toBe(200);
    expect(await res.text()).toContain('<div id="root">');
  }
});

test('the admin guard sends a customer to /signin?redirect= with a notice; an administrator comes back to the page', async ({ page, browser }) => {
  await signIn(page, DEMO_CUSTOMER.email, DEMO_CUSTOMER.password);
  await expect(page).toHaveURL(/\/$/);
  await page.goto('/admin/orders');
  await expect(page).toHaveURL(/\/signin\?redirect=\/admin\/orders$/);
  await expect(page.getByText(/An administrator account is needed to open that page/)).toBeVisible();
  await screenshotWidths(page, 'admin-guard-notice');
  await page.getByLabel('Email').fill(DEMO_ADMIN.email);
  await page.getByLabel('Password', { exact: true }).fill(DEMO_ADMIN.password);
  await page.getByRole('button', { name: 'Sign In' }).click();
  await expect(page).toHaveURL(/\/admin\/orders$/);

  // A visitor without a session (a browser of its own: the signed-in tab above keeps running).
  const anonymous = await browser.newContext();
  const visitor = await anonymous.newPage();
  await visitor.goto('/admin/dashboard');
  await expect(visitor).toHaveURL(/\/signin\?redirect=\/admin\/dashboard$/);
  await expect(visitor.getByText(/An administrator account is needed/)).toBeVisible();
  await anonymous.close();
});

test('the newsletter stores the subscription, mails an unsubscribe link, and the link unsubscribes', async ({ page }) => {
  const email = uniqueEmail('reader');
  await page.goto('/');
  await page.getByLabel('Newsletter e-mail address').fill('not-an-address');
  await page.getByRole('button', { name: 'Subscribe' }).click();
  await expect(page.getByText('Please enter a valid email address')).toBeVisible();
  await page.getByLabel('Newsletter e-mail address').fill(email);
  await page.getByRole('button', { name: 'Subscribe' }).click();
  await expect(page.getByText('Thanks for subscribing! We sent a confirmation to your e-mail.')).toBeVisible();
  let link = '';
  await expect.poll(() => {
    const text = readLoggedMails(email).map((m) => m.text).join('\n');
    link = text.match(/(\/newsletter\/unsubscribe\?token=[\w-]+)/)?.[1] ?? '';
    return link;
  }, { timeout: 10_000 }).not.toBe('');
  await page.goto(link);
  await page.getByRole('button', { name: 'Unsubscribe' }).click();
  await expect(page.getByText('You have been unsubscribed from the newsletter.')).toBeVisible();
});

for (const width of [390, 768]) {
  test(`header at ${width} px: search visible without the menu, tab order = visual order, sub-header not cut off`, async ({ page }) => {
    await page.setViewportSize({ width, height: 800 });
    await page.goto('/');
    const search = page.getByRole('searchbox', { name: 'Search products' });
    await expect(search).toBeVisible();
    await expect(page.getByRole('button', { name: 'Toggle navigation' })).toBeVisible();
    // Tab order follows the layout: brand, search, its button, cart, menu toggle.
    await page.locator('body').focus();
    const names: string[] = [];
    for (let i = 0; i < 6; i += 1) {
      await page.keyboard.press('Tab');
      names.push(await page.evaluate(() => {
        const el = document.activeElement as HTMLElement;
        return el.getAttribute('aria-label') ?? el.innerText.trim().split('\n')[0] ?? '';
      }));
    }
    const from = names.indexOf('Search products');
    expect(names.slice(from, from + 4)).toEqual(['Search products', 'Search', 'Cart', 'Toggle navigation']);
    // Sub-header links all inside the viewport (they wrap instead of scrolling away).
    for (const name of ['All Categories', 'Todays Deal', 'Gifts', 'On Sale']) {
      const box = await page.getByRole('navigation', { name: 'Shop sections' }).getByText(name, { exact: true }).boundingBox();
      expect(box, name).not.toBeNull();
      expect(box!.x + box!.width, `${name} at ${width} px`).toBeLessThanOrEqual(width);
    }
    expect(await sidewaysOverflow(page)).toBeLessThanOrEqual(0);
    await search.fill('mug');
    await search.press('Enter');
    await expect(page).toHaveURL(/\/search\?query=mug$/);
    await screenshotWidths(page, `header-${width}`);
  });
}

test('long words wrap, the review limit is shown with a live counter, and one message at a time', async ({ page }) => {
  const user = await signUpViaApi(page, { name: `Longword${'x'.repeat(90)}` });
  const slug = 'pro-match-football';
  const productRes = await page.request.get(`/api/products/slug/${slug}`);
  const productId = ((await productRes.json()) as { _id: string })._id;
  const long = 'A'.repeat(2000);
  expect((await page.request.post(`/api/products/${productId}/reviews`, { data: { rating: 5, comment: long } })).status()).toBe(201);
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto(`/product/${slug}`);
  await expect(page.getByRole('region', { name: 'Reviews' }).getByText(long)).toBeVisible();
  expect(await sidewaysOverflow(page)).toBeLessThanOrEqual(0);
  await expect(page.getByText('You reviewed this product')).toBeVisible();
  await screenshotWidths(page, 'long-review');

  // Another product: the form with its counter; an over-long paste is not cut, it is refused.
  await page.goto('/product/street-basketball');
  const comments = page.getByLabel('Comments');
  await expect(page.getByText('0 / 2000 characters')).toBeVisible();
  await comments.fill('B'.repeat(2003));
  await expect(page.getByText('2003 / 2000 characters — 3 too many')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Submit' })).toBeDisabled();
  expect(user.name.length).toBeGreaterThan(90);
});

test('cart line totals, one toast at a time, and order history usable at 390 px', async ({ page }) => {
  await signUpViaApi(page, { name: 'Phone Shopper' });
  const ids: string[] = [];
  for (const slug of ['morning-ceramic-mug', 'thermo-travel-mug']) {
    ids.push(((await (await page.request.get(`/api/products/slug/${slug}`)).json()) as { _id: string })._id);
  }
  await page.request.post('/api/cart/items', { data: { productId: ids[0], quantity: 2 } });
  await page.request.post('/api/cart/items', { data: { productId: ids[1], quantity: 1 } });
  await page.goto('/cart');
  const totals = page.getByTestId('line-total');
  await expect(totals).toHaveCount(2);
  await expect(page.getByText(/^2 × \$/)).toBeVisible();
  // Two removals in a row: the second toast replaces the first, nothing waits in a queue.
  await page.getByRole('button', { name: /^Remove / }).first().click();
  await page.getByRole('button', { name: /^Remove / }).first().click();
  await expect(page.getByText('Cart is empty.', { exact: false })).toBeVisible();
  await page.waitForTimeout(400);
  expect(await page.locator('.Toastify__toast:not(.Toastify--animate.Toastify__bounce-exit--bottom-center)').count()).toBeLessThanOrEqual(1);

  // An order, then the history on a phone: every column, the Details button on screen.
  await page.request.post('/api/cart/items', { data: { productId: ids[0], quantity: 1 } });
  const placed = await page.request.post('/api/orders', { data: { shippingAddress: { fullName: 'Phone Shopper', address: '1 Main St', city: 'Springfield', postalCode: '12345', country: 'USA' }, paymentMethod: 'PayPal' } });
  expect(placed.status()).toBe(201);
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto('/orderhistory');
  const details = page.getByRole('button', { name: /^Details of order/ });
  await expect(details).toBeVisible();
  const box = await details.boundingBox();
  expect(box!.x + box!.width).toBeLessThanOrEqual(390);
  expect(await sidewaysOverflow(page)).toBeLessThanOrEqual(0);
  await expect(page.getByTestId('order-expiry')).toHaveText(/^Expires \d{1,2}:\d\d [AP]M$/);
  await screenshotWidths(page, 'order-history');
});

test('an unpaid order says when to pay by; an expired one offers to order again (cart refilled), admins see admin wording', async ({ page }) => {
  await signUpViaApi(page, { name: 'Late Payer' });
  const productId = ((await (await page.request.get('/api/products/slug/hydro-steel-water-bottle')).json()) as { _id: string })._id;
  await page.request.post('/api/cart/items', { data: { productId, quantity: 2 } });
  const order = (await (await page.request.post('/api/orders', { data: { shippingAddress: { fullName: 'Late Payer', address: '2 Main St', city: 'Springfield', postalCode: '12345', country: 'USA' }, paymentMethod: 'PayPal' } })).json()) as { _id: string };
  await page.request.delete('/api/cart');

  await page.goto(`/order/${order._id}`);
  await expect(page.getByText(/^Pay within 30 minutes — until \d{1,2}:\d\d [AP]M$/)).toBeVisible();

  // Expiry takes 30 minutes: the browser sees this real order as the server will show it then.
  await page.route(`**/api/orders/${order._id}`, async (route) => {
    const res = await route.fetch();
    await route.fulfill({ response: res, json: { ...(await res.json()), isExpired: true } });
  });
  await page.goto(`/order/${order._id}`);
  await expect(page.getByTestId('order-expired')).toContainText('because it was not paid in time');
  await expect(page.getByRole('button', { name: 'Pay Now' })).toHaveCount(0);
  await screenshotWidths(page, 'order-expired');
  await page.getByRole('button', { name: 'Order again' }).click();
  await expect(page).toHaveURL(/\/cart$/);
  await expect(page.getByTestId('cart-item')).toHaveCount(1);
  await expect(page.getByLabel(/^Quantity of /)).toHaveText('2');

  // The administrator's view of the same (expired) order.
  await page.context().clearCookies();
  await page.evaluate(() => localStorage.clear());
  await signIn(page, DEMO_ADMIN.email, DEMO_ADMIN.password);
  await expect(page).toHaveURL(/\/$/);
  await page.goto(`/admin/order/${order._id}`);
  await expect(page.getByText(/^Expired unpaid at .*: the customer did not pay in time/)).toBeVisible();
  await expect(page.getByRole('button', { name: 'Order again' })).toHaveCount(0);
});

test('the dark theme follows the operating system on a first visit', async ({ browser }) => {
  const context = await browser.newContext({ colorScheme: 'dark' });
  const page = await context.newPage();
  await page.goto('/');
  await expect(page.locator('html')).toHaveAttribute('data-bs-theme', 'dark');
  await context.close();
  const light = await browser.newContext({ colorScheme: 'light' });
  const lightPage = await light.newPage();
  await lightPage.goto('/');
  await expect(lightPage.locator('html')).toHaveAttribute('data-bs-theme', 'light');
  await light.close();
});

test("home: a 'See all' link to /search", async ({ page }) => {
  await page.goto('/');
  await page.getByRole('link', { name: /See all products/ }).click();
  await expect(page).toHaveURL(/\/search$/);
});
