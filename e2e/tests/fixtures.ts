import { test as base, expect, type Page } from '@playwright/test';

export const DEMO_ADMIN = { email: 'admin@example.com', password: 'admin1234', name: 'Admin' };
export const DEMO_CUSTOMER = { email: 'jane@example.com', password: 'jane1234', name: 'Jane Customer' };

let counter = 0;
/** A unique e-mail per call, so tests never collide on the shared server. */
export function uniqueEmail(prefix = 'shopper'): string {
  counter += 1;
  return `${prefix}-${Date.now().toString(36)}-${counter}@example.com`;
}

/** Signs in through the UI form. */
export async function signIn(page: Page, email: string, password: string, redirect?: string) {
  await page.goto(redirect ? `/signin?redirect=${encodeURIComponent(redirect)}` : '/signin');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Sign In' }).click();
}

/** Creates an account through the API (fast set-up for tests that are not about sign-up). */
export async function signUpViaApi(page: Page, opts: { name?: string; email?: string; password?: string } = {}) {
  const body = { name: opts.name ?? 'Test Shopper', email: opts.email ?? uniqueEmail(), password: opts.password ?? 'password123' };
  const res = await page.request.post('/api/users/signup', { data: body });
  expect(res.status()).toBe(201);
  return body;
}

export const test = base.extend({
  page: async ({ page }, use) => {
    // Dismiss the cookie notice up front unless a test is about it.
    await page.addInitScript(() => {
      if (!sessionStorage.getItem('keep-cookie-notice')) localStorage.setItem('cookieConsent', 'true');
    });
    await use(page);
  },
});
export { expect };
