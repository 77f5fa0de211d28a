import type { APIRequestContext, Browser, Page, Route } from '@playwright/test';
import { adminApi, uniqueWord, uploadPng } from './catalogue-data';
import { DEMO_ADMIN, DEMO_CUSTOMER, expect, signIn, signUpViaApi, test } from './fixtures';

/**
 * Issue 36, items 2 and 3, at a phone's and a desktop's width: a new product's slug follows its name
 * in the back office; on the storefront, Add to Cart and a variant clicked the moment the server's
 * page shows (on a 4× slowed CPU, with the app's code held back until the click has been made) are
 * kept and made once the app is live: counted once, the headline price following the variant.
 */

const WIDTHS = [
  { width: 390, height: 844 },
  { width: 1280, height: 800 },
] as const;

/** Create Product + Update through the API; `extra` may hold options and variants. Returns id and slug. */
async function createProduct(api: APIRequestContext, body: Record<string, unknown>): Promise<{ id: string; slug: string }> {
  const created = await api.post('/api/products');
  expect(created.status()).toBe(201);
  const { product } = (await created.json()) as { product: { _id: string } };
  const res = await api.put(`/api/products/${product._id}`, {
    data: { _id: product._id, images: [], brand: 'Testbrand', description: 'For the first-paint tests.', isOnSale: false, saleDiscount: 0, isTodaysDeal: false, isGift: false, ...body },
  });
  expect(res.status(), await res.text()).toBe(200);
  return { id: product._id, slug: ((await res.json()) as { product: { slug: string } }).product.slug };
}

/**
 * A shopper's page in a context of its own at `viewport`, its CPU slowed 4× (CDP), whose app code
 * (the page's JavaScript files) is held back until `release()`: the server's page paints, the app
 * cannot start. Navigate with `page.mainFrame().goto` (the fixture's page.goto waits for the app).
 */
async function slowShopper(browser: Browser, viewport: { width: number; height: number }) {
  const context = await browser.newContext({ viewport });
  await context.addInitScript(() => localStorage.setItem('cookieConsent', 'true'));
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });
  let release = () => {};
  const released = new Promise<void>((resolve) => { release = resolve; });
  await page.route(/\/assets\/.+\.js(\?.*)?$/, async (route: Route) => {
    await released;
    await route.continue();
  });
  return { context, page, release };
}

const isAppLive = (page: Page) => page.evaluate(() => document.documentElement.hasAttribute('data-app-ready'));

