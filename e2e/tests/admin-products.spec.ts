import AxeBuilder from '@axe-core/playwright';
import { adminApi, createProduct, makePng, uniqueWord, uploadPng } from './catalogue-data';
import { DEMO_ADMIN, expect, signIn, test } from './fixtures';

const UPLOADED = 'Image uploaded successfully. Click Update to apply it.';
const REMOVED = 'Image removed successfully. Click Update to apply it.';

test('admin creates a product, edits it with an uploaded image, and deletes it', async ({ page }) => {
  const word = uniqueWord();
  const name = `${word} Desk Fan`;
  const slug = `${word}-desk-fan`;
  // A product whose slug the form will try to take, to see the server's field error.
  const api = await adminApi();
  const takenSlug = `${word}-taken`;
  await createProduct(api, { name: `${word} Taken`, slug: takenSlug, price: 10, category: 'Fans', image: await uploadPng(api, [90, 90, 90]) });
  await api.dispose();

  await signIn(page, DEMO_ADMIN.email, DEMO_ADMIN.password, '/admin/products');
  await expect(page.getByRole('heading', { level: 1, name: 'Products' })).toBeVisible();

  // Create: confirm, then the edit page of the new draft.
  await page.getByRole('button', { name: 'Create Product' }).click();
  const createDialog = page.getByRole('dialog', { name: 'Create Product' });
  await expect(createDialog).toBeVisible();
  await createDialog.getByRole('button', { name: 'Create' }).click();
  await expect(page.getByText('Product created successfully')).toBeVisible();
  await expect(page).toHaveURL(/\/admin\/product\/[0-9a-f]{24}$/);
  const id = new URL(page.url()).pathname.split('/').pop()!;
  await expect(page.getByRole('heading', { level: 1, name: `Edit Product ${id}` })).toBeVisible();

  // The draft's placeholders (price 0, no image) do not pass, and nothing is sent.
  const update = page.getByRole('button', { name: 'Update' });
  await update.click();
  await expect(page.getByText('Price must be greater than 0')).toBeVisible();
  await expect(page.getByText('Image is required')).toBeVisible();
  await expect(update).toBeDisabled();

  await page.getByLabel('Name', { exact: true }).fill('');
  await expect(page.getByText('Name is required')).toBeVisible();
  await page.getByLabel('Name', { exact: true }).fill(name);
  await expect(page.getByText('Name is required')).toBeHidden();
  await page.getByLabel('Slug', { exact: true }).fill(takenSlug);
  await page.getByLabel('Price', { exact: true }).fill('49.99');
  await page.getByLabel('Category', { exact: true }).selectOption('Fans');
  await page.getByLabel('Brand', { exact: true }).fill('Breezy');
  await page.getByLabel('Count In Stock', { exact: true }).fill('7');
  await page.getByLabel('Description', { exact: true }).fill('A quiet desk fan.');
  await expect(page.getByLabel('Sale Discount (%)')).toBeHidden();
  await page.getByLabel('On Sale', { exact: true }).check();
  await page.getByLabel('Sale Discount (%)').fill('0');
  await expect(page.getByText('Sale discount must be between 1 and 100')).toBeVisible();
  await page.getByLabel('Sale Discount (%)').fill('10');
  await expect(page.getByText('Sale discount must be between 1 and 100')).toBeHidden();

  // Upload the main image: the notice shows, the field takes the stored WebP, the notice clears after 2 s.
  await page.getByLabel('Upload Image', { exact: true }).setInputFiles({ name: 'fan.png', mimeType: 'image/png', buffer: makePng([10, 120, 200], 16) });
  await expect(page.getByText(UPLOADED)).toBeVisible();
  await expect(page.getByLabel('Image File')).toHaveValue(/^\/uploads\/.+\.webp$/);
  const image = await page.getByLabel('Image File').inputValue();
  await expect(page.getByText(UPLOADED)).toBeHidden({ timeout: 4000 });
  await expect(page.getByText('Image is required')).toBeHidden();

  // Additional images: add two, remove one.
  await page.getByLabel('Upload Additional Image').setInputFiles({ name: 'side.png', mimeType: 'image/png', buffer: makePng([240, 180, 20], 16) });
  await expect(page.getByRole('button', { name: /^Remove image / })).toHaveCount(1);
  await page.getByLabel('Upload Additional Image').setInputFiles({ name: 'back.png', mimeType: 'image/png', buffer: makePng([20, 180, 90], 16) });
  await expect(page.getByRole('button', { name: /^Remove image / })).toHaveCount(2);
  const extra = (await page.getByRole('button', { name: /^Remove image / }).first().getAttribute('aria-label'))!.replace('Remove image ', '');
  await page.getByRole('button', { name: /^Remove image / }).last().click();
  await expect(page.getByText(REMOVED)).toBeVisible();
  await expect(page.getByRole('button', { name: /^Remove image / })).toHaveCount(1);

  // The server refuses a slug in use, beside the slug field; fixed, the update goes through.
  await expect(update).toBeEnabled();
  await update.click();
  await expect(page.getByText('Slug is already in use')).toBeVisible();
  await expect(page.getByLabel('Slug', { exact: true })).toHaveAttribute('aria-invalid', 'true');
  await page.getByLabel('Slug', { exact: true }).fill(slug);
  await update.click();
  await expect(page.getByText('Product updated successfully')).toBeVisible();
  await expect(page).toHaveURL(/\/admin\/products$/);

  // The storefront shows it with the new images and the sale price.
  await page.goto(`/product/${slug}`);
  await expect(page.getByRole('heading', { level: 1, name })).toBeVisible();
  await expect(page.getByTestId('gallery-main')).toHaveAttribute('src', image);
  await expect(page.getByText('(10% OFF)')).toBeVisible();
  await expect(page.getByText('$44.99').first()).toBeVisible();
  await page.getByRole('button', { name: 'Show image 2 of 2' }).click();
  await expect(page.getByTestId('gallery-main')).toHaveAttribute('src', extra);

  // Delete: confirm, toast, gone from the list and the storefront.
  await page.goto('/admin/products');
  const row = page.getByRole('row').filter({ hasText: name });
  await expect(row).toHaveCount(1);
  await row.getByRole('button', { name: `Delete ${name}` }).click();
  const deleteDialog = page.getByRole('dialog', { name: 'Delete Product' });
  await expect(deleteDialog).toContainText(name);
  await deleteDialog.getByRole('button', { name: 'Delete' }).click();
  await expect(page.getByText('Product deleted successfully')).toBeVisible();
  await expect(row).toHaveCount(0);
  expect((await page.request.get(`/api/products/slug/${slug}`)).status()).toBe(404);
});

