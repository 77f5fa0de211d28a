import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { adminApi, uniqueWord, uploadPng } from './catalogue-data';
import { DEMO_ADMIN, expect, signIn, signUpViaApi, test } from './fixtures';

/**
 * Variants for the shop's own products (issue 34), end to end: an administrator creates a T-shirt
 * in sizes S, M, L with the product form; a shopper chooses M, buys it through checkout and sees it
 * on the order page; only M's stock is taken. Written in steps so that a discount code can be
 * added to the same journey (a step between the cart and Place Order).
 */

const axeViolations = async (page: Page, selector: string) =>
  (await new AxeBuilder({ page }).include(selector).withTags(['wcag2a', 'wcag2aa']).analyze()).violations
    .map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);

test('an administrator creates a T-shirt in sizes; a shopper buys size M and sees it on the order page', async ({ browser, page }) => {
  test.setTimeout(180_000);
  const word = uniqueWord();
  const name = `${word} Tee`;
  const slug = `${word}-tee`;
  const api = await adminApi();
  const image = await uploadPng(api, [200, 40, 60]);
  let productId = '';

  await test.step('the administrator creates the product with a Size option and prices M higher', async () => {
    await signIn(page, DEMO_ADMIN.email, DEMO_ADMIN.password, '/admin/products');
    await page.getByRole('button', { name: 'Create Product' }).click();
    await page.getByRole('dialog', { name: 'Create Product' }).getByRole('button', { name: 'Create' }).click();
    await expect(page).toHaveURL(/\/admin\/product\/[0-9a-f]{24}$/);
    productId = new URL(page.url()).pathname.split('/').pop()!;

    await page.getByLabel('Name', { exact: true }).fill(name);
    await page.getByLabel('Slug', { exact: true }).fill(slug);
    await page.getByLabel('Price', { exact: true }).fill('20');
    await page.getByLabel('Image File', { exact: true }).fill(image);
    await page.getByLabel('Category', { exact: true }).selectOption('Fashion');
    await page.getByLabel('Brand', { exact: true }).fill('Urbano');
    await page.getByLabel('Description', { exact: true }).fill('A soft cotton tee in three sizes.');

    // Options: Size with S, M, L typed as one list; the keyboard adds them.
    await page.getByRole('button', { name: 'Add option' }).click();
    await page.getByLabel('Option name').fill('Size');
    await page.getByRole('textbox', { name: 'Add values to Size' }).fill('S, M, L');
    await page.getByRole('textbox', { name: 'Add values to Size' }).press('Enter');
    const table = page.getByRole('table', { name: 'Variants' });
    await expect(table.getByRole('rowheader')).toHaveText(['SNew', 'MNew', 'LNew']);
    // The product's own price and stock are now its variants'.
    await expect(page.getByLabel('Price', { exact: true })).toHaveCount(0);
    for (const size of ['S', 'M', 'L']) {
      await expect(page.getByLabel(`Price of ${size}`)).toHaveValue('20');
      await page.getByLabel(`Stock of ${size}`).fill(size === 'M' ? '2' : '5');
      await page.getByLabel(`SKU of ${size}`).fill(`${word.toUpperCase()}-${size}`);
    }
    await page.getByLabel('Price of M').fill('24');
    await expect(page.getByTestId('variant-price')).toHaveText('$20.00 – $24.00');
    await expect(page.getByTestId('variant-stock')).toHaveText('12');
    expect(await axeViolations(page, 'form')).toEqual([]);

    await page.getByRole('button', { name: 'Update' }).click();
    await expect(page.getByText('Product updated successfully')).toBeVisible();
  });

  await test.step('at 390 px the variant table is a list of labelled cards', async () => {
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(`/admin/product/${productId}`);
    const price = page.getByLabel('Price of M');
    await expect(price).toHaveValue('24');
    const box = (await price.boundingBox())!;
    expect(box.x + box.width).toBeLessThanOrEqual(390);
    await expect(page.locator('td[data-label="Price"]').first()).toBeVisible();
    await page.setViewportSize({ width: 1280, height: 720 });
  });

  const context = await browser.newContext();
  await context.addInitScript(() => localStorage.setItem('cookieConsent', 'true'));
  const shopper = await context.newPage();
  await signUpViaApi(shopper);

  await test.step('the shopper sees "From $20.00", chooses M with the keyboard and adds it to the cart', async () => {
    await shopper.goto(`/search?query=${word}`);
    await expect(shopper.locator('.product-card').filter({ hasText: name })).toContainText('From $20.00');
    await shopper.goto(`/product/${slug}`);
    await expect(shopper.getByRole('heading', { level: 1, name })).toBeVisible();
    const buyBox = shopper.getByRole('region', { name: 'Price and availability' });
    await expect(buyBox).toContainText('From $20.00');
    const add = buyBox.getByRole('button', { name: 'Add to Cart' });
    await expect(add).toBeDisabled();
    const sizes = shopper.getByRole('radiogroup', { name: 'Choose Size' });
    await sizes.getByRole('radio', { name: 'S' }).focus();
    await shopper.keyboard.press('ArrowRight');
    await expect(sizes.getByRole('radio', { name: 'M' })).toBeChecked();
    await expect(buyBox).toContainText('$24.00');
    await expect(shopper.getByText('Chosen: M, $24.00 (2 in stock)')).toBeVisible();
    expect(await axeViolations(shopper, 'article')).toEqual([]);
    await add.click();
    await expect(shopper).toHaveURL(/\/cart$/);
    await expect(shopper.getByTestId('cart-item')).toContainText('Variant: M');
    await expect(shopper.getByTestId('cart-item')).toContainText('$24.00');
  });

  await test.step('checks out: address, payment, Place Order', async () => {
    await shopper.getByRole('button', { name: 'Proceed to Checkout' }).click();
    await expect(shopper).toHaveURL(/\/shipping$/);
    const form = shopper.getByRole('region', { name: 'Add a new address' });
    await form.getByLabel('Full Name', { exact: true }).fill('Tee Shopper');
    await form.getByLabel('Address', { exact: true }).fill('7 Cotton Lane');
    await form.getByLabel('City', { exact: true }).fill('Springfield');
    await form.getByLabel('Postal Code', { exact: true }).fill('12345');
    await form.getByLabel('Country', { exact: true }).fill('USA');
    await form.getByRole('button', { name: 'Continue' }).click();
    await expect(shopper).toHaveURL(/\/payment$/);
    // The address page stays on screen until the payment page's code has loaded; both have a Continue button.
    await expect(shopper.getByRole('heading', { name: 'Payment Method' })).toBeVisible();
    await shopper.getByRole('button', { name: 'Continue' }).click();
    await expect(shopper).toHaveURL(/\/placeorder$/);
    await expect(shopper.getByText('Variant: M')).toBeVisible();
    // (discounts.spec.ts takes the same journey with a discount code.)
    await shopper.getByRole('button', { name: 'Place Order' }).click();
    await expect(shopper).toHaveURL(/\/order\/[0-9a-f]{24}$/);
  });

  await test.step('the order page names the size; only M\'s stock was taken', async () => {
    await expect(shopper.getByText('Variant: M')).toBeVisible();
    await expect(shopper.getByRole('link', { name })).toHaveAttribute('href', `/product/${slug}`);
    const product = (await (await api.get(`/api/products/${productId}`)).json()) as { countInStock: number; productVariants: Array<{ name: string; countInStock: number }> };
    expect(Object.fromEntries(product.productVariants.map((v) => [v.name, v.countInStock]))).toEqual({ S: 5, M: 1, L: 5 });
    expect(product.countInStock).toBe(11);
  });

  await context.close();
  await api.dispose();
});
