import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { outbox } from './db/schema.ts';
import { openMail } from './lib/mailer.ts';
import { insertProduct } from './modules/products/test-factories.ts';
import { createProduct, placeOrderFor } from './test/commerce-factories.ts';
import { createAdmin, createTestApp, createUser, TEST_DB, type TestApp } from './test/test-app.ts';

/*
 * One origin for every absolute link the shop writes (config.siteUrl: PUBLIC_URL, else
 * http://localhost:PORT outside production). Every request here is addressed to a forged Host (and,
 * with TRUST_PROXY, a forged X-Forwarded-Host and -Proto), as an attacker would send it to get a
 * password-reset link pointing at their own site: no mail, canonical link, og:url, sitemap or
 * robots.txt may carry it, and every link in every mail the shop sends is absolute.
 */

const FORGED = { host: 'evil.example', 'x-forwarded-host': 'evil.example', 'x-forwarded-proto': 'https' };

function webBuild(): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'shop-links-web-'));
  writeFileSync(path.join(dir, 'index.html'), '<!doctype html><html><head><title>Shop</title></head><body><div id="root"></div></body></html>');
  return dir;
}

/** Every link of a mail body: absolute URLs, and any path that stands alone (a relative link). */
function linksOf(text: string): { absolute: string[]; relative: string[] } {
  const absolute = [...text.matchAll(/https?:\/\/[^\s"'<>]+/g)].map((m) => m[0]);
  const relative = [...text.replace(/https?:\/\/[^\s"'<>]+/g, '').matchAll(/(?:^|[\s"'(=>])(\/[a-z][^\s"'<>]*)/gim)].map((m) => m[1]!);
  return { absolute, relative };
}

for (const { label, env, origin } of [
  { label: 'outside production without PUBLIC_URL', env: { PORT: '3000' }, origin: 'http://localhost:3000' },
  { label: 'with PUBLIC_URL', env: { PUBLIC_URL: 'https://shop.example.com/' }, origin: 'https://shop.example.com' },
]) {
  describe(`links ${label} (${TEST_DB}): a forged Host reaches no mail, canonical link, og:url, sitemap or robots.txt`, () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await createTestApp({ env: { ...env, TRUST_PROXY: 'true', WEB_DIST_DIR: webBuild() } });
    });
    afterAll(async () => { await t.close(); });

    const send = (method: 'GET' | 'POST' | 'PUT', url: string, payload?: object, cookie?: string) =>
      t.app.inject({ method, url, headers: { ...FORGED, ...(cookie ? { cookie } : {}) }, ...(payload ? { payload } : {}) });

    it('every mail: sign-up (new and known address), password reset, an account made by an administrator, newsletter, order confirmation, e-mail changes', async () => {
      const known = await createUser(t, { name: 'Known Person' });
      const admin = await createAdmin(t);
      expect((await send('POST', '/api/users/signup', { name: 'New Person', email: 'new.person@example.com', password: 'password123' })).statusCode).toBe(202);
      expect((await send('POST', '/api/users/signup', { name: 'Again', email: known.email, password: 'password123' })).statusCode).toBe(202);
      expect((await send('POST', '/api/users/forgot-password', { email: known.email })).statusCode).toBe(200);
      expect((await send('POST', '/api/users', { name: 'Made By Admin', email: 'made.by.admin@example.com', isAdmin: false }, admin.cookie)).statusCode).toBe(201);
      expect((await send('POST', '/api/newsletter/subscribe', { email: 'reader@example.com' })).statusCode).toBe(202);
      // a change of e-mail asked from the profile (two mails), and one made by an administrator (one)
      const mover = await createUser(t, { name: 'Mover' });
      expect((await send('PUT', '/api/users/profile', { name: 'Mover', email: 'mover.new@example.com', currentPassword: mover.password }, mover.cookie)).statusCode).toBe(200);
      const edited = await createUser(t, { name: 'Edited' });
      expect((await send('PUT', `/api/users/${edited.id}`, { name: 'Edited', email: 'edited.new@example.com', isAdmin: false }, admin.cookie)).statusCode).toBe(200);
      // an order paid (demo payment): its confirmation links to the order
      const product = await createProduct(t);
      const order = await placeOrderFor(t, known, [{ productId: product.id, quantity: 1 }]);
      const paid = await t.app.inject({ method: 'PUT', url: `/api/orders/${order._id}/pay`, headers: { ...FORGED, cookie: known.cookie }, payload: { demo: true } });
      expect(paid.statusCode).toBe(200);
      await t.app.ctx.background.flush();

      const mails = (await t.database.db.select().from(outbox)).map((row) => openMail(row, t.app.ctx.mailSealer));
      const subjects = mails.map((m) => m.subject).sort();
      expect(subjects).toEqual([
        `Order confirmation #${order.number}`,
        'Confirm your e-mail to create your account',
        'Reset your password',
        'You already have an account',
        'Your account is ready: choose a password',
        'You are subscribed to our newsletter',
        'Confirm your new e-mail address',
        'Your account e-mail is being changed',
        'Your account e-mail was changed',
      ].sort());
      for (const mail of mails) {
        for (const body of [mail.text, mail.html ?? '']) {
          expect(body).not.toContain('evil.example');
          const { absolute, relative } = linksOf(body);
          expect(relative, `${mail.subject}: relative links`).toEqual([]);
          for (const link of absolute) expect(link.startsWith(`${origin}/`), `${mail.subject}: ${link}`).toBe(true);
        }
      }
      const linkIn = (subject: string) => linksOf(mails.find((m) => m.subject === subject)!.text).absolute;
      expect(linkIn('Reset your password')).toEqual([expect.stringMatching(new RegExp(`^${origin}/reset-password\\?token=[\\w-]{43}$`))]);
      expect(linkIn(`Order confirmation #${order.number}`)).toEqual([`${origin}/order/${order._id}`]);
      expect(linkIn('You already have an account')).toEqual([`${origin}/signin`, `${origin}/forgot-password`]);
      expect(linkIn('Confirm your new e-mail address')).toEqual([expect.stringMatching(new RegExp(`^${origin}/confirm-email\\?token=[\\w-]{43}$`))]);
      expect(linkIn('Your account e-mail is being changed')).toEqual([expect.stringMatching(new RegExp(`^${origin}/reset-password\\?token=[\\w-]{43}$`))]);
      expect(linkIn('Your account e-mail was changed')).toEqual([`${origin}/pages/contact`]);
    });

    it('pages and crawler files: canonical, og:url, sitemaps, robots.txt', async () => {
      await insertProduct(t, { name: 'Canon Lamp', slug: 'canon-lamp', image: '/uploads/canon.webp' });
      const page = await send('GET', '/product/canon-lamp');
      expect(page.statusCode).toBe(200);
      expect(page.body).toContain(`<link rel="canonical" href="${origin}/product/canon-lamp" />`);
      expect(page.body).toContain(`<meta property="og:url" content="${origin}/product/canon-lamp" />`);
      expect(page.body).toContain(`<meta property="og:image" content="${origin}/uploads/canon.webp" />`);
      const robots = await send('GET', '/robots.txt');
      expect(robots.body).toContain(`Sitemap: ${origin}/sitemap.xml`);
      for (const url of ['/sitemap.xml', '/sitemaps/pages.xml', '/sitemaps/products-1.xml']) {
        const res = await send('GET', url);
        expect(res.statusCode, url).toBe(200);
        expect(res.body, url).toContain(`<loc>${origin}/`);
      }
      for (const res of [page, robots, await send('GET', '/sitemap.xml'), await send('GET', '/sitemaps/pages.xml'), await send('GET', '/sitemaps/products-1.xml')]) {
        expect(res.body).not.toContain('evil.example');
      }
      // an honest Host asked first fills no cache with a forged one either way
      expect((await t.app.inject({ method: 'GET', url: '/sitemap.xml' })).body).not.toContain('evil.example');
    });
  });
}

describe('a shop in production', () => {
  it('refuses to start without PUBLIC_URL (covered in config.test.ts) and links on it', async () => {
    const t = await createTestApp({ env: { NODE_ENV: 'production', PUBLIC_URL: 'https://shop.example.com' } });
    try {
      expect(t.config.siteUrl).toBe('https://shop.example.com');
      const u = await createUser(t);
      await t.app.inject({ method: 'POST', url: '/api/users/forgot-password', headers: FORGED, payload: { email: u.email } });
      await t.app.ctx.background.flush();
      const [mail] = (await t.database.db.select().from(outbox)).map((row) => openMail(row, t.app.ctx.mailSealer));
      expect(mail!.text).toMatch(/^https:\/\/shop\.example\.com\/reset-password\?token=[\w-]{43}$/m);
    } finally {
      await t.close();
    }
  });
});

