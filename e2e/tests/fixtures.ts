import { test as base, expect, type APIRequestContext, type Page } from '@playwright/test';
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

/**
 * Creates an account through the API as a browser would: POST users/signup, the confirmation link
 * from the mail, POST users/confirm-signup. `request` ends up signed in as the new account.
 */
export async function createAccountViaApi(request: APIRequestContext, opts: { name?: string; email?: string; password?: string } = {}) {
  const body = { name: opts.name ?? 'Test Shopper', email: opts.email ?? uniqueEmail(), password: opts.password ?? 'password123' };
  const res = await request.post('/api/users/signup', { data: body });
  expect(res.status()).toBe(202);
  const token = await readMailToken(body.email, 'confirm-signup');
  const confirmed = await request.post('/api/users/confirm-signup', { data: { token } });
  expect(confirmed.status()).toBe(201);
  return body;
}

/** Creates an account through the API (fast set-up for tests that are not about sign-up); the page's context is signed in. */
export async function signUpViaApi(page: Page, opts: { name?: string; email?: string; password?: string } = {}) {
  return createAccountViaApi(page.request, opts);
}

/** The server log of this run (see scripts/serve.mjs). */
export const serverLogPath = path.resolve(import.meta.dirname, '..', '.tmp', `run-${process.env.E2E_PORT}`, 'server.log');

interface LoggedMail {
  to: string;
  subject: string;
  text: string;
}

/**
 * The mails the server printed for `to`, oldest first: without SMTP_URL, outside production, at
 * LOG_LEVEL=debug (scripts/serve.mjs) it logs each one as a development aid under `devMail`.
 */
export function readLoggedMails(to: string): LoggedMail[] {
  if (!existsSync(serverLogPath)) return [];
  const mails: LoggedMail[] = [];
  for (const line of readFileSync(serverLogPath, 'utf8').split('\n')) {
    if (!line.includes('"devMail"')) continue;
    try {
      const entry = JSON.parse(line) as { devMail?: LoggedMail };
      if (entry.devMail && entry.devMail.to.toLowerCase() === to.toLowerCase()) mails.push(entry.devMail);
    } catch {
      /* not a JSON line */
    }
  }
  return mails;
}

/** Waits for the n-th mail to `email` whose text links to `/<page>?token=` and returns that link's path and query. */
export async function readMailLink(email: string, page: 'reset-password' | 'confirm-signup', nth = 1): Promise<string> {
  let link: string | undefined;
  await expect
    .poll(
      () => {
        const mail = readLoggedMails(email).filter((m) => m.text.includes(`/${page}?token=`))[nth - 1];
        link = mail?.text.match(new RegExp(`(/${page}\\?token=[^\\s"'<>]+)`))?.[1];
        return link;
      },
      { message: `${page} mail to ${email} in ${serverLogPath}`, timeout: 10_000 },
    )
    .toBeTruthy();
  return link!;
}

/** The token of the n-th `/<page>?token=` mail to `email`. */
export async function readMailToken(email: string, page: 'reset-password' | 'confirm-signup', nth = 1): Promise<string> {
  const link = await readMailLink(email, page, nth);
  return new URL(link, 'http://x').searchParams.get('token') ?? '';
}

/** Waits for the password-reset mail to `email` (the n-th one, default the first) and returns its token. */
export const readResetToken = (email: string, nth = 1) => readMailToken(email, 'reset-password', nth);

/** Signs out through the header's user menu. */
export async function signOutViaMenu(page: Page, name: string) {
  await page.getByRole('button', { name: `Hello, ${name}` }).click();
  await page.getByRole('link', { name: 'Sign Out' }).click();
  await expect(page).toHaveURL(/\/signin$/);
}

/**
 * After a navigation to one of the app's pages, waits until the app is live (`<html data-app-ready>`,
 * set by web/src/main.tsx once hydrated): a server-rendered page is visible before its JavaScript runs,
 * and a click that lands before hydration does nothing. Other answers (JSON, files) are not waited on;
 * a page whose app never starts (a test blocking its scripts) is left to the test's own assertions.
 */
async function untilAppReady(page: Page, response: Awaited<ReturnType<Page['goto']>>) {
  if (!response || !(response.headers()['content-type'] ?? '').includes('text/html')) return;
  await page.waitForFunction(() => document.documentElement.hasAttribute('data-app-ready'), undefined, { timeout: 15_000 }).catch(() => undefined);
}

/** Makes the page's goto and reload wait until the app is live (see untilAppReady). */
function waitingForTheApp(page: Page): Page {
  const goto = page.goto.bind(page);
  page.goto = async (url, options) => {
    const response = await goto(url, options);
    await untilAppReady(page, response);
    return response;
  };
  const reload = page.reload.bind(page);
  page.reload = async (options) => {
    const response = await reload(options);
    await untilAppReady(page, response);
    return response;
  };
  return page;
}

export const test = base.extend<object, object>({
  // Pages of contexts a test opens itself (another role, another viewport) wait for the app too,
  // unless the context runs no JavaScript.
  browser: [async ({ browser }, use) => {
    const newContext = browser.newContext.bind(browser);
    browser.newContext = async (options) => {
      const context = await newContext(options);
      if (options?.javaScriptEnabled === false) return context;
      const newPage = context.newPage.bind(context);
      context.newPage = async () => waitingForTheApp(await newPage());
      return context;
    };
    await use(browser);
  }, { scope: 'worker' }],
  page: async ({ page }, use) => {
    // Dismiss the cookie notice up front unless a test is about it.
    await page.addInitScript(() => {
      if (!sessionStorage.getItem('keep-cookie-notice')) localStorage.setItem('cookieConsent', 'true');
    });
    await use(waitingForTheApp(page));
  },
});
export { expect };

/**
 * Screenshots of the current page at a phone (390 px) and a desktop (1280 px) width, attached to the
 * test's report and kept under e2e/test-results/port-<port>/<test>/ for a person to look at.
 */
export async function screenshotWidths(page: Page, name: string) {
  for (const [width, height] of [[390, 844], [1280, 800]] as const) {
    await page.setViewportSize({ width, height });
    // Let the layout settle at the new width (menus collapse at 991 px).
    await page.waitForTimeout(150);
    const info = base.info();
    const path = info.outputPath(`${name}-${width}px.png`);
    await page.screenshot({ path, fullPage: true });
    await info.attach(`${name}-${width}px.png`, { path, contentType: 'image/png' });
  }
}
