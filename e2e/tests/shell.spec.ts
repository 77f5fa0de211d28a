import AxeBuilder from '@axe-core/playwright';
import { DEMO_CUSTOMER, expect, signIn, test } from './fixtures';

const COOKIE_TEXT = 'This website uses cookies to ensure you get the best experience on our website. Learn more';

test.describe('shell', () => {
  test('header search, tags and the categories drawer', async ({ page }) => {
    await page.goto('/');
    await page.getByRole('searchbox', { name: 'Search products' }).fill('lamp');
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    await expect(page).toHaveURL(/\/search\?query=lamp$/);
    await page.getByRole('searchbox', { name: 'Search products' }).fill('');
    await page.getByRole('searchbox', { name: 'Search products' }).press('Enter');
    await expect(page).toHaveURL(/\/search$/);

    for (const [name, tag] of [['Todays Deal', 'todays-deal'], ['Gifts', 'gifts'], ['On Sale', 'on-sale']] as const) {
      await page.getByRole('link', { name, exact: true }).click();
      await expect(page).toHaveURL(new RegExp(`/search\\?tag=${tag}$`));
    }

    await page.getByRole('button', { name: 'All Categories' }).click();
    const drawer = page.getByRole('dialog', { name: 'Categories' });
    await expect(drawer).toBeVisible();
    // Whatever the catalogue holds, the drawer settles on links, an empty note or an error, never a spinner.
    await expect(drawer.getByRole('status')).toHaveCount(0);
    const links = drawer.getByRole('link');
    if ((await links.count()) > 0) {
      const first = links.first();
      const name = (await first.textContent())!.trim();
      await first.click();
      await expect(page).toHaveURL(new RegExp(`/search\\?category=${encodeURIComponent(name).replace(/%20/g, '(%20|\\+)')}$`));
      await expect(drawer).toBeHidden();
    } else {
      await page.keyboard.press('Escape');
      await expect(drawer).toBeHidden();
    }
  });

  test('the cart badge shows the sum of quantities', async ({ page }) => {
    await page.goto('/');
    await page.evaluate(() => {
      const item = (id: string, quantity: number) => ({ _id: id, name: id, slug: id, image: '', price: 1, countInStock: 9, quantity, isOnSale: false, saleDiscount: 0, isTodaysDeal: false, isGift: false });
      localStorage.setItem('cartItems', JSON.stringify([item('aaaaaaaaaaaaaaaaaaaaaaaa', 2), item('bbbbbbbbbbbbbbbbbbbbbbbb', 3)]));
    });
    await page.reload();
    await expect(page.getByTestId('cart-badge')).toHaveText('5');
  });

  test('the display mode is remembered across reloads', async ({ page }) => {
    await page.goto('/');
    const html = page.locator('html');
    await expect(html).toHaveAttribute('data-bs-theme', 'light');
    const toggle = page.getByRole('switch', { name: 'Dark mode' });
    await toggle.check();
    await expect(html).toHaveAttribute('data-bs-theme', 'dark');
    await page.reload();
    await expect(html).toHaveAttribute('data-bs-theme', 'dark');
    await expect(page.getByRole('switch', { name: 'Dark mode' })).toBeChecked();
    await page.getByRole('switch', { name: 'Dark mode' }).uncheck();
    await page.reload();
    await expect(html).toHaveAttribute('data-bs-theme', 'light');
  });

  test('the cookie notice appears after 1 s and "Got it" is remembered', async ({ page }) => {
    await page.goto('/');
    await page.evaluate(() => {
      sessionStorage.setItem('keep-cookie-notice', '1');
      localStorage.removeItem('cookieConsent');
    });
    await page.reload();
    const notice = page.getByRole('region', { name: 'Cookie notice' });
    await expect(notice).toBeVisible({ timeout: 3000 });
    // The visible sentence is the spec's; the link also carries visually hidden words for screen readers.
    await expect(notice.locator('p')).toContainText(COOKIE_TEXT);
    await expect(notice.getByRole('link', { name: 'Learn more about how we use cookies' })).toHaveAttribute('href', '/privacy');
    expect(await notice.locator('p').evaluate((p) => {
      const clone = p.cloneNode(true) as HTMLElement;
      clone.querySelectorAll('.visually-hidden').forEach((el) => el.remove());
      return clone.textContent?.replace(/\s+/g, ' ').trim();
    })).toBe(COOKIE_TEXT);
    await notice.getByRole('button', { name: 'Got it' }).click();
    await expect(notice).toBeHidden();
    expect(await page.evaluate(() => localStorage.getItem('cookieConsent'))).toBe('true');
    await page.reload();
    await page.waitForTimeout(1500);
    await expect(notice).toBeHidden();
  });

  test('footer links, newsletter and the privacy page with today\'s date', async ({ page }) => {
    await page.goto('/');
    const footer = page.locator('footer');
    await expect(footer.getByRole('link', { name: 'All Products' })).toHaveAttribute('href', '/search');
    await footer.getByRole('button', { name: 'Subscribe' }).click();
    await expect(footer.getByText('Please enter a valid email address')).toBeVisible();
    await footer.getByLabel('Newsletter e-mail address').fill(`fan-${Date.now()}@example.com`);
    await footer.getByRole('button', { name: 'Subscribe' }).click();
    await expect(footer.getByText('Thanks for subscribing! We sent a confirmation to your e-mail.')).toBeVisible();

    await footer.getByRole('link', { name: 'Privacy Policy' }).click();
    await expect(page).toHaveURL(/\/privacy$/);
    await expect(page.getByRole('heading', { name: 'Privacy Policy', level: 1 })).toBeVisible();
    const today = await page.evaluate(() => new Date().toLocaleDateString('en-US', { year: 'numeric', month: 'long', day: 'numeric' }));
    await expect(page.getByText(`Last updated: ${today}`)).toBeVisible();
    for (const heading of ['Cookies we use', 'Chat messages', 'Your rights', 'Clearing your data', 'Contact']) {
      await expect(page.getByRole('heading', { name: heading })).toBeVisible();
    }
  });

  test('on a phone-sized screen the menu collapses behind a toggle; the search box stays visible', async ({ page }) => {
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto('/');
    const search = page.getByRole('searchbox', { name: 'Search products' });
    await expect(search).toBeVisible();
    await expect(page.getByRole('link', { name: /Cart/ })).toBeVisible();
    await expect(page.getByRole('link', { name: 'Sign In', exact: true })).toBeHidden();
    await page.getByRole('button', { name: 'Toggle navigation' }).click();
    await expect(page.getByRole('link', { name: 'Sign In', exact: true })).toBeVisible();
    await page.setViewportSize({ width: 992, height: 800 });
    await expect(page.getByRole('button', { name: 'Toggle navigation' })).toBeHidden();
  });

  test('the header and footer have no detectable accessibility violations', async ({ page }) => {
    await signIn(page, DEMO_CUSTOMER.email, DEMO_CUSTOMER.password);
    await expect(page.getByRole('button', { name: `Hello, ${DEMO_CUSTOMER.name}` })).toBeVisible();
    const results = await new AxeBuilder({ page }).include('header').include('footer').withTags(['wcag2a', 'wcag2aa']).analyze();
    expect(results.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
  });
});

test.describe('idle session timeout', () => {
  test('warns 60 s before the 60-minute timeout, then signs out', async ({ page }) => {
    await page.clock.install();
    await signIn(page, DEMO_CUSTOMER.email, DEMO_CUSTOMER.password, '/profile');
    await expect(page).toHaveURL(/\/profile$/);

    await page.clock.fastForward('58:30');
    const dialog = page.getByRole('dialog', { name: 'Session Timeout Warning' });
    await expect(dialog).toBeHidden();
    await page.clock.fastForward('00:31');
    await expect(dialog).toBeVisible();
    await expect(dialog.getByText('Your session is about to expire due to inactivity.')).toBeVisible();
    await expect(dialog.getByText(/You will be logged out in \d+ seconds\./)).toBeVisible();
    await expect(dialog.getByText('Do you want to stay logged in?')).toBeVisible();
    await expect(dialog.getByRole('button', { name: 'Stay Active' })).toBeVisible();
    await expect(dialog.getByRole('button', { name: 'Logout Now' })).toBeVisible();
    await expect(dialog.getByRole('button', { name: /close/i })).toHaveCount(0);

    await page.clock.fastForward('00:10');
    await expect(dialog.getByText(/You will be logged out in (4\d|50) seconds\./)).toBeVisible();
    // Not dismissable by Escape or a click on the backdrop area inside the dialog.
    await page.keyboard.press('Escape');
    await expect(dialog).toBeVisible();

    await page.clock.fastForward('01:00');
    await expect(page).toHaveURL(/\/signin$/);
    await expect(page.getByText('You have been logged out due to inactivity')).toBeVisible();
    await expect(page.getByRole('link', { name: 'Sign In', exact: true })).toBeVisible();
    expect(await page.evaluate(() => localStorage.getItem('isLoggedOut'))).toBe('true');
  });

  test("'Stay Active' keeps the session; activity restarts the timer; 'Logout Now' signs out", async ({ page }) => {
    await page.clock.install();
    await signIn(page, DEMO_CUSTOMER.email, DEMO_CUSTOMER.password);
    const hello = page.getByRole('button', { name: `Hello, ${DEMO_CUSTOMER.name}` });
    await expect(hello).toBeVisible();
    const dialog = page.getByRole('dialog', { name: 'Session Timeout Warning' });

    await page.clock.fastForward('59:01');
    await expect(dialog).toBeVisible();
    await dialog.getByRole('button', { name: 'Stay Active' }).click();
    await expect(dialog).toBeHidden();
    await page.clock.fastForward('02:00');
    await expect(hello).toBeVisible();

    // Activity (a key press) 30 minutes in restarts the 60 minutes.
    await page.clock.fastForward('30:00');
    await page.keyboard.press('Shift');
    await page.clock.fastForward('40:00');
    await expect(dialog).toBeHidden();
    await page.clock.fastForward('19:30');
    await expect(dialog).toBeVisible();

    await dialog.getByRole('button', { name: 'Logout Now' }).click();
    await expect(page).toHaveURL(/\/signin$/);
    await expect(page.getByRole('link', { name: 'Sign In', exact: true })).toBeVisible();
  });
});
