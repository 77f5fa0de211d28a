// Checks that purging unused Bootstrap rules from the web build (web/src/lib/css-purge.ts) lost no
// styling: two running shops, one serving a build without the purge (WEB_PURGE_CSS=0) and one with
// it, the same pages in the same states (home, search, product, supplier product, cart with a line,
// sign-in, the categories drawer, the user menu, a confirmation dialog, admin products and dashboard)
// at 390 and 1280 px in the light and dark themes. For each: a screenshot from both shops, compared
// pixel by pixel, and every class name in the page's DOM that the unpurged stylesheet styles but the
// purged one no longer does. Prints what differs; the exit code is 1 when anything does.
//
//   WEB_OUT_DIR=/tmp/before/web WEB_PURGE_CSS=0 npm run build -w web     # the unpurged build
//   PORT=3392 WEB_DIST_DIR=/tmp/before/web DATA_DIR=/tmp/data-a npm start
//   npm run build -w web && PORT=3393 DATA_DIR=/tmp/data-b npm start       # the purged build
//   node --import tsx bench/css/purge-check.ts http://localhost:3392 http://localhost:3393 [out-dir]
//
// Both shops need the same demo data (fresh DATA_DIRs: the seed is the same). Screenshots go to
// out-dir (default /tmp/purge-check), as <page>-<width>-<theme>-{before,after}.png.
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { chromium, type Browser, type Page } from '@playwright/test';
import sharp from 'sharp';

const [beforeBase, afterBase] = [process.argv[2], process.argv[3]].map((u) => u?.replace(/\/$/, ''));
if (!beforeBase || !afterBase) {
  console.error('usage: purge-check.ts <unpurged-shop-url> <purged-shop-url> [out-dir]');
  process.exit(2);
}
const outDir = process.argv[4] ?? '/tmp/purge-check';
mkdirSync(outDir, { recursive: true });

interface Shot {
  name: string;
  path: string;
  /** Sign in as this demo account first. */
  as?: { email: string; password: string };
  /** Put the page in the state to check (open a menu...). */
  act?: (page: Page, width: number) => Promise<void>;
}

const ADMIN = { email: 'admin@example.com', password: 'admin1234' };
const CUSTOMER = { email: 'jane@example.com', password: 'jane1234' };

async function shots(base: string): Promise<Shot[]> {
  const search = (await (await fetch(`${base}/api/products/search?page=1`)).json()) as { products: { slug: string; cjData?: unknown }[] };
  const own = search.products.find((p) => !p.cjData)!;
  const supplier = search.products.find((p) => p.cjData);
  return [
    { name: 'home', path: '/' },
    { name: 'drawer', path: '/', act: async (page) => page.getByRole('button', { name: 'All Categories' }).click() },
    { name: 'search', path: '/search?query=a' },
    { name: 'product', path: `/product/${own.slug}` },
    ...(supplier ? [{ name: 'cj-product', path: `/cj-product/${supplier.slug}` }] : []),
    {
      name: 'cart', path: `/product/${own.slug}`,
      act: async (page) => {
        await page.getByRole('button', { name: 'Add to Cart' }).click();
        await page.goto(new URL('/cart', page.url()).href);
        await page.waitForLoadState('networkidle');
      },
    },
    { name: 'signin', path: '/signin' },
    { name: 'signin-errors', path: '/signin', act: async (page) => page.getByRole('button', { name: 'Sign In' }).click() },
    {
      name: 'user-menu', path: '/', as: CUSTOMER,
      act: async (page, width) => {
        if (width < 992) await page.getByRole('button', { name: 'Toggle navigation' }).click();
        await page.getByRole('button', { name: /Hello, / }).click();
      },
    },
    { name: 'shipping', path: '/shipping', as: CUSTOMER },
    { name: 'admin-products', path: '/admin/products', as: ADMIN },
    {
      name: 'admin-delete-dialog', path: '/admin/products', as: ADMIN,
      act: async (page) => page.getByRole('button', { name: /^Delete/ }).first().click(),
    },
    { name: 'admin-dashboard', path: '/admin/dashboard', as: ADMIN },
  ];
}

