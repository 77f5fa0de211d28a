import { request as playwrightRequest, type APIRequestContext, type Page } from '@playwright/test';
import { baseURL } from '../playwright.config';
import { uploadPng } from './catalogue-data';
import { createAccountViaApi, DEMO_ADMIN, expect, signIn, test, uniqueEmail } from './fixtures';

interface CreatedProduct {
  _id: string;
  slug: string;
  name: string;
}

/** An API client with its own cookie jar (never the browser's), signed in as the given account. */
async function apiSession(email: string, password: string): Promise<APIRequestContext> {
  const ctx = await playwrightRequest.newContext({ baseURL });
  const res = await ctx.post('/api/users/signin', { data: { email, password } });
  expect(res.status(), await res.text()).toBe(200);
  return ctx;
}

async function createProduct(admin: APIRequestContext, fields: { name: string; price: number; countInStock: number; isOnSale?: boolean; saleDiscount?: number }): Promise<CreatedProduct> {
  const created = await admin.post('/api/products');
  expect(created.status(), await created.text()).toBe(201);
  const { product } = (await created.json()) as { product: { _id: string } };
  const slug = `${fields.name.toLowerCase().replace(/[^a-z0-9]+/g, '-')}-${Date.now().toString(36)}`;
  const res = await admin.put(`/api/products/${product._id}`, {
    data: {
      _id: product._id,
      name: fields.name,
      slug,
      price: fields.price,
      // A product's image is an upload of the shop's (or an http(s) address): upload one.
      image: await uploadPng(admin, [40, 120, 200]),
      images: [],
      category: 'Checkout Test',
      brand: 'E2E',
      countInStock: fields.countInStock,
      description: `${fields.name} for the checkout test`,
      isTodaysDeal: false,
      isGift: false,
      isOnSale: fields.isOnSale ?? false,
      saleDiscount: fields.saleDiscount ?? 0,
    },
  });
  expect(res.status(), await res.text()).toBe(200);
  return { _id: product._id, slug, name: fields.name };
}

async function addFromProductPage(page: Page, product: CreatedProduct) {
  await page.goto(`/product/${product.slug}`);
  await page.getByRole('button', { name: 'Add to Cart' }).click();
  await expect(page.getByText('Product added to the cart')).toBeVisible();
  // The shopper is taken to the cart after 1 second.
  await expect(page).toHaveURL(/\/cart$/);
}

const today = () => new Date().toISOString().substring(0, 10);