test('admin product list: page links and Edit', async ({ page }) => {
  // Enough products for two pages of 10, whatever the demo catalogue holds.
  const api = await adminApi();
  const { countProducts } = (await (await api.get('/api/products/admin?page=1')).json()) as { countProducts: number };
  if (countProducts <= 10) {
    const word = uniqueWord();
    const image = await uploadPng(api, [120, 120, 200]);
    for (let i = countProducts; i <= 10; i++) await createProduct(api, { name: `${word} Filler ${i}`, slug: `${word}-filler-${i}`, price: 3, category: 'Fillers', image });
  }
  await api.dispose();
  await signIn(page, DEMO_ADMIN.email, DEMO_ADMIN.password, '/admin/products');
  await expect(page.getByRole('heading', { level: 1, name: 'Products' })).toBeVisible();
  await expect(page.getByRole('row')).toHaveCount(11); // header + 10 per page
  await page.getByRole('navigation', { name: 'Product pages' }).getByRole('link', { name: 'Page 2' }).click();
  await expect(page).toHaveURL(/\/admin\/products\?page=2$/);
  await expect(page.getByRole('link', { name: 'Page 2' })).toHaveAttribute('aria-current', 'page');
  await expect(page.getByRole('table')).toHaveAttribute('aria-busy', 'false');
  const edit = page.getByRole('link', { name: /^Edit / }).first();
  const href = await edit.getAttribute('href');
  await edit.click();
  await expect(page).toHaveURL(href!);
  await expect(page.getByRole('heading', { level: 1, name: /^Edit Product [0-9a-f]{24}$/ })).toBeVisible();
});

