import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isLoopbackAddress } from '../../lib/local-only.ts';
import { createTestApp, createUser, type TestApp } from '../../test/test-app.ts';

/** A web build with no server-rendering bundle: pages are the plain index.html. */
function webBuild(): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'shop-mailbox-web-'));
  writeFileSync(path.join(dir, 'index.html'), '<!doctype html><html><head><title>Shop</title></head><body><div id="root"></div></body></html>');
  return dir;
}

describe('the development mailbox', () => {
  let t: TestApp;
  beforeAll(async () => { t = await createTestApp(); });
  afterAll(async () => { await t.close(); });

  it('outside production without SMTP_URL: lists the kept mail newest first, bodies opened (sealed at rest)', async () => {
    const u = await createUser(t, { name: 'Mailbox Reader', email: 'mailbox.reader@example.com' });
    expect((await t.app.inject({ method: 'POST', url: '/api/users/signup', payload: { name: 'First', email: 'first.mail@example.com', password: 'password123' } })).statusCode).toBe(202);
    await t.app.ctx.background.flush();
    expect((await t.app.inject({ method: 'POST', url: '/api/users/forgot-password', payload: { email: u.email } })).statusCode).toBe(200);
    await t.app.ctx.background.flush();
    const res = await t.app.inject({ method: 'GET', url: '/api/dev/mailbox' });
    expect(res.statusCode).toBe(200);
    const { messages } = res.json() as { messages: Array<{ to: string; subject: string; text: string; erased: boolean; sentAt: string | null }> };
    expect(messages.slice(0, 2).map((m) => [m.to, m.subject])).toEqual([
      ['mailbox.reader@example.com', 'Reset your password'],
      ['first.mail@example.com', 'Confirm your e-mail to create your account'],
    ]);
    expect(messages[0]!.text).toMatch(/\/reset-password\?token=[\w-]{20,}/);
    expect(messages[1]!.text).toMatch(/\/confirm-signup\?token=[\w-]{20,}/);
    expect(messages[0]).toMatchObject({ erased: false, sentAt: null });
    // limit
    const one = await t.app.inject({ method: 'GET', url: '/api/dev/mailbox?limit=1' });
    expect((one.json() as { messages: unknown[] }).messages).toHaveLength(1);
    const bad = await t.app.inject({ method: 'GET', url: '/api/dev/mailbox?limit=0' });
    expect(bad.statusCode).toBe(400);
  });

  it('is 404 in production and with SMTP_URL (the route does not exist there)', async () => {
    const prod = await createTestApp({ env: { NODE_ENV: 'production', PUBLIC_URL: 'https://shop.example.com' } });
    try {
      const res = await prod.app.inject({ method: 'GET', url: '/api/dev/mailbox' });
      expect(res.statusCode).toBe(404);
    } finally {
      await prod.close();
    }
    const smtp = await createTestApp({ env: { SMTP_URL: 'smtp://127.0.0.1:9' } });
    try {
      expect((await smtp.app.inject({ method: 'GET', url: '/api/dev/mailbox' })).statusCode).toBe(404);
    } finally {
      await smtp.close();
    }
  });

  describe('answers this machine only: decided by the connection, never by a header', () => {
    let web: TestApp;
    beforeAll(async () => { web = await createTestApp({ env: { WEB_DIST_DIR: webBuild() } }); });
    afterAll(async () => { await web.close(); });
    const notFound = (url: string) => ({ message: `Route GET ${url} not found`, code: 'NOT_FOUND' });

    it('the API: 200 over a loopback connection addressed to localhost, the unknown route\'s own 404 otherwise', async () => {
      const ask = (opts: { remoteAddress?: string; headers?: Record<string, string> }) =>
        web.app.inject({ method: 'GET', url: '/api/dev/mailbox', ...opts });
      for (const remoteAddress of ['127.0.0.1', '::1', '::ffff:127.0.0.1', '127.0.0.2']) {
        expect((await ask({ remoteAddress, headers: { host: 'localhost:3000' } })).statusCode).toBe(200);
      }
      expect((await ask({ headers: { host: '127.0.0.1:3000' } })).statusCode).toBe(200);
      expect((await ask({ headers: { host: '[::1]:3000' } })).statusCode).toBe(200);
      const refused: Array<{ remoteAddress?: string; headers?: Record<string, string> }> = [
        // another machine, whatever it claims
        { remoteAddress: '192.0.2.10' },
        { remoteAddress: '192.0.2.10', headers: { 'x-forwarded-for': '127.0.0.1', host: 'localhost' } },
        { remoteAddress: '::ffff:192.0.2.10' },
        { remoteAddress: 'fd00::2' },
        // a tunnel or proxy on this machine passing on someone else's request
        { headers: { 'x-forwarded-for': '198.51.100.7' } },
        { headers: { forwarded: 'for=198.51.100.7' } },
        { headers: { 'x-real-ip': '198.51.100.7' } },
        { headers: { 'cf-connecting-ip': '198.51.100.7' } },
        // DNS rebinding: this machine's browser sent it, addressed to another site's name
        { headers: { host: 'evil.example' } },
        { headers: { host: 'localhost.evil.example:3000' } },
      ];
      for (const opts of refused) {
        const res = await ask(opts);
        expect(res.statusCode, JSON.stringify(opts)).toBe(404);
        expect(res.json()).toEqual(notFound('/api/dev/mailbox'));
      }
      // exactly what an unknown route answers
      expect((await web.app.inject({ method: 'GET', url: '/api/dev/nothing-here', remoteAddress: '192.0.2.10' })).json()).toEqual(notFound('/api/dev/nothing-here'));
    });

    it('with TRUST_PROXY a forged X-Forwarded-For: 127.0.0.1 from another machine is still refused', async () => {
      const proxied = await createTestApp({ env: { TRUST_PROXY: 'true' } });
      try {
        const res = await proxied.app.inject({ method: 'GET', url: '/api/dev/mailbox', remoteAddress: '192.0.2.10', headers: { 'x-forwarded-for': '127.0.0.1', host: 'localhost' } });
        expect(res.statusCode).toBe(404);
      } finally {
        await proxied.close();
      }
    });

    it('the page /dev/mailbox (any spelling): a page to this machine, 404 to anyone else', async () => {
      for (const url of ['/dev/mailbox', '/dev/mailbox/', '/DEV/Mailbox', '/dev/%6Dailbox', '/dev/mailbox?limit=5']) {
        const local = await web.app.inject({ method: 'GET', url });
        expect(local.statusCode, url).toBe(200);
        expect(local.body).toContain('<div id="root"></div>');
        const remote = await web.app.inject({ method: 'GET', url, remoteAddress: '192.0.2.10' });
        expect(remote.statusCode, url).toBe(404);
        expect((await web.app.inject({ method: 'HEAD', url, remoteAddress: '192.0.2.10' })).statusCode).toBe(404);
        expect((await web.app.inject({ method: 'GET', url, headers: { 'x-forwarded-for': '198.51.100.7' } })).statusCode).toBe(404);
      }
      // other pages are everyone's
      expect((await web.app.inject({ method: 'GET', url: '/dev/mailboxes', remoteAddress: '192.0.2.10' })).statusCode).toBe(200);
      expect((await web.app.inject({ method: 'GET', url: '/signin', remoteAddress: '192.0.2.10' })).statusCode).toBe(200);
    });
  });

  it('isLoopbackAddress: 127.0.0.0/8 and ::1 in their spellings, nothing else', () => {
    for (const a of ['127.0.0.1', '127.9.8.7', '::1', '0:0:0:0:0:0:0:1', '::ffff:127.0.0.1']) expect(isLoopbackAddress(a), a).toBe(true);
    for (const a of ['192.0.2.2', '::ffff:192.0.2.2', 'fd00::2', '::', '0.0.0.0', '128.0.0.1', 'localhost', '', undefined]) expect(isLoopbackAddress(a), String(a)).toBe(false);
  });
});
