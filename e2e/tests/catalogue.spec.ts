import AxeBuilder from '@axe-core/playwright';
import { request, type APIRequestContext, type Page } from '@playwright/test';
import { adminApi, createProduct, uniqueWord, uploadPng } from './catalogue-data';
import { createAccountViaApi, expect, signIn, signUpViaApi, test, uniqueEmail } from './fixtures';

/**
 * Storefront catalogue in a real browser: search with filters and sort, the product gallery and
 * writing a review. The products are made through the admin API with a word no other product has.
 */

const word = uniqueWord();
const lamps = `Lamps ${word}`;
const mugs = `Mugs ${word}`;
const bulk = `Bulk ${word}`;
const slugOf = (name: string) => name.toLowerCase().replace(/[^a-z0-9]+/g, '-');
const product = {
  alpha: { name: `${word} Alpha Lamp`, price: 30, category: lamps },
  bravo: { name: `${word} Bravo Lamp`, price: 120, category: lamps },
  charlie: { name: `${word} Charlie Lamp`, price: 90, category: lamps, isOnSale: true, saleDiscount: 50 }, // pays 45
  delta: { name: `${word} Delta Lamp`, price: 250, category: lamps },
  echo: { name: `${word} Echo Mug`, price: 15, category: mugs },
};
const BULK = 8; // 5 + 8 = 13 results: two pages of 12
let images: string[] = [];
let api: APIRequestContext;

test.beforeAll(async () => {
  api = await adminApi();
  images = [await uploadPng(api, [200, 30, 30]), await uploadPng(api, [30, 160, 60]), await uploadPng(api, [30, 60, 200])];
  for (const p of Object.values(product)) {
    await createProduct(api, { ...p, slug: slugOf(p.name), image: images[0]!, images: p === product.alpha ? [images[1]!, images[2]!] : [] });
  }
  for (let i = 1; i <= BULK; i++) {
    await createProduct(api, { name: `${word} Bulk Item ${i}`, slug: `${word}-bulk-${i}`, price: 5, category: bulk, image: images[0]! });
  }
  // Bravo gets a 5-star review so the Customer Rating filter has something to find.
  const reviewer = await request.newContext({ baseURL: `http://localhost:${process.env.E2E_PORT}` });
  const email = uniqueEmail('rater');
  await createAccountViaApi(reviewer, { name: 'Rater', email, password: 'password123' });
  const bravo = (await (await reviewer.get(`/api/products/slug/${slugOf(product.bravo.name)}`)).json()) as { _id: string };
  const review = await reviewer.post(`/api/products/${bravo._id}/reviews`, { data: { rating: 5, comment: 'Bright and warm.' } });
  expect(review.status()).toBe(201);
  await reviewer.dispose();
});

test.afterAll(async () => {
  await api.dispose();
});

const summary = (page: Page) => page.getByTestId('results-summary');
const cardNames = (page: Page) => page.locator('.product-card .card-title').allInnerTexts();

