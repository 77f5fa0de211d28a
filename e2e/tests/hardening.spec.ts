import { adminApi, createProduct, uniqueWord, uploadPng } from './catalogue-data';
import { DEMO_ADMIN, expect, screenshotWidths, signIn, test } from './fixtures';

const PRICE = 'Price must be greater than 0';
const DECIMALS = 'Price must have at most 2 decimal places';
const FORMAT = 'Price must be a number written like 19.99';
const FINAL_PRICE = 'Price after the sale discount must be at least $0.01';

test('admin product form: a price of less than a cent, a number that is not decimal and a discount that makes the product free are refused beside their field, once', async ({ page }) => {
  const word = uniqueWord();
  const api = await adminApi();
  const id = await createProduct(api, { name: `${word} Penny Sweet`, slug: `${word}-penny`, price: 2, category: 'Sweets', image: await uploadPng(api, [200, 120, 40]) });

  // The server refuses the same values directly, with the spec's messages per field.
  const direct = await api.put(`/api/products/${id}`, { data: { _id: id, category: 'Sweets', brand: 'Acme', description: 'Cheap.', price: 0.004 } });
  expect(direct.status()).toBe(400);
  expect(await direct.json()).toEqual({ message: DECIMALS, code: 'VALIDATION_ERROR', fieldErrors: { price: DECIMALS } });
  const hex = await api.put(`/api/products/${id}`, { data: { _id: id, category: 'Sweets', brand: 'Acme', description: 'Cheap.', price: '0x10' } });
  expect(await hex.json()).toEqual({ message: FORMAT, code: 'VALIDATION_ERROR', fieldErrors: { price: FORMAT } });
  const free = await api.put(`/api/products/${id}`, { data: { _id: id, category: 'Sweets', brand: 'Acme', description: 'Cheap.', isOnSale: true, saleDiscount: 100 } });
  expect(await free.json()).toEqual({ message: FINAL_PRICE, code: 'VALIDATION_ERROR', fieldErrors: { saleDiscount: FINAL_PRICE } });
  await api.dispose();

  await signIn(page, DEMO_ADMIN.email, DEMO_ADMIN.password, `/admin/product/${id}`);
  await expect(page.getByRole('heading', { level: 1, name: `Edit Product ${id}` })).toBeVisible();
  const update = page.getByRole('button', { name: 'Update' });

  await page.getByLabel('Price', { exact: true }).fill('0.004');
  await update.click();
  await expect(page.getByText(DECIMALS)).toHaveCount(1);
  await expect(page.getByLabel('Price', { exact: true })).toHaveAttribute('aria-invalid', 'true');
  await expect(page.getByRole('alert')).toHaveCount(0);
  // A number input keeps "1e1" (HTML reads it as 10): the shop's parser does not.
  await page.getByLabel('Price', { exact: true }).fill('1e1');
  await expect(page.getByText(FORMAT)).toHaveCount(1);
  await page.getByLabel('Price', { exact: true }).fill('0');
  await expect(page.getByText(PRICE)).toHaveCount(1);

  await page.getByLabel('Price', { exact: true }).fill('20');
  await expect(page.getByText(PRICE)).toHaveCount(0);
  await page.getByLabel('On Sale', { exact: true }).check();
  await page.getByLabel('Sale Discount (%)').fill('100');
  await expect(page.getByText(FINAL_PRICE)).toHaveCount(1);
  await expect(page.getByLabel('Sale Discount (%)')).toHaveAttribute('aria-invalid', 'true');
  await expect(update).toBeDisabled();
  await page.getByLabel('Sale Discount (%)').focus();
  await screenshotWidths(page, 'product-form-free-product-refused');
  await page.setViewportSize({ width: 1280, height: 800 });

  await page.getByLabel('Sale Discount (%)').fill('99');
  await expect(page.getByText(FINAL_PRICE)).toHaveCount(0);
  await update.click();
  await expect(page.getByText('Product updated successfully')).toBeVisible();
  const saved = await (await page.request.get(`/api/products/${id}`)).json();
  expect(saved).toMatchObject({ price: 20, isOnSale: true, saleDiscount: 99, finalPrice: 0.2 });
});

test('pages are served without an Accept header; unknown API routes and missing files stay 404 JSON', async ({ request }) => {
  const home = await request.get('/', { headers: { accept: '' } });
  expect(home.status()).toBe(200);
  expect(home.headers()['content-type']).toBe('text/html; charset=utf-8');
  expect(await home.text()).toContain('<div id="root">');
  const nul = await request.get('/product/a%00b', { headers: { accept: '*/*' } });
  expect(nul.status()).toBe(200);
  expect(await nul.text()).toContain('<div id="root">');
  for (const url of ['/api/nope', '/assets/missing.js', '/favicon-missing.ico']) {
    const res = await request.get(url);
    expect(res.status(), url).toBe(404);
    expect(await res.json()).toEqual({ message: `Route GET ${url} not found`, code: 'NOT_FOUND' });
  }
});

test('a product page URL with a NUL character shows the app\'s not-found state', async ({ page }) => {
  await page.goto('/product/a%00b');
  await expect(page.getByText('Product Not Found')).toBeVisible();
  await screenshotWidths(page, 'product-page-nul-not-found');
});
