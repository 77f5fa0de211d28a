import AxeBuilder from '@axe-core/playwright';
import { request as playwrightRequest, type APIRequestContext, type Page } from '@playwright/test';
import { baseURL } from '../playwright.config';
import { uploadPng } from './catalogue-data';
import { createAccountViaApi, DEMO_ADMIN, expect, signIn, test, uniqueEmail } from './fixtures';

// Issue 33: an administrator refunds one line of a paid (demo) order from the order page; the
// customer sees the refund and the order's timeline on their own order page, and the refund mail is
// in the development mailbox. Once on a desktop and once on a phone.

/** An API client with its own cookie jar, signed in as the given account. */
async function apiSession(email: string, password: string): Promise<APIRequestContext> {
  const ctx = await playwrightRequest.newContext({ baseURL });
  const res = await ctx.post('/api/users/signin', { data: { email, password } });
  expect(res.status(), await res.text()).toBe(200);
  return ctx;
}

async function createProduct(admin: APIRequestContext, name: string, price: number, countInStock: number) {
  const created = await admin.post('/api/products');
  expect(created.status(), await created.text()).toBe(201);
  const { product } = (await created.json()) as { product: { _id: string } };
  const res = await admin.put(`/api/products/${product._id}`, {
    data: {
      _id: product._id, name, slug: `${name.toLowerCase().replace(/[^a-z0-9]+/g, '-')}-${Date.now().toString(36)}`, price,
      image: await uploadPng(admin, [200, 80, 40]), images: [], category: 'Refund Test', brand: 'E2E', countInStock,
      description: `${name} for the refund test`, isTodaysDeal: false, isGift: false, isOnSale: false, saleDiscount: 0,
    },
  });
  expect(res.status(), await res.text()).toBe(200);
  return product._id;
}

/** Serious or critical axe findings inside the open dialog (it is rendered outside main). */
async function dialogAxeViolations(page: Page): Promise<string[]> {
  const results = await new AxeBuilder({ page }).include('.modal').withTags(['wcag2a', 'wcag2aa']).analyze();
  return results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}

const stockOf = async (api: APIRequestContext, id: string) => ((await (await api.get(`/api/products/${id}`)).json()) as { countInStock: number }).countInStock;