test('search: department, price range, sort, customer rating, clear, and page links through the UI', async ({ page }) => {
  await page.goto(`/search?query=${word}`);
  await expect(page.getByRole('heading', { level: 1, name: 'Search Products' })).toBeVisible();
  await expect(summary(page)).toHaveText(`13 Results : ${word}`);

  await page.getByRole('region', { name: 'Department' }).getByRole('link', { name: lamps }).click();
  await expect(page).toHaveURL(new RegExp(`category=${encodeURIComponent(lamps).replace(/%20/g, '(\\+|%20)')}`));
  await expect(summary(page)).toHaveText(`4 Results : ${word} : ${lamps}`);

  // 1-50 is the price the shopper pays: Charlie (90, 50 % off) is in, at 45.
  await page.getByRole('link', { name: '$1 to $50' }).click();
  await expect(summary(page)).toHaveText(`2 Results : ${word} : ${lamps} : Price 1-50`);

  await page.getByLabel('Sort by').selectOption({ label: 'Price: High to Low' });
  await expect(page).toHaveURL(/order=highest/);
  await expect.poll(() => cardNames(page)).toEqual([product.charlie.name, product.alpha.name]);
  await page.getByLabel('Sort by').selectOption({ label: 'Price: Low to High' });
  await expect(page).toHaveURL(/order=lowest/);
  await expect.poll(() => cardNames(page)).toEqual([product.alpha.name, product.charlie.name]);

  await page.getByRole('region', { name: 'Price Range' }).getByRole('link', { name: 'Any' }).click();
  await expect(summary(page)).toHaveText(`4 Results : ${word} : ${lamps}`);
  await page.getByRole('link', { name: '4 stars & up' }).click();
  await expect(summary(page)).toHaveText(`1 Results : ${word} : ${lamps} : Rating 4 & up`);
  await expect.poll(() => cardNames(page)).toEqual([product.bravo.name]);

  await page.getByRole('button', { name: 'Clear filters' }).click();
  await expect(page).toHaveURL(/\/search$/);
  await expect(summary(page)).toHaveText(/^\d+ Results$/);

  await page.goto(`/search?query=${word}&order=lowest`);
  await expect(summary(page)).toHaveText(`13 Results : ${word}`);
  await expect(page.locator('.product-card')).toHaveCount(12);
  await page.getByRole('link', { name: 'Page 2' }).click();
  await expect(page).toHaveURL(/page=2/);
  await expect(page.getByRole('link', { name: 'Page 2' })).toHaveAttribute('aria-current', 'page');
  await expect(page.locator('.product-card')).toHaveCount(1);
  await expect.poll(() => cardNames(page)).toEqual([product.delta.name]);
});

test("search: 'No Results' and 'No Product Found', and the tag title", async ({ page }) => {
  await page.goto(`/search?query=${word}&category=${encodeURIComponent(mugs)}&price=201-1000`);
  await expect(summary(page)).toHaveText(`No Results : ${word} : ${mugs} : Price 201-1000`);
  await expect(page.getByText('No Product Found')).toBeVisible();
  await page.goto('/search?tag=on-sale');
  await expect(page.getByRole('heading', { level: 1, name: 'On Sale Products' })).toBeVisible();
  await expect(page).toHaveTitle('On Sale Products');
});

test('search: the filter panel is toggled below 992 px and always shown from 992 px', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto(`/search?query=${word}`);
  await expect(summary(page)).toBeVisible();
  const department = page.getByRole('heading', { name: 'Department' });
  await expect(department).toBeHidden();
  await page.getByRole('button', { name: 'Show Filters' }).click();
  await expect(department).toBeVisible();
  await page.getByRole('button', { name: 'Hide Filters' }).click();
  await expect(department).toBeHidden();
  await page.setViewportSize({ width: 1000, height: 800 });
  await expect(department).toBeVisible();
  await expect(page.getByRole('button', { name: 'Show Filters' })).toBeHidden();
});