for (const viewport of WIDTHS) {
  test.describe(`at ${viewport.width} px`, () => {
    test('a new product\'s slug follows its name until saved; the category is chosen from the shop\'s', async ({ page }) => {
      const word = uniqueWord();
      const name = `${word} Desk Lamp`;
      const api = await adminApi();
      const image = await uploadPng(api, [250, 200, 60]);
      await page.setViewportSize(viewport);
      await signIn(page, DEMO_ADMIN.email, DEMO_ADMIN.password, '/admin/products');
      await page.getByRole('button', { name: 'Create Product' }).click();
      await page.getByRole('dialog', { name: 'Create Product' }).getByRole('button', { name: 'Create' }).click();
      await expect(page).toHaveURL(/\/admin\/product\/[0-9a-f]{24}$/);
      const id = new URL(page.url()).pathname.split('/').pop()!;

      const slug = page.getByLabel('Slug', { exact: true });
      await expect(slug).toHaveValue(`sample-name-${id}`);
      await expect(page.getByText('Follows the name until you edit it.')).toBeVisible();
      await page.getByLabel('Name', { exact: true }).fill(name);
      await expect(slug).toHaveValue(`${word}-desk-lamp`);

      // The category: none chosen yet; the shop's own in a list, a new one only through "New category…".
      const category = page.getByRole('combobox', { name: 'Category' });
      await expect(category).toHaveValue('');
      await expect(category.getByRole('option', { name: 'Home & Kitchen' })).toHaveCount(1);
      await category.selectOption('Home & Kitchen');
      await page.getByLabel('Price', { exact: true }).fill('39.99');
      await page.getByLabel('Image File', { exact: true }).fill(image);
      await page.getByLabel('Brand', { exact: true }).fill('Lumo');
      await page.getByLabel('Count In Stock', { exact: true }).fill('4');
      await page.getByLabel('Description', { exact: true }).fill('A warm lamp.');
      await page.getByRole('button', { name: 'Update' }).click();
      await expect(page.getByText('Product updated successfully')).toBeVisible();

      await page.goto(`/product/${word}-desk-lamp`);
      await expect(page.getByRole('heading', { level: 1, name })).toBeVisible();
      expect((await api.get(`/api/products/${id}`)).ok()).toBe(true);
      await api.delete(`/api/products/${id}`);
      await api.dispose();
    });

    test('Add to Cart clicked the moment the page shows, before the app starts on a 4× slower CPU, is counted once', async ({ browser }) => {
      const word = uniqueWord();
      const api = await adminApi();
      const name = `${word} Pocket Torch`;
      const { id, slug } = await createProduct(api, { name, slug: `${word}-pocket-torch`, price: 12, countInStock: 9, category: 'Electronics', image: await uploadPng(api, [30, 30, 30]) });
      const { context, page, release } = await slowShopper(browser, viewport);

      await page.mainFrame().goto(`/product/${slug}`, { waitUntil: 'domcontentloaded' });
      const add = page.getByRole('button', { name: 'Add to Cart' });
      // Twice, as an impatient shopper does: the app has not started, so the page keeps the click.
      await add.click();
      await add.click();
      expect(await isAppLive(page)).toBe(false);
      await expect(add).toHaveAttribute('data-early-pending', '');
      await expect(page.getByTestId('cart-badge')).toHaveCount(0);

      release();
      await expect(page.getByText('Product added to the cart')).toBeVisible({ timeout: 30_000 });
      await expect(page).toHaveURL(/\/cart$/, { timeout: 30_000 });
      await expect(page.getByTestId('cart-badge')).toHaveText('1');
      await expect(page.getByTestId('cart-item')).toHaveCount(1);
      await expect(page.getByLabel(`Quantity of ${name}`, { exact: true })).toHaveText('1');
      // Once live, a click goes straight through: back on the page, one more is the second one.
      await page.goBack();
      await page.getByRole('button', { name: 'Add to Cart' }).click();
      await expect(page).toHaveURL(/\/cart$/, { timeout: 30_000 });
      await expect(page.getByTestId('cart-badge')).toHaveText('2');
      await expect(page.getByTestId('cart-item')).toHaveCount(1);
      await expect(page.getByLabel(`Quantity of ${name}`, { exact: true })).toHaveText('2');

      await context.close();
      await api.delete(`/api/products/${id}`);
      await api.dispose();
    });

    test('Sign In pressed before the app starts: the password never goes into the address; the form is sent once the app is live', async ({ browser }) => {
      const { context, page, release } = await slowShopper(browser, viewport);
      const urls: string[] = [];
      page.on('request', (r) => { if (r.isNavigationRequest()) urls.push(r.url()); });
      await page.mainFrame().goto('/signin', { waitUntil: 'domcontentloaded' });
      await page.getByLabel('Email').fill(DEMO_CUSTOMER.email);
      await page.getByLabel('Password').fill(DEMO_CUSTOMER.password);
      await page.getByRole('button', { name: 'Sign In' }).click();
      expect(await isAppLive(page)).toBe(false);
      expect(page.url()).not.toContain('password');

      release();
      // Signed in (at 390 px the name is in the collapsed menu: its text, not its visibility).
      await expect(page.locator('.shop-user-name')).toHaveText(`Hello, ${DEMO_CUSTOMER.name}`, { timeout: 30_000 });
      for (const url of [...urls, page.url()]) expect(url).not.toContain(encodeURIComponent(DEMO_CUSTOMER.password));
      await context.close();
    });

    test("a signed-in shopper's + on the cart page, before the app starts, is made once it does", async ({ browser }) => {
      const word = uniqueWord();
      const api = await adminApi();
      const name = `${word} Travel Mug`;
      const { id } = await createProduct(api, { name, slug: `${word}-travel-mug`, price: 8, countInStock: 9, category: 'Home & Kitchen', image: await uploadPng(api, [90, 160, 90]) });
      const { context, page, release } = await slowShopper(browser, viewport);
      await signUpViaApi(page);
      expect((await page.request.post('/api/cart/items', { data: { productId: id, quantity: 1 } })).ok()).toBe(true);

      await page.mainFrame().goto('/cart', { waitUntil: 'domcontentloaded' });
      const plus = page.getByRole('button', { name: `Increase quantity of ${name}` });
      await plus.click();
      expect(await isAppLive(page)).toBe(false);
      await expect(plus).toHaveAttribute('data-early-pending', '');

      release();
      await expect(page.getByLabel(`Quantity of ${name}`, { exact: true })).toHaveText('2', { timeout: 30_000 });
      await expect(page.getByTestId('cart-badge')).toHaveText('2');
      await expect.poll(async () => ((await (await page.request.get('/api/cart')).json()) as { cartItems: Array<{ quantity: number }> }).cartItems.map((i) => i.quantity)).toEqual([2]);

      await context.close();
      await api.delete(`/api/products/${id}`);
      await api.dispose();
    });

    test('a size chosen before the app starts is the chosen one once it does: the headline price follows it, Add to Cart adds it', async ({ browser }) => {
      const word = uniqueWord();
      const api = await adminApi();
      const name = `${word} Sized Tee`;
      const { id, slug } = await createProduct(api, {
        name, slug: `${word}-sized-tee`, category: 'Fashion', image: await uploadPng(api, [200, 40, 60]),
        options: [{ name: 'Size', values: ['S', 'M', 'L'] }],
        variants: [
          { options: { Size: 'S' }, price: 20, countInStock: 5 },
          { options: { Size: 'M' }, price: 24, countInStock: 5 },
          { options: { Size: 'L' }, price: 26, countInStock: 5 },
        ],
      });
      const { context, page, release } = await slowShopper(browser, viewport);

      await page.mainFrame().goto(`/product/${slug}`, { waitUntil: 'domcontentloaded' });
      const headline = page.getByTestId('headline-price');
      await expect(headline).toContainText('From $20.00');
      const sizes = page.getByRole('radiogroup', { name: 'Choose Size' });
      await sizes.getByText('M', { exact: true }).click();
      expect(await isAppLive(page)).toBe(false);

      release();
      await expect(sizes.getByRole('radio', { name: 'M' })).toBeChecked({ timeout: 30_000 });
      await expect(headline).toContainText('$24.00');
      await expect(headline).not.toContainText('From');
      // Another size: the headline follows again.
      await sizes.getByText('L', { exact: true }).click();
      await expect(headline).toContainText('$26.00');
      await sizes.getByText('M', { exact: true }).click();
      await expect(headline).toContainText('$24.00');
      await page.getByRole('region', { name: 'Price and availability' }).getByRole('button', { name: 'Add to Cart' }).click();
      await expect(page).toHaveURL(/\/cart$/, { timeout: 30_000 });
      await expect(page.getByTestId('cart-item')).toHaveCount(1);
      await expect(page.getByTestId('cart-item')).toContainText('Variant: M');
      await expect(page.getByTestId('cart-item')).toContainText('$24.00');
      await expect(page.getByTestId('cart-badge')).toHaveText('1');

      await context.close();
      await api.delete(`/api/products/${id}`);
      await api.dispose();
    });
  });
}