for (const screen of [{ label: 'desktop', width: 1280, height: 800 }, { label: 'phone', width: 390, height: 844 }]) {
  test(`an administrator refunds one line from the order page; the customer sees the refund, the timeline and the mail (${screen.label}, ${screen.width} px)`, async ({ page, browser }) => {
    test.setTimeout(180_000);
    await page.setViewportSize({ width: screen.width, height: screen.height });
    const admin = await apiSession(DEMO_ADMIN.email, DEMO_ADMIN.password);
    const suffix = Date.now().toString(36);
    const mugName = `Refund Mug ${suffix}`;
    const mug = await createProduct(admin, mugName, 9, 10);
    const lamp = await createProduct(admin, `Refund Lamp ${suffix}`, 25, 10);

    // A customer orders 2 mugs and a lamp ($43) and pays with the demo provider.
    const customer = { name: 'Rita Refund', email: uniqueEmail('refund'), password: 'password123' };
    const customerApi = await playwrightRequest.newContext({ baseURL });
    await createAccountViaApi(customerApi, customer);
    expect((await customerApi.post('/api/cart/items', { data: { productId: mug, quantity: 2 } })).status()).toBe(200);
    expect((await customerApi.post('/api/cart/items', { data: { productId: lamp, quantity: 1 } })).status()).toBe(200);
    const placed = await customerApi.post('/api/orders', {
      data: { shippingAddress: { fullName: 'Rita Refund', address: '1 Main St', city: 'Springfield', postalCode: '12345', country: 'USA' }, paymentMethod: 'PayPal' },
    });
    expect(placed.status(), await placed.text()).toBe(201);
    const order = (await placed.json()) as { _id: string; number: number; totalPrice: number };
    expect(order.totalPrice).toBe(43);
    const paid = await customerApi.put(`/api/orders/${order._id}/pay`, { data: { demo: true } });
    expect(paid.status(), await paid.text()).toBe(200);
    const name = `#${order.number}`;
    const mugStockAfterSale = await stockOf(admin, mug);

    await test.step('the administrator finds the order by its number and refunds one mug from the order page', async () => {
      await signIn(page, DEMO_ADMIN.email, DEMO_ADMIN.password, `/admin/orders?search=${encodeURIComponent(name)}`);
      const row = page.getByTestId('order-row');
      await expect(row).toHaveCount(1);
      await expect(row.getByTestId('order-status')).toHaveText('Paid');
      // A paid order is refunded or cancelled, never deleted.
      await expect(row.getByRole('button', { name: `Delete order ${name}` })).toHaveCount(0);
      await row.getByRole('link', { name: `Details of order ${name}` }).click();
      await expect(page.getByRole('heading', { level: 1, name: `Order ${name}` })).toBeVisible();

      await page.getByRole('button', { name: 'Refund', exact: true }).click();
      const dialog = page.getByRole('dialog', { name: `Refund order ${name}` });
      await expect(dialog).toContainText('$43.00 left to refund');
      await expect(dialog.getByRole('checkbox', { name: `Restock ${mugName}` })).toBeChecked();
      await dialog.getByLabel(`Units of ${mugName} to refund (0 to 2)`).fill('1');
      await expect(dialog.getByTestId('refund-total')).toHaveText('$9.00');
      expect(await dialogAxeViolations(page)).toEqual([]);
      await dialog.getByLabel('Reason (the customer reads it)').fill('One mug arrived chipped');
      await dialog.getByRole('button', { name: 'Refund $9.00' }).click();
      await expect(page.getByText(`Refund recorded: $9.00 for order ${name}`)).toBeVisible();
      await expect(dialog).toHaveCount(0);
      await expect(page.getByTestId('order-status')).toHaveText('Partially refunded');
      await expect(page.getByTestId('refunded-amount')).toHaveText('−$9.00');
      await expect(page.getByTestId('refund')).toContainText(`1 × ${mugName}: $9.00 (restocked)`);
      await expect(page.getByTestId('timeline-event').filter({ hasText: 'Refunded $9.00: One mug arrived chipped' })).toHaveCount(1);

      await page.getByLabel('Internal note').fill('Sent a photo of the chip to the warehouse');
      await page.getByRole('button', { name: 'Add note' }).click();
      await expect(page.getByTestId('timeline-event').filter({ hasText: 'Sent a photo of the chip to the warehouse' })).toContainText('Internal note');
      expect(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBeLessThanOrEqual(0);
    });
    // The refunded mug went back on sale; nothing else did.
    expect(await stockOf(admin, mug)).toBe(mugStockAfterSale + 1);

    const customerContext = await browser.newContext({ viewport: { width: screen.width, height: screen.height } });
    await customerContext.addInitScript(() => localStorage.setItem('cookieConsent', 'true'));
    const customerPage = await customerContext.newPage();

    await test.step('the customer sees the refund and the timeline on their order page, without the internal note', async () => {
      await signIn(customerPage, customer.email, customer.password, '/orderhistory');
      // (At 390 px each cell's name starts with its column's label: the row is found by its Details button.)
      const row = customerPage.getByTestId('order-row').filter({ has: customerPage.getByRole('button', { name: `Details of order ${name}`, exact: true }) });
      await expect(row.getByTestId('order-status')).toHaveText('Partially refunded');
      await row.getByRole('button', { name: `Details of order ${name}` }).click();
      await expect(customerPage).toHaveURL(new RegExp(`/order/${order._id}$`));
      await expect(customerPage.getByRole('heading', { level: 1, name: `Order ${name}` })).toBeVisible();
      await expect(customerPage.getByTestId('order-status')).toHaveText('Partially refunded');
      const refund = customerPage.getByTestId('refund');
      await expect(refund).toContainText('$9.00');
      await expect(refund).toContainText(`1 × ${mugName}: $9.00`);
      await expect(refund).toContainText('Reason: One mug arrived chipped');
      const events = customerPage.getByTestId('timeline-event');
      await expect(events.first()).toContainText('Order placed');
      await expect(events.filter({ hasText: 'Payment received' })).toHaveCount(1);
      await expect(events.last()).toContainText('Refunded $9.00');
      await expect(customerPage.getByText('Sent a photo of the chip to the warehouse')).toHaveCount(0);
      await expect(customerPage.getByLabel('Internal note')).toHaveCount(0);
      // A paid order is not the customer's to cancel or refund.
      await expect(customerPage.getByRole('button', { name: 'Cancel order' })).toHaveCount(0);
      await expect(customerPage.getByRole('button', { name: 'Refund', exact: true })).toHaveCount(0);
      expect(await customerPage.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBeLessThanOrEqual(0);
    });

    await test.step('the refund mail is in the development mailbox, with an absolute link to the order', async () => {
      await customerPage.goto('/dev/mailbox');
      const mail = customerPage.getByRole('article').filter({ hasText: `Refund for your order ${name}` }).filter({ hasText: customer.email });
      await expect(mail).toHaveCount(1);
      await expect(mail).toContainText(`1 x ${mugName}: $9.00`);
      await expect(mail).toContainText('One mug arrived chipped');
      await expect(mail.getByRole('link', { name: new RegExp(`/order/${order._id}`) })).toHaveAttribute('href', new RegExp(`^http://localhost:\\d+/order/${order._id}$`));
    });

    await customerContext.close();
    await customerApi.dispose();
    await admin.dispose();
  });
}