test('product page: the gallery shows the main image and a thumbnail click selects another', async ({ page }) => {
  await page.goto(`/product/${slugOf(product.alpha.name)}`);
  await expect(page.getByRole('heading', { level: 1, name: product.alpha.name })).toBeVisible();
  const main = page.getByTestId('gallery-main');
  await expect(main).toHaveAttribute('src', images[0]!);
  await expect(main).toHaveJSProperty('complete', true);
  expect(await main.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBeGreaterThan(0);
  await page.getByRole('button', { name: 'Show image 2 of 3' }).click();
  await expect(main).toHaveAttribute('src', images[1]!);
  await expect(page.getByRole('button', { name: 'Show image 2 of 3' })).toHaveAttribute('aria-pressed', 'true');
  await page.getByRole('button', { name: 'Show image 3 of 3' }).click();
  await expect(main).toHaveAttribute('src', images[2]!);
});

test("product page: sale price with '(N% OFF)', stock badge and 'Product Not Found'", async ({ page }) => {
  await page.goto(`/product/${slugOf(product.charlie.name)}`);
  await expect(page.getByText('(50% OFF)')).toBeVisible();
  await expect(page.getByText('In Stock')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Add to Cart' })).toBeVisible();
  await page.goto(`/product/${word}-no-such-product`);
  await expect(page.getByRole('alert')).toHaveText('Product Not Found');
});

test("writing a review: sign in from the product page, submit, see it first; then 'You reviewed this product' and a second one is refused", async ({ page }) => {
  const user = await signUpViaApi(page, { name: `Reviewer ${word}` });
  // The account exists; the browser starts signed out and signs in through the form.
  await page.context().clearCookies();
  const slug = slugOf(product.echo.name);
  await page.goto(`/product/${slug}`);
  const reviews = page.getByRole('region', { name: 'Reviews' });
  await expect(reviews.getByText('There is no review')).toBeVisible();
  await expect(reviews.getByRole('link', { name: 'Sign In' })).toHaveAttribute('href', `/signin?redirect=${encodeURIComponent(`/product/${slug}`)}`);
  await reviews.getByRole('link', { name: 'Sign In' }).click();
  await expect(page).toHaveURL(/\/signin\?redirect=/);

  await signIn(page, user.email, user.password, `/product/${slug}`);
  await expect(page).toHaveURL(new RegExp(`/product/${slug}$`));
  await page.getByRole('button', { name: 'Submit' }).click();
  await expect(page.getByRole('alert')).toHaveText('Please enter comment and rating');

  await page.getByLabel('Rating').selectOption({ label: '4 Very good' });
  await page.getByLabel('Comments').fill('Holds a lot of tea.');
  await page.getByRole('button', { name: 'Submit' }).click();
  await expect(page.getByText('Review submitted successfully')).toBeVisible();
  const first = reviews.getByRole('listitem').first();
  await expect(first).toContainText(user.name);
  await expect(first).toContainText('Holds a lot of tea.');
  await expect(first.getByRole('img', { name: 'Rated 4 out of 5' })).toBeVisible();
  await expect(page.getByText('1 review', { exact: true })).toBeVisible();
  // One review per user: the form gives way to a note, also after a reload.
  await expect(reviews.getByText('You reviewed this product')).toBeVisible();
  await expect(page.getByLabel('Comments')).toHaveCount(0);

  await page.reload();
  await expect(reviews.getByRole('listitem').first()).toContainText('Holds a lot of tea.');
  await expect(reviews.getByText('You reviewed this product')).toBeVisible();
  await expect(page.getByLabel('Comments')).toHaveCount(0);
  // The server still refuses a second review sent directly.
  const productId = await page.evaluate(async (s) => (await (await fetch(`/api/products/slug/${s}`)).json())._id as string, slug);
  const again = await page.request.post(`/api/products/${productId}/reviews`, { data: { rating: 2, comment: 'Again' } });
  expect(again.status()).toBe(400);
  expect((await again.json()).message).toBe('You have already submitted a review for this product');
});

test('home: the title and product cards; the first rows load eagerly, the rest lazily', async ({ page }) => {
  await page.goto('/');
  await expect(page.getByRole('heading', { level: 1, name: 'Smart Finds. Joyfully Delivered' })).toBeVisible();
  const cards = page.locator('.product-card');
  await expect(cards.first()).toBeVisible();
  expect(await cards.count()).toBeGreaterThan(4);
  await expect(cards.nth(0).locator('img')).toHaveAttribute('loading', 'eager');
  await expect(cards.nth(0).locator('img')).toHaveAttribute('fetchpriority', 'high');
  await expect(cards.nth(3).locator('img')).toHaveAttribute('loading', 'eager');
  await expect(cards.nth(4).locator('img')).toHaveAttribute('loading', 'lazy');
  const name = await cards.nth(0).locator('.card-title').innerText();
  await cards.nth(0).getByRole('link', { name }).click();
  await expect(page).toHaveURL(/\/product\/[a-z0-9-]+$/);
  await expect(page.getByRole('heading', { level: 1, name })).toBeVisible();
});

test('the catalogue pages have no WCAG A/AA violations in their main content', async ({ page }) => {
  for (const path of ['/', `/product/${slugOf(product.charlie.name)}`, `/search?query=${word}`]) {
    await page.goto(path);
    await expect(page.locator('main h1')).toBeVisible();
    await expect(page.locator('main [role="status"] .spinner-border')).toHaveCount(0);
    const results = await new AxeBuilder({ page }).include('main').withTags(['wcag2a', 'wcag2aa']).analyze();
    expect(results.violations.map((v) => `${path} ${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
  }
});