test('/admin/product asks before creating: opening it creates nothing, Cancel goes back, Create makes one draft', async ({ page }) => {
  const api = await adminApi();
  const count = async () => ((await (await api.get('/api/products/admin?page=1')).json()) as { countProducts: number }).countProducts;
  const before = await count();

  await signIn(page, DEMO_ADMIN.email, DEMO_ADMIN.password, '/admin/product');
  await expect(page).toHaveURL(/\/admin\/product$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Create Product' })).toBeVisible();
  await expect(page.getByText('Are you sure to create a new product?')).toBeVisible();
  const axe = await new AxeBuilder({ page }).include('main').withTags(['wcag2a', 'wcag2aa']).analyze();
  expect(axe.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
  // Opening (and reloading) the page created nothing.
  await page.reload();
  await expect(page.getByRole('heading', { level: 1, name: 'Create Product' })).toBeVisible();
  expect(await count()).toBe(before);

  await page.getByRole('link', { name: 'Cancel' }).click();
  await expect(page).toHaveURL(/\/admin\/products$/);
  expect(await count()).toBe(before);

  await page.goto('/admin/product');
  await page.getByRole('button', { name: 'Create', exact: true }).click();
  await expect(page.getByText('Product created successfully')).toBeVisible();
  await expect(page).toHaveURL(/\/admin\/product\/[0-9a-f]{24}$/);
  const id = new URL(page.url()).pathname.split('/').pop()!;
  expect(await count()).toBe(before + 1);
  await expect(page.getByLabel('Name', { exact: true })).toHaveValue('Sample name');
  // The form is labelled and accessible, also while it shows its messages.
  await page.getByRole('button', { name: 'Update' }).click();
  await expect(page.getByText('Image is required')).toBeVisible();
  const results = await new AxeBuilder({ page }).include('main').withTags(['wcag2a', 'wcag2aa']).analyze();
  expect(results.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
  expect((await api.delete(`/api/products/${id}`)).status()).toBe(200);
  await api.dispose();
});

test('admin product list: search, category and stock filters, sort, and back to the same view after saving', async ({ page }) => {
  const word = uniqueWord();
  const category = `${word}-kit`;
  const api = await adminApi();
  const image = await uploadPng(api, [200, 90, 40]);
  await createProduct(api, { name: `${word} Alpha`, slug: `${word}-alpha`, price: 30, category, image, countInStock: 0 });
  await createProduct(api, { name: `${word} Beta`, slug: `${word}-beta`, price: 10, category, image, countInStock: 3 });
  await createProduct(api, { name: `${word} Gamma`, slug: `${word}-gamma`, price: 20, category, image, countInStock: 40 });
  // The server refuses bad filters with a message, never a 500.
  const bad = await api.get('/api/products/admin?stock=plenty');
  expect(bad.status()).toBe(400);
  expect(((await bad.json()) as { message: string }).message).toBe('Stock must be one of: all, out, low');
  await api.dispose();

  await signIn(page, DEMO_ADMIN.email, DEMO_ADMIN.password, '/admin/products');
  const rows = page.getByRole('table').getByRole('row').filter({ hasText: word });
  const names = async () => (await rows.locator('td:nth-child(3)').allTextContents()).map((t) => t.trim());

  await page.getByRole('searchbox', { name: 'Search products by name' }).fill(word.toUpperCase());
  await page.getByRole('main').getByRole('button', { name: 'Search', exact: true }).click();
  await expect(page).toHaveURL(new RegExp(`/admin/products\\?search=${word.toUpperCase()}$`));
  await expect(rows).toHaveCount(3);
  await expect(page.getByText('3 products')).toBeVisible();
  await expect(rows.first().getByTestId('product-thumbnail')).toHaveAttribute('src', image);

  await page.getByLabel('Sort by').selectOption('price');
  await expect(page).toHaveURL(/sort=price/);
  await expect.poll(names).toEqual([`${word} Beta`, `${word} Gamma`, `${word} Alpha`]);
  await page.getByLabel('Sort by').selectOption('stock');
  await expect.poll(names).toEqual([`${word} Alpha`, `${word} Beta`, `${word} Gamma`]);

  await page.getByLabel('Category').selectOption(category);
  await page.getByLabel('Stock').selectOption('out');
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toContainText(`${word} Alpha`);
  await expect(rows.first().getByTestId('product-stock')).toHaveText('0Out of stock');
  await page.getByLabel('Stock').selectOption('low');
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toContainText(`${word} Beta`);
  const listUrl = page.url();
  const axe = await new AxeBuilder({ page }).include('main').withTags(['wcag2a', 'wcag2aa']).analyze();
  expect(axe.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
  expect(listUrl).toContain(`category=${category}`);
  expect(listUrl).toContain('stock=low');

  // Edit -> Update comes back to the same filters; so does Back to products, and the browser's Back.
  await rows.first().getByRole('link', { name: `Edit ${word} Beta` }).click();
  await expect(page.getByRole('heading', { level: 1, name: /^Edit Product / })).toBeVisible();
  await page.getByLabel('Count In Stock', { exact: true }).fill('4');
  await page.getByRole('button', { name: 'Update' }).click();
  await expect(page.getByText('Product updated successfully')).toBeVisible();
  await expect(page).toHaveURL(listUrl);
  await expect(page.getByLabel('Stock')).toHaveValue('low');
  await expect(rows.first().getByTestId('product-stock')).toHaveText('4Low stock');
  await rows.first().getByRole('link', { name: `Edit ${word} Beta` }).click();
  await page.getByRole('link', { name: /Back to products/ }).click();
  await expect(page).toHaveURL(listUrl);
  await rows.first().getByRole('link', { name: `Edit ${word} Beta` }).click();
  await expect(page.getByLabel('Name', { exact: true })).toHaveValue(`${word} Beta`);
  await page.goBack();
  await expect(page).toHaveURL(listUrl);
  await expect(rows).toHaveCount(1);

  // A page past the last: a notice and a link to the last page, not a blank list.
  await page.goto(`/admin/products?search=${word}&page=7`);
  await expect(page.getByText('Page 7 does not exist: there is only 1 page.')).toBeVisible();
  await page.getByRole('link', { name: 'Go to page 1' }).click();
  await expect(page).toHaveURL(new RegExp(`/admin/products\\?search=${word}$`));
  await expect(rows).toHaveCount(3);
  await page.getByRole('button', { name: 'Clear filters' }).click();
  await expect(page).toHaveURL(/\/admin\/products$/);
});
