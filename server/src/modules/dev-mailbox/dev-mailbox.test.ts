import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, createUser, type TestApp } from '../../test/test-app.ts';

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
});
