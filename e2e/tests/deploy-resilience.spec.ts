import { expect, test } from './fixtures';

// A tab opened before a deploy (or on a network that drops) asks for a page's chunk that does not
// load: the app reloads once, and if the chunk still fails, the app shell shows a friendly message
// with a Retry button (also offline), never the router's bare error screen.
const isChunk = (url: URL) => url.pathname.startsWith('/assets/') && url.pathname.endsWith('.js');

test('a page chunk that fails to load: one reload, then the friendly message in the shell; Retry loads it once it is back', async ({ page, context }) => {
  const loaded = new Set<string>();
  page.on('request', (r) => { if (/\/assets\/.+\.js$/.test(new URL(r.url()).pathname)) loaded.add(r.url()); });
  let loads = 0;
  page.on('load', () => { loads += 1; });
  await page.goto('/');
  await expect(page.getByRole('banner')).toBeVisible();
  await page.waitForLoadState('networkidle');
  expect(loads).toBe(1);

  // The chunks this tab has not loaded yet are gone (a deploy removed them) or unreachable.
  const before = new Set(loaded);
  let blocked = 0;
  await page.route(isChunk, async (route) => {
    if (before.has(route.request().url())) return route.continue();
    blocked += 1;
    return route.abort('failed');
  });

  const reloaded = page.waitForEvent('load', { timeout: 30_000 });
  // A client-side navigation, as a click on a link does, to a page whose chunk this tab has not loaded.
  await page.evaluate(() => { window.history.pushState({}, '', '/forgot-password'); window.dispatchEvent(new PopStateEvent('popstate')); });
  await expect.poll(() => blocked, { message: 'the page chunk was requested (and blocked)' }).toBeGreaterThan(0);
  await reloaded;

  const alert = page.getByRole('alert').filter({ hasText: 'This page could not be loaded' });
  await expect(alert).toBeVisible({ timeout: 20_000 });
  await expect(alert).toContainText('The shop may have just been updated');
  await expect(page.getByText('Unexpected Application Error')).toHaveCount(0);
  await expect(page.getByRole('banner')).toBeVisible(); // the header stays
  expect(loads).toBe(2); // exactly one reload
  expect(await page.evaluate(() => sessionStorage.getItem('shop:chunk-reload-at'))).toMatch(/^\d+$/);

  // Offline: Retry fails again without reloading, and says so.
  await context.setOffline(true);
  await alert.getByRole('button', { name: 'Retry' }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'You seem to be offline' })).toBeVisible();
  expect(loads).toBe(2);

  // Back online, the chunks reachable again: Retry shows the page, still without a reload.
  await context.setOffline(false);
  await page.unroute(isChunk);
  await page.getByRole('button', { name: 'Retry' }).click();
  await expect(page.getByRole('alert')).toHaveCount(0);
  await expect(page.getByRole('heading', { name: 'Forgot Password' })).toBeVisible();
  expect(loads).toBe(2);
});
