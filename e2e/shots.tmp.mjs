import { chromium } from '@playwright/test';
const base = 'http://localhost:3160';
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox'] });
async function shoot(ctxOpts, pages, login) {
  const ctx = await browser.newContext(ctxOpts);
  const page = await ctx.newPage();
  if (login) {
    await page.goto(base + '/signin');
    await page.getByLabel('Email').fill(login[0]);
    await page.getByLabel('Password', { exact: true }).fill(login[1]);
    await page.getByRole('button', { name: 'Sign In' }).click();
    await page.waitForURL(/\/$|admin/);
  }
  for (const [name, url] of pages) {
    await page.goto(base + url);
    await page.waitForTimeout(1500);
    await page.screenshot({ path: `/tmp/shots/${name}-${ctxOpts.viewport.width}-${ctxOpts.colorScheme}.png`, fullPage: false });
  }
  await ctx.close();
}
const admin = [['dash', '/admin/dashboard'], ['leads', '/admin/leads'], ['users', '/admin/users'], ['chats', '/admin/chats'], ['cj', '/admin/cj-products']];
await shoot({ viewport: { width: 390, height: 844 }, colorScheme: 'dark' }, admin, ['admin@example.com', 'admin1234']);
await shoot({ viewport: { width: 1280, height: 800 }, colorScheme: 'light' }, admin, ['admin@example.com', 'admin1234']);
await shoot({ viewport: { width: 390, height: 844 }, colorScheme: 'light' }, [['home', '/'], ['search', '/search?query=shirt']], null);
await browser.close();
