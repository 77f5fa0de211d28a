import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { adminApi, createProduct, uniqueWord, uploadPng } from './catalogue-data';
import { DEMO_ADMIN, expect, signIn, signUpViaApi, test } from './fixtures';

/**
 * Discount codes (issue 34.1), end to end: an administrator creates a code in the back office's
 * Discounts and a T-shirt in sizes S, M, L; a shopper chooses M, applies the code in the cart, sees
 * the discount on Place Order, places the order and finds the size and the code on the order page.
 */

const axeViolations = async (page: Page, selector: string) =>
  (await new AxeBuilder({ page }).include(selector).withTags(['wcag2a', 'wcag2aa']).analyze()).violations
    .map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);

test('an administrator creates a code and a sized T-shirt; a shopper buys size M with the code and sees both on the order page', async ({ browser, page }) => {
  test.setTimeout(180_000);
  const word = uniqueWord();
  const code = `${word.toUpperCase()}10`;
  const name = `${word} Tee`;
  const slug = `${word}-tee`;
  const api = await adminApi();

  await test.step('the administrator creates a 10 % code in Discounts', async () => {
    await signIn(page, DEMO_ADMIN.email, DEMO_ADMIN.password, '/admin/discounts');
    await page.getByRole('navigation').getByRole('link', { name: 'Discounts' }).first().waitFor();
    await page.getByRole('link', { name: 'Create Discount' }).click();
    await expect(page).toHaveURL(/\/admin\/discount$/);
    await page.getByLabel('Code', { exact: true }).fill(code.toLowerCase());
    await page.getByLabel('Kind').selectOption('percent');
    await page.getByLabel('Percentage (1–100)').fill('10');
    await page.getByLabel('Minimum subtotal (USD, optional)').fill('30');
    await page.getByLabel('Per-customer limit (optional)').fill('1');
    expect(await axeViolations(page, 'form')).toEqual([]);
    await page.getByRole('button', { name: 'Create' }).click();
    await expect(page.getByText('Discount created')).toBeVisible();
    await expect(page).toHaveURL(/\/admin\/discounts$/);
    await page.getByLabel('Search discounts by code').fill(word);
    await page.getByRole('button', { name: 'Search' }).click();
    const row = page.getByRole('row').filter({ hasText: code });
    await expect(row).toContainText('10% off');
    await expect(row).toContainText('Min $30.00 · 1 per customer');
    await expect(row).toContainText('Enabled');
  });

  await test.step('and a T-shirt in sizes S, M, L (M at $24)', async () => {
    const image = await uploadPng(api, [40, 120, 200]);
    const id = await createProduct(api, { name, slug, price: 20, image, category: 'Fashion' });
    const res = await api.put(`/api/products/${id}`, {
      data: {
        _id: id, name, slug, image, images: [], category: 'Fashion', brand: 'Urbano', description: 'A tee in sizes.',
        isOnSale: false, saleDiscount: 0, isTodaysDeal: false, isGift: false,
        options: [{ name: 'Size', values: ['S', 'M', 'L'] }],
        variants: ['S', 'M', 'L'].map((size) => ({ options: { Size: size }, price: size === 'M' ? 24 : 20, countInStock: 5, enabled: true })),
      },
    });
    expect(res.status(), await res.text()).toBe(200);
  });

  const context = await browser.newContext();
  await context.addInitScript(() => localStorage.setItem('cookieConsent', 'true'));
  const shopper = await context.newPage();
  await signUpViaApi(shopper);

  await test.step('the shopper adds size M and applies the code in the cart', async () => {
    await shopper.goto(`/product/${slug}`);
    const sizes = shopper.getByRole('radiogroup', { name: 'Choose Size' });
    await sizes.getByRole('radio', { name: 'S' }).focus();
    await shopper.keyboard.press('ArrowRight');
    await expect(sizes.getByRole('radio', { name: 'M' })).toBeChecked();
    await shopper.getByRole('region', { name: 'Price and availability' }).getByRole('button', { name: 'Add to Cart' }).click();
    await expect(shopper).toHaveURL(/\/cart$/);
    await expect(shopper.getByTestId('cart-item')).toContainText('Variant: M');

    // Below the minimum first: the server's reason is shown beside the field.
    await shopper.getByLabel('Discount code').fill(code.toLowerCase());
    await shopper.getByRole('button', { name: 'Apply' }).click();
    await expect(shopper.getByRole('alert').filter({ hasText: 'discount' })).toHaveText('Spend at least $30.00 to use this discount code');
    await shopper.getByRole('button', { name: 'Increase quantity of' + ` ${name} (M)` }).click();
    await expect(shopper.getByTestId('cart-subtotal')).toContainText('$48.00');
    await shopper.getByRole('button', { name: 'Apply' }).click();
    await expect(shopper.getByTestId('discount-message')).toHaveText('Discount applied: 10% off');
    await expect(shopper.getByTestId('cart-discount')).toContainText('-$4.80');
    await expect(shopper.getByTestId('cart-after-discount')).toContainText('$43.20');
    expect(await axeViolations(shopper, '[data-testid="discount-box"]')).toEqual([]);
  });

  await test.step('Place Order shows the discount line and the total after it', async () => {
    await shopper.getByRole('button', { name: 'Proceed to Checkout' }).click();
    await expect(shopper).toHaveURL(/\/shipping$/);
    const form = shopper.getByRole('region', { name: 'Add a new address' });
    await form.getByLabel('Full Name', { exact: true }).fill('Code Shopper');
    await form.getByLabel('Address', { exact: true }).fill('10 Promo Street');
    await form.getByLabel('City', { exact: true }).fill('Springfield');
    await form.getByLabel('Postal Code', { exact: true }).fill('12345');
    await form.getByLabel('Country', { exact: true }).fill('USA');
    await form.getByRole('button', { name: 'Continue' }).click();
    await expect(shopper).toHaveURL(/\/payment$/);
    // The address page stays on screen until the payment page's code has loaded; both have a Continue button.
    await expect(shopper.getByRole('heading', { name: 'Payment Method' })).toBeVisible();
    await shopper.getByRole('button', { name: 'Continue' }).click();
    await expect(shopper).toHaveURL(/\/placeorder$/);
    await expect(shopper.getByTestId('discount-code')).toHaveText(code);
    await expect(shopper.getByTestId('discount-amount')).toHaveText('-$4.80');
    await expect(shopper.getByText('$43.20')).toBeVisible();
    await shopper.getByRole('button', { name: 'Place Order' }).click();
    await expect(shopper).toHaveURL(/\/order\/[0-9a-f]{24}$/);
  });

  await test.step('the order page shows the size and the code, and the total the server charged', async () => {
    await expect(shopper.getByText('Variant: M')).toBeVisible();
    await expect(shopper.getByTestId('discount-code')).toHaveText(code);
    await expect(shopper.getByTestId('discount-amount')).toHaveText('-$4.80');
    const orderId = new URL(shopper.url()).pathname.split('/').pop()!;
    const order = (await (await shopper.request.get(`/api/orders/${orderId}`)).json()) as { itemsPrice: number; discountPrice: number; totalPrice: number; discountCode: string };
    expect(order).toMatchObject({ itemsPrice: 48, discountPrice: 4.8, discountCode: code });
    expect(order.totalPrice).toBeCloseTo(43.2, 2);
    // The administrator sees the code on the order too, and one use on the list.
    await page.goto(`/admin/order/${orderId}`);
    await expect(page.getByTestId('discount-code')).toHaveText(code);
    await page.goto(`/admin/discounts?search=${word}`);
    await expect(page.getByRole('row').filter({ hasText: code })).toContainText('1');
  });

  await context.close();
  await api.dispose();
});