test('a guest fills a cart, signs in (merged), adds an address, pays with the demo provider; an admin delivers and deletes orders', async ({ page, browser }) => {
  test.setTimeout(180_000);

  const admin = await apiSession(DEMO_ADMIN.email, DEMO_ADMIN.password);
  const mug = await createProduct(admin, { name: 'Checkout Mug', price: 10, countInStock: 5, isOnSale: true, saleDiscount: 10 }); // pays 9.00
  const lamp = await createProduct(admin, { name: 'Checkout Lamp', price: 24.5, countInStock: 3 });

  // A customer whose server cart already holds 2 lamps (from another device).
  const customer = { name: 'Checkout Shopper', email: uniqueEmail('checkout'), password: 'password123' };
  const anonymous = await playwrightRequest.newContext({ baseURL });
  await createAccountViaApi(anonymous, customer);
  await anonymous.dispose();
  const customerApi = await apiSession(customer.email, customer.password);
  expect((await customerApi.post('/api/cart/items', { data: { productId: lamp._id, quantity: 2 } })).status()).toBe(200);

  await test.step('a guest fills the cart', async () => {
    await page.goto('/cart');
    await expect(page.getByText('Cart is empty.')).toBeVisible();
    await addFromProductPage(page, mug);
    await addFromProductPage(page, lamp);
    await expect(page.getByTestId('cart-subtotal')).toHaveText('Subtotal (2 items) : $33.50');

    await expect(page.getByRole('button', { name: `Decrease quantity of ${mug.name}` })).toBeDisabled();
    await page.getByRole('button', { name: `Increase quantity of ${mug.name}` }).click();
    await page.getByRole('button', { name: `Increase quantity of ${lamp.name}` }).click();
    await expect(page.getByTestId('cart-subtotal')).toHaveText('Subtotal (4 items) : $67.00');
    // The guest cart survives a reload (localStorage).
    await page.reload();
    await expect(page.getByLabel(`Quantity of ${mug.name}`, { exact: true })).toHaveText('2');
  });

  await test.step('signing in merges the guest cart into the server cart (capped at stock)', async () => {
    await page.getByRole('button', { name: 'Proceed to Checkout' }).click();
    await expect(page).toHaveURL(/\/signin\?redirect=(%2F|\/)shipping$/);
    await page.getByLabel('Email').fill(customer.email);
    await page.getByLabel('Password', { exact: true }).fill(customer.password);
    await page.getByRole('button', { name: 'Sign In' }).click();
    await expect(page).toHaveURL(/\/shipping$/);
    await expect(page.getByText(`Only 3 of '${lamp.name}' in stock: quantity set to 3`)).toBeVisible();

    // 2 lamps on the server + 2 from the guest cart = 4, capped at the stock of 3.
    await expect
      .poll(async () => {
        const cart = (await (await customerApi.get('/api/cart')).json()) as { cartItems: { _id: string; quantity: number }[] };
        return Object.fromEntries(cart.cartItems.map((x) => [x._id, x.quantity]));
      })
      .toEqual({ [mug._id]: 2, [lamp._id]: 3 });
    expect(await page.evaluate(() => localStorage.getItem('cartItems'))).toBeNull();
  });

  let orderId = '';
  let orderName = '';
  /** The row of the order named `name` (#1003) in an order table: its first cell says exactly that. */
  const rowOf = (p: Page, name: string) => p.getByTestId('order-row').filter({ has: p.getByRole('cell', { name, exact: true }) });
  await test.step('adds an address, chooses PayPal and places the order', async () => {
    await expect(page.getByRole('navigation', { name: 'Checkout steps' })).toContainText('Sign-InShippingPaymentPlace Order');
    const form = page.getByRole('region', { name: 'Add a new address' });
    await form.getByLabel('Full Name', { exact: true }).fill('Checkout Shopper');
    await form.getByLabel('Address', { exact: true }).fill('42 Test Street');
    await form.getByLabel('City', { exact: true }).fill('Springfield');
    await form.getByLabel('Postal Code', { exact: true }).fill('12345');
    await form.getByLabel('Country', { exact: true }).fill('USA');
    await form.getByRole('button', { name: 'Continue' }).click();

    await expect(page).toHaveURL(/\/payment$/);
    await expect(page.getByRole('radio', { name: 'PayPal' })).toBeChecked();
    await expect(page.getByRole('radio', { name: 'Stripe' })).toBeDisabled();
    await page.getByRole('button', { name: 'Continue' }).click();

    await expect(page).toHaveURL(/\/placeorder$/);
    await expect(page.getByText('42 Test Street, Springfield, 12345, USA')).toBeVisible();
    // 2 x 9.00 + 3 x 24.50 = 91.50; shipping and tax 0.
    await expect(page.getByText('$91.50').first()).toBeVisible();
    await page.getByRole('button', { name: 'Place Order' }).click();

    await expect(page).toHaveURL(/\/order\/[0-9a-f]{24}$/);
    orderId = page.url().split('/').pop() ?? '';
    orderName = `#${((await (await customerApi.get(`/api/orders/${orderId}`)).json()) as { number: number }).number}`;
    await expect(page.getByRole('heading', { name: `Order ${orderName}` })).toBeVisible();
    await expect(page.getByText('Not Paid', { exact: true })).toBeVisible();
    await expect(page.getByText('Not Delivered', { exact: true })).toBeVisible();
  });

  await test.step('pays with the demo provider and sees the paid order', async () => {
    await page.getByRole('button', { name: 'Pay Now' }).click();
    await page.getByRole('button', { name: 'Pay with demo PayPal — no money is taken' }).click();
    await expect(page.getByText('Order is paid successfully')).toBeVisible();
    await expect(page.getByText(/^Paid at [A-Z][a-z]+ \d{2}, \d{4} \d{2}:\d{2} (AM|PM)$/)).toBeVisible();
    await expect(page.getByRole('button', { name: 'Pay Now' })).toHaveCount(0);

    // The cart is emptied locally and on the server.
    await page.goto('/cart');
    await expect(page.getByText('Cart is empty.')).toBeVisible();
  });

  await test.step('sees the order in the history', async () => {
    await page.goto('/orderhistory');
    const row = rowOf(page, orderName);
    await expect(row.getByRole('cell')).toHaveText([orderName, today(), '$91.50', today(), 'No', 'Paid', 'Details']);
    await row.getByRole('button', { name: /^Details/ }).click();
    await expect(page).toHaveURL(new RegExp(`/order/${orderId}$`));
  });

  // Another order (left unpaid) for the admin to delete.
  const addresses = (await (await customerApi.get('/api/addresses')).json()) as { _id: string }[];
  expect((await customerApi.post('/api/cart/items', { data: { productId: mug._id, quantity: 1 } })).status()).toBe(200);
  const other = await customerApi.post('/api/orders', { data: { addressId: addresses[0]?._id, paymentMethod: 'PayPal' } });
  expect(other.status(), await other.text()).toBe(201);
  const otherName = `#${((await other.json()) as { number: number }).number}`;

  const adminContext = await browser.newContext();
  await adminContext.addInitScript(() => localStorage.setItem('cookieConsent', 'true'));
  const adminPage = await adminContext.newPage();

  await test.step('an admin delivers the order and marks it not delivered', async () => {
    await signIn(adminPage, DEMO_ADMIN.email, DEMO_ADMIN.password, '/admin/orders');
    await expect(adminPage).toHaveURL(/\/admin\/orders$/);
    const row = rowOf(adminPage, orderName);
    await expect(row.getByRole('cell').nth(1)).toHaveText(customer.name);
    await row.getByRole('link', { name: /^Details/ }).click();
    await expect(adminPage).toHaveURL(new RegExp(`/order/${orderId}$`));

    await expect(adminPage.getByRole('button', { name: 'Pay Now' })).toHaveCount(0);
    await adminPage.getByRole('button', { name: 'Deliver Order' }).click();
    // It asks first.
    await adminPage.getByRole('dialog', { name: 'Deliver Order' }).getByRole('button', { name: 'Deliver Order' }).click();
    await expect(adminPage.getByText('Order is delivered')).toBeVisible();
    await expect(adminPage.getByText(/^Delivered at /)).toBeVisible();

    await adminPage.getByRole('button', { name: 'Mark as Not Delivered' }).click();
    await expect(adminPage.getByText('Order status updated to not delivered')).toBeVisible();
    await expect(adminPage.getByText('Not Delivered', { exact: true })).toBeVisible();
    await expect(adminPage.getByRole('button', { name: 'Deliver Order' })).toBeVisible();
  });

  await test.step('an admin deletes another order', async () => {
    await adminPage.goto('/admin/orders');
    // A paid order is refunded or cancelled, never deleted: its row offers no Delete.
    await expect(adminPage.getByRole('button', { name: `Delete order ${orderName}` })).toHaveCount(0);
    await adminPage.getByRole('button', { name: `Delete order ${otherName}` }).click();
    const dialog = adminPage.getByRole('dialog', { name: 'Delete Order' });
    await dialog.getByRole('button', { name: 'Delete' }).click();
    await expect(adminPage.getByText('Order deleted successfully')).toBeVisible();
    await expect(rowOf(adminPage, otherName)).toHaveCount(0);
    await expect(rowOf(adminPage, orderName)).toHaveCount(1);
  });

  await adminContext.close();
  await admin.dispose();
  await customerApi.dispose();
});
