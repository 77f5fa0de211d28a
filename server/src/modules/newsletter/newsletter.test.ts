import { NEWSLETTER_BAD_TOKEN, NEWSLETTER_SUBSCRIBED, NEWSLETTER_UNSUBSCRIBED } from '@shop/contracts';
import { count, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newsletterSubscriptions, outbox } from '../../db/schema.ts';
import { hashToken } from '../../lib/tokens.ts';
import { createTestApp, type TestApp } from '../../test/test-app.ts';
import { latestMailTo, tokenFromLink } from '../users/users.test-helpers.ts';
import { NEWSLETTER_MAIL_SUBJECT } from './newsletter-mails.ts';

describe('newsletter subscriptions', () => {
  let t: TestApp;
  beforeAll(async () => { t = await createTestApp({ env: { PUBLIC_URL: 'https://shop.example.com' } }); });
  afterAll(async () => { await t.close(); });

  const subscribe = (payload: unknown) => t.app.inject({ method: 'POST', url: '/api/newsletter/subscribe', payload: payload as object });
  const unsubscribe = (payload: unknown) => t.app.inject({ method: 'POST', url: '/api/newsletter/unsubscribe', payload: payload as object });
  const rowOf = async (email: string) => (await t.database.db.select().from(newsletterSubscriptions).where(eq(newsletterSubscriptions.email, email)))[0];
  const mailsTo = async (email: string) => {
    await t.app.ctx.background.flush();
    return (await t.database.db.select({ n: count() }).from(outbox).where(eq(outbox.to, email)))[0]?.n;
  };

  it('stores the address (trimmed, lower-cased) and mails a confirmation with an unsubscribe link', async () => {
    const res = await subscribe({ email: '  Reader@Example.COM ' });
    expect(res.statusCode).toBe(202);
    expect(res.json()).toEqual({ message: NEWSLETTER_SUBSCRIBED });
    const mail = await latestMailTo(t, 'reader@example.com');
    expect(mail?.subject).toBe(NEWSLETTER_MAIL_SUBJECT);
    expect(mail?.text).toMatch(/^Did not ask for it, or changed your mind\? Unsubscribe here: https:\/\/shop\.example\.com\/newsletter\/unsubscribe\?token=[\w-]{43}$/m);
    const token = tokenFromLink(mail!.text, '/newsletter/unsubscribe');
    const row = await rowOf('reader@example.com');
    expect(row).toMatchObject({ email: 'reader@example.com', unsubscribedAt: null, unsubscribeTokenHash: hashToken(token) });
    expect(JSON.stringify(row)).not.toContain(token);
  });

  it('keeps one row per address: subscribing again answers the same and sends no second mail', async () => {
    await subscribe({ email: 'twice@example.com' });
    expect(await mailsTo('twice@example.com')).toBe(1);
    const again = await subscribe({ email: 'TWICE@example.com' });
    expect(again.statusCode).toBe(202);
    expect(again.json()).toEqual({ message: NEWSLETTER_SUBSCRIBED });
    expect(await mailsTo('twice@example.com')).toBe(1);
    const rows = await t.database.db.select({ n: count() }).from(newsletterSubscriptions).where(eq(newsletterSubscriptions.email, 'twice@example.com'));
    expect(rows[0]?.n).toBe(1);
  });

  it('refuses a missing or malformed address with a clear 400 and stores nothing', async () => {
    for (const [payload, message] of [
      [{}, 'Email is required'],
      [{ email: '' }, 'Email is required'],
      [{ email: 'not-an-email' }, 'Please enter a valid email address'],
      [{ email: `${'a'.repeat(250)}@example.com` }, 'Please enter a valid email address'],
      [{ email: 42 }, 'Email is required'],
    ] as const) {
      const res = await subscribe(payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(res.json().message).toBe(message);
    }
    expect((await t.database.db.select({ n: count() }).from(newsletterSubscriptions).where(eq(newsletterSubscriptions.email, 'not-an-email')))[0]?.n).toBe(0);
  });

  it('unsubscribes with the mailed token (idempotent), refuses unknown tokens, and subscribing again sends a fresh link', async () => {
    await subscribe({ email: 'leaver@example.com' });
    const token = tokenFromLink((await latestMailTo(t, 'leaver@example.com'))!.text, '/newsletter/unsubscribe');
    const res = await unsubscribe({ token });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ message: NEWSLETTER_UNSUBSCRIBED });
    const first = (await rowOf('leaver@example.com'))?.unsubscribedAt;
    expect(first).toBeInstanceOf(Date);
    expect((await unsubscribe({ token })).statusCode).toBe(200);
    expect((await rowOf('leaver@example.com'))?.unsubscribedAt).toEqual(first);

    const bad = await unsubscribe({ token: 'not-a-real-token' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toBe(NEWSLETTER_BAD_TOKEN);
    expect((await unsubscribe({})).statusCode).toBe(400);

    await subscribe({ email: 'leaver@example.com' });
    expect(await mailsTo('leaver@example.com')).toBe(2);
    const fresh = tokenFromLink((await latestMailTo(t, 'leaver@example.com'))!.text, '/newsletter/unsubscribe');
    expect(fresh).not.toBe(token);
    expect((await rowOf('leaver@example.com'))?.unsubscribedAt).toBeNull();
    // The old link no longer works; the new one does.
    expect((await unsubscribe({ token })).statusCode).toBe(400);
    expect((await unsubscribe({ token: fresh })).statusCode).toBe(200);
  });

  it('while the database does not answer: the outage 503 with Retry-After, not a "check your e-mail" for work nobody stored', async () => {
    const ping = t.database.ping;
    t.database.ping = () => Promise.reject(Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' }));
    try {
      const res = await subscribe({ email: 'outage-reader@example.com' });
      expect(res.statusCode).toBe(503);
      expect(res.headers['retry-after']).toBeDefined();
    } finally {
      t.database.ping = ping;
    }
    expect(await mailsTo('outage-reader@example.com')).toBe(0);
    expect((await subscribe({ email: 'outage-reader@example.com' })).statusCode).toBe(202);
    expect(await mailsTo('outage-reader@example.com')).toBe(1);
  });
});