/** The class selectors a stylesheet has (`.name` followed by anything but a name character). */
async function styledClasses(base: string, page: Page): Promise<Set<string>> {
  const hrefs = await page.$$eval('link[rel="stylesheet"]', (links) => links.map((l) => (l as HTMLLinkElement).href));
  const names = new Set<string>();
  for (const href of hrefs) {
    const css = await (await fetch(new URL(new URL(href).pathname, base))).text();
    for (const m of css.matchAll(/\.(-?[_a-zA-Z][\w-]*)/g)) names.add(m[1]!);
  }
  return names;
}

async function capture(browser: Browser, base: string, shot: Shot, width: number, theme: 'light' | 'dark', file: string) {
  const context = await browser.newContext({ viewport: { width, height: 900 }, colorScheme: theme, reducedMotion: 'reduce' });
  await context.addCookies([{ name: 'mode', value: theme, url: base }]);
  await context.addInitScript((mode) => {
    localStorage.setItem('mode', JSON.stringify(mode));
    localStorage.setItem('cookieConsent', 'true');
  }, theme);
  const page = await context.newPage();
  if (shot.as) {
    const res = await page.request.post(`${base}/api/users/signin`, { data: shot.as });
    if (!res.ok()) throw new Error(`sign-in as ${shot.as.email}: ${res.status()}`);
    await page.addInitScript((user) => localStorage.setItem('userInfo', JSON.stringify(user)), await res.json());
  }
  await page.goto(base + shot.path);
  await page.waitForLoadState('networkidle');
  await page.waitForFunction(() => document.documentElement.hasAttribute('data-app-ready'), undefined, { timeout: 15_000 }).catch(() => undefined);
  if (shot.act) await shot.act(page, width);
  await page.waitForTimeout(400); // transitions (reduced motion) and late images
  // Caret and the clock-driven parts are the same in both; screenshots of the viewport, not the whole page.
  await page.screenshot({ path: file, animations: 'disabled', caret: 'hide' });
  const used = await page.$$eval('*', (els) => [...new Set(els.flatMap((el) => [...el.classList]))]);
  const styled = await styledClasses(base, page);
  await context.close();
  return { used, styled };
}

async function pixelsDiffer(a: string, b: string): Promise<number> {
  const [x, y] = await Promise.all([a, b].map((f) => sharp(f).raw().toBuffer({ resolveWithObject: true })));
  if (x!.info.width !== y!.info.width || x!.info.height !== y!.info.height) return Infinity;
  let differing = 0;
  for (let i = 0; i < x!.data.length; i += x!.info.channels) {
    if (x!.data[i] !== y!.data[i] || x!.data[i + 1] !== y!.data[i + 1] || x!.data[i + 2] !== y!.data[i + 2]) differing++;
  }
  return differing;
}

const browser = await chromium.launch({ executablePath: process.env.CHROME_PATH ?? '/usr/bin/chromium' });
let problems = 0;
try {
  for (const shot of await shots(afterBase)) {
    for (const width of [390, 1280]) {
      for (const theme of ['light', 'dark'] as const) {
        const label = `${shot.name}-${width}-${theme}`;
        const beforeFile = path.join(outDir, `${label}-before.png`);
        const afterFile = path.join(outDir, `${label}-after.png`);
        const before = await capture(browser, beforeBase, shot, width, theme, beforeFile);
        const after = await capture(browser, afterBase, shot, width, theme, afterFile);
        const lost = after.used.filter((c) => before.styled.has(c) && !after.styled.has(c));
        const differing = await pixelsDiffer(beforeFile, afterFile);
        const ok = lost.length === 0 && differing === 0;
        if (!ok) problems++;
        console.info(`${ok ? 'same' : 'DIFF'}  ${label.padEnd(36)} pixels differing: ${differing}${lost.length ? `  classes no longer styled: ${lost.join(' ')}` : ''}`);
      }
    }
  }
} finally {
  await browser.close();
}
console.info(problems ? `${problems} page state(s) differ` : 'every page state is the same with the purged stylesheet');
process.exit(problems ? 1 : 0);
