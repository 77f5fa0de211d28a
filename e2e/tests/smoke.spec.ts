import { expect, test } from './fixtures';

test('the storefront loads and the API is healthy', async ({ page, request }) => {
  const health = await request.get('/api/health');
  expect(health.status()).toBe(200);
  await page.goto('/');
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
});
