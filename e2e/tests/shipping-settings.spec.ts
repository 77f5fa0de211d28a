import { DEMO_ADMIN, expect, signIn, signUpViaApi, test } from './fixtures';

interface ListedProduct { _id: string; price: number; finalPrice?: number; countInStock: number; cjData?: unknown; options?: unknown[] }

const ICELAND_ONLY = 'Shipping is free to every country except: Iceland $7.50 per order.';

// Issue 34.3: one shipping promise. A rate for one country only, so the other specs of this worker's
// shop (they ship to the USA) are not touched; the settings go back to the default at the end.
test('an administrator gives Iceland its own rate: the Shipping page, the cart, Place Order and the order all say and charge it', async ({ page, browser }) => {
  test.setTimeout(180_000);
  const adminContext = await browser.newContext();
  await adminContext.addInitScript(() => localStorage.setItem('cookieConsent', 'true'));
  const admin = await adminContext.newPage();
  try {
    await signIn(admin, DEMO_ADMIN.email, DEMO_ADMIN.password, '/admin/shipping');
    await expect(admin.getByLabel('Flat rate per order ($)')).toHaveValue('0.00');
    await admin.getByRole('button', { name: 'Add Country Rate' }).click();
    const row = admin.getByRole('group', { name: 'Country rate 1' });
    await row.getByLabel('Country', { exact: true }).selectOption({ label: 'Iceland' });
    await row.getByLabel('Rate per order ($)').fill('7.50');
    await admin.getByRole('button', { name: 'Save Shipping Settings' }).click();
    await expect(admin.getByText('Shipping settings saved')).toBeVisible();
    await expect(admin.getByTestId('shipping-summary')).toHaveText(ICELAND_ONLY);

    // The shopper reads it on the Shipping page and under the cart's subtotal.
    await signUpViaApi(page);
    await page.goto('/pages/shipping');
    await expect(page.getByText(ICELAND_ONLY)).toBeVisible();
    const listed = (await (await page.request.get('/api/products')).json()) as { products?: ListedProduct[] } | ListedProduct[];
    const product = (Array.isArray(listed) ? listed : (listed.products ?? [])).find((p) => p.countInStock > 0 && !p.cjData && !p.options?.length);
    expect(product).toBeDefined();
    expect((await page.request.post('/api/cart/items', { data: { productId: product!._id, quantity: 1 } })).status()).toBe(200);
    await page.goto('/cart');
    await expect(page.getByTestId('cart-shipping')).toHaveText(ICELAND_ONLY);

    // Checkout to Iceland: Place Order shows $7.50 before the order, and the order charges it.
    await page.getByRole('button', { name: 'Proceed to Checkout' }).click();
    await expect(page).toHaveURL(/\/shipping$/);
    const form = page.getByRole('region', { name: 'Add a new address' });
    await form.getByLabel('Full Name', { exact: true }).fill('Iceland Shopper');
    await form.getByLabel('Address', { exact: true }).fill('1 Laugavegur');
    await form.getByLabel('City', { exact: true }).fill('Reykjavik');
    await form.getByLabel('Postal Code', { exact: true }).fill('101');
    await form.getByLabel('Country', { exact: true }).fill('Iceland');
    await form.getByRole('button', { name: 'Continue' }).click();
    await expect(page).toHaveURL(/\/payment$/);
    // The address page stays on screen until the payment page's code has loaded; both have a Continue button.
    await expect(page.getByRole('heading', { name: 'Payment Method' })).toBeVisible();
    await page.getByRole('button', { name: 'Continue' }).click();
    await expect(page).toHaveURL(/\/placeorder$/);
    // What the shopper pays for it: the sale price when another spec has put it on sale.
    const total = ((product!.finalPrice ?? product!.price) + 7.5).toFixed(2);
    await expect(page.getByText('$7.50')).toBeVisible();
    await expect(page.getByText(`$${total}`).first()).toBeVisible();
    await page.getByRole('button', { name: 'Place Order' }).click();
    await expect(page).toHaveURL(/\/order\/[0-9a-f]{24}$/);
    await expect(page.getByText('$7.50')).toBeVisible();
    await expect(page.getByText(`$${total}`).first()).toBeVisible();
  } finally {
    await admin.request.put('/api/shipping/settings', { data: { flatRate: 0, freeOver: null, countryRates: [], supplierFreight: 'included' } });
    await adminContext.close();
  }
});
