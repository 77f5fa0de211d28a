import { test as base, expect, type Page } from '@playwright/test';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';

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

/** The server log of this run (see scripts/serve.mjs). */
export const serverLogPath = path.resolve(import.meta.dirname, '..', '.tmp', `run-${process.env.E2E_PORT ?? '3100'}`, 'server.log');

interface LoggedMail {
  to: string;
  subject: string;
  text: string;
}

/** The mails the server logged to `to` (no SMTP_URL: 'mail written to outbox'), oldest first. */
export function readLoggedMails(to: string): LoggedMail[] {
  if (!existsSync(serverLogPath)) return [];
  const mails: LoggedMail[] = [];
  for (const line of readFileSync(serverLogPath, 'utf8').split('\n')) {
    if (!line.includes('"mail"')) continue;
    try {
      const entry = JSON.parse(line) as { mail?: LoggedMail };
      if (entry.mail && entry.mail.to.toLowerCase() === to.toLowerCase()) mails.push(entry.mail);
    } catch {
      /* not a JSON line */
    }
  }
  return mails;
}

/** Waits for the password-reset mail to `email` (the n-th one, default the first) and returns its token. */
export async function readResetToken(email: string, nth = 1): Promise<string> {
  let token: string | undefined;
  await expect
    .poll(
      () => {
        const mail = readLoggedMails(email).filter((m) => m.text.includes('reset-password?token='))[nth - 1];
        token = mail?.text.match(/reset-password\?token=([^\s&"'<>]+)/)?.[1];
        return token;
      },
      { message: `reset mail to ${email} in ${serverLogPath}`, timeout: 10_000 },
    )
    .toBeTruthy();
  return decodeURIComponent(token!);
}

/** Signs out through the header's user menu. */
export async function signOutViaMenu(page: Page, name: string) {
  await page.getByRole('button', { name: `Hello, ${name}` }).click();
  await page.getByRole('link', { name: 'Sign Out' }).click();
  await expect(page).toHaveURL(/\/signin$/);
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
