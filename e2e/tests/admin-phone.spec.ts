import AxeBuilder from '@axe-core/playwright';
import type { APIRequestContext, Page } from '@playwright/test';
import { DEMO_ADMIN, expect, test } from './fixtures';

/*
 * The back office on a phone (390 px), in its own frame (backoffice-layout.spec.ts checks the frame
 * itself): every admin page loads its content, the document never
 * scrolls sideways, every table cell fits on the screen (the tables turn into cards below 768 px),
 * and axe finds nothing serious or critical, in the light and the dark theme.
 */

const TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'];
const PHONE = { width: 390, height: 844 };

async function json<T>(api: APIRequestContext, url: string): Promise<T> {
  const res = await api.get(url);
  expect(res.status(), url).toBe(200);
  return (await res.json()) as T;
}

/** What overflows the 390 px screen: the document's own width, and any visible element past the right edge. */
async function overflow(page: Page) {
  return page.evaluate(() => {
    const width = document.documentElement.clientWidth;
    const offenders: string[] = [];
    for (const el of Array.from(document.querySelectorAll('main td, main th, main .card, main input, main button, main a'))) {
      const box = el.getBoundingClientRect();
      if (box.width === 0 || box.height === 0) continue;
      // Inside a box that scrolls on its own (a wide chart, a code block) is allowed.
      let scroller: Element | null = el.parentElement;
      let contained = false;
      while (scroller && scroller !== document.body) {
        const style = getComputedStyle(scroller);
        if ((style.overflowX === 'auto' || style.overflowX === 'scroll') && scroller.getBoundingClientRect().right <= width + 1) contained = true;
        scroller = scroller.parentElement;
      }
      if (!contained && box.right > width + 1) offenders.push(`${el.tagName.toLowerCase()} "${(el.textContent ?? '').trim().slice(0, 30)}" ends at ${Math.round(box.right)}`);
    }
    return { scrollWidth: document.documentElement.scrollWidth, width, offenders: offenders.slice(0, 10) };
  });
}

async function setTheme(page: Page, theme: 'light' | 'dark') {
  const current = await page.locator('html').getAttribute('data-bs-theme');
  // The back office's top bar keeps the switch in view on a phone (no collapsed menu around it).
  if (current !== theme) await page.getByRole('banner').getByRole('switch', { name: 'Dark mode' }).click();
  await expect(page.locator('html')).toHaveAttribute('data-bs-theme', theme);
}

test.describe('admin on a phone (390 px)', () => {
  test.describe.configure({ timeout: 300_000 });

  test('every admin page: content loads, no sideways scrolling, nothing cut off, axe clean in both themes', async ({ browser }) => {
    const context = await browser.newContext({ viewport: PHONE, reducedMotion: 'reduce' });
    await context.addInitScript(() => {
      localStorage.setItem('cookieConsent', 'true');
      if (!sessionStorage.getItem('phone-theme-set')) {
        localStorage.setItem('mode', '"light"');
        sessionStorage.setItem('phone-theme-set', '1');
      }
    });
    const page = await context.newPage();
    const api = page.request;
    expect((await api.post('/api/users/signin', { data: { email: DEMO_ADMIN.email, password: DEMO_ADMIN.password } })).status()).toBe(200);
    const products = await json<{ products: Array<{ _id: string }> }>(api, '/api/products/admin?page=1');
    const orders = await json<{ orders: Array<{ _id: string }> }>(api, '/api/orders?page=1');
    const users = await json<{ users: Array<{ _id: string }> }>(api, '/api/users?page=1');
    const chats = await json<{ chats: Array<{ _id: string }> }>(api, '/api/chat/all-history');

    const pages: Array<[string, string]> = [
      ['/admin/dashboard', 'Dashboard'],
      ['/admin/products', 'Products'],
      [`/admin/product/${products.products[0]!._id}`, ''],
      ['/admin/orders', 'Orders'],
      [`/admin/order/${orders.orders[0]!._id}`, ''],
      ['/admin/users', 'Users'],
      [`/admin/user/${users.users[0]!._id}`, ''],
      ['/admin/user', 'Create User'],
      ['/admin/leads', ''],
      ['/admin/chats', 'Chats'],
      [`/admin/chat/${chats.chats[0]!._id}`, ''],
      ['/admin/cj-products', ''],
      ['/admin/pages', 'Pages'],
      ['/admin/page/faq', ''],
    ];
    const problems: string[] = [];
    for (const [url, title] of pages) {
      await page.goto(url);
      await expect(page.getByRole('heading', { level: 1, ...(title ? { name: title } : {}) }).first()).toBeVisible({ timeout: 30_000 });
      await page.waitForLoadState('networkidle');
      await expect(page.locator('main .spinner-border:visible, main .placeholder-glow:visible')).toHaveCount(0, { timeout: 30_000 });
      const o = await overflow(page);
      if (o.scrollWidth > o.width) problems.push(`${url}: the page is ${o.scrollWidth} px wide at ${o.width} px`);
      for (const offender of o.offenders) problems.push(`${url}: ${offender}`);
      for (const theme of ['light', 'dark'] as const) {
        await setTheme(page, theme);
        // The theme switch changes colours only: the dark pass runs the colour rules.
        const axe = new AxeBuilder({ page });
        const results = await (theme === 'light' ? axe.withTags(TAGS) : axe.withRules(['color-contrast', 'link-in-text-block'])).analyze();
        for (const v of results.violations) {
          if (v.impact === 'serious' || v.impact === 'critical') problems.push(`${url} (${theme}): ${v.id} ${v.nodes.slice(0, 3).map((n) => n.target.join(' ')).join(', ')}`);
        }
      }
      await setTheme(page, 'light');
    }
    expect(problems).toEqual([]);
    await context.close();
  });
});
