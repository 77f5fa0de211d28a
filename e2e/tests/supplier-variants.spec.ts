import { request as playwrightRequest } from '@playwright/test';
import { baseURL } from '../playwright.config';
import { DEMO_ADMIN, expect, signUpViaApi, test } from './fixtures';

interface Variant { _id: string; vid: string; name: string; variantKey: string; finalPrice: number; countInStock: number }

test('a shopper chooses a variant, buys it, and sees it shipped with the tracking number', async ({ page }) => {
  test.setTimeout(180_000);
  // The administrator saves an offline supplier product with several variants.
  const admin = await playwrightRequest.newContext({ baseURL });
  expect((await admin.post('/api/users/signin', { data: { email: DEMO_ADMIN.email, password: DEMO_ADMIN.password } })).status()).toBe(200);
  const list = (await (await admin.get('/api/cj/products?page=4&limit=50')).json()) as { data: { content: Array<{ pid: string; isSaved: boolean }> } };
  let pid = '';
  for (const item of list.data.content.filter((p) => !p.isSaved)) {
    const detail = (await (await admin.get(`/api/cj/products/${item.pid}`)).json()) as { variants: unknown[] };
    if (detail.variants.length >= 2) { pid = item.pid; break; }
  }
  expect(pid).not.toBe('');
  const saved = await admin.post('/api/cj/products/save', { data: { pid, brand: 'Acme' } });
  expect(saved.status(), await saved.text()).toBeLessThan(300);
  const product = ((await saved.json()) as { product: { slug: string; name: string; productVariants: Variant[] } }).product;
  const second = product.productVariants[1]!;

  await signUpViaApi(page);
  await page.goto(`/cj-product/${product.slug}`);
  await expect(page.getByRole('heading', { level: 1, name: product.name })).toBeVisible();
  const add = page.getByRole('button', { name: 'Add to Cart' });
  await expect(add).toBeDisabled();
  // Keyboard: focus the first swatch, arrow to the second.
  const radios = page.getByRole('radio');
  await expect(radios).toHaveCount(product.productVariants.length);
  await radios.first().focus();
  await page.keyboard.press('Space');
  await page.keyboard.press('ArrowRight');
  await expect(radios.nth(1)).toBeChecked();
  await expect(page.getByLabel('Price and availability')).toContainText(`$${second.finalPrice.toFixed(2)}`);
  await expect(add).toBeEnabled();
  await add.click();
  await expect(page).toHaveURL(/\/cart$/);
  await expect(page.getByTestId('cart-item')).toContainText(`Variant: ${second.variantKey || second.name}`);

  // Place and pay (demo) through the API with the page's session, then follow the order page.
  const placed = await page.request.post('/api/orders', {
    data: { shippingAddress: { fullName: 'Test Shopper', address: '1 Main St', city: 'Springfield', postalCode: '12345', country: 'United States' }, paymentMethod: 'PayPal' },
  });
  expect(placed.status(), await placed.text()).toBe(201);
  const order = (await placed.json()) as { _id: string; orderItems: Array<{ variantId: string }> };
  expect(order.orderItems[0]!.variantId).toBe(second._id);
  expect((await page.request.put(`/api/orders/${order._id}/pay`, { data: { demo: true } })).status()).toBe(200);

  await page.goto(`/order/${order._id}`);
  await expect(async () => {
    await page.reload();
    await expect(page.getByTestId('line-tracking')).toContainText(/tracking number OFFTRK\w+/, { timeout: 2_000 });
  }).toPass({ timeout: 90_000, intervals: [2_000] });
  // The shopper reads the shop's words: Shipped with a tracking link, never the supplier's (issue 34.4).
  await expect(page.getByRole('link', { name: /OFFTRK\w+ \(track the parcel/ }).first()).toHaveAttribute('href', /^https:\/\/t\.17track\.net\//);
  await expect(page.getByText('Not Delivered')).toHaveCount(0);
  expect(await page.locator('main').innerText()).not.toMatch(/\bCJ\b|CJPacket|supplier|unshipped/i);
  await page.goto('/orderhistory');
  await expect(page.getByTestId('order-shipped').first()).toHaveText('Shipped');
  await admin.dispose();
});
