import { FORGOT_PASSWORD_MESSAGE, INVALID_RESET_TOKEN, RESET_PASSWORD_SUCCESS } from '@shop/contracts';
import { desc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openMail } from '../../lib/mailer.ts';
import { outbox, passwordResets } from '../../db/schema.ts';
import { hashToken } from '../../lib/tokens.ts';
import { createTestApp, createUser, type TestApp } from '../../test/test-app.ts';
import { accessCookie } from './users.test-helpers.ts';
import { RESET_MAIL_SUBJECT } from './forgot-password.ts';

describe('forgot and reset password', () => {
  let t: TestApp;
  beforeAll(async () => { t = await createTestApp(); });
  afterAll(async () => { await t.close(); });

  const forgot = (email: string, headers: Record<string, string> = {}) =>
    t.app.inject({ method: 'POST', url: '/api/users/forgot-password', payload: { email }, headers });
  const reset = (token: string, password: string) =>
    t.app.inject({ method: 'POST', url: '/api/users/reset-password', payload: { token, password } });
  // forgot-password mails after answering: wait for that work first.
  const mailsTo = async (to: string) => {
    await t.app.ctx.background.flush();
    const rows = await t.database.db.select().from(outbox).where(eq(outbox.to, to)).orderBy(desc(outbox.createdAt), desc(outbox.id));
    return rows.map((r) => openMail(r, t.app.ctx.mailSealer));
  };
  const tokenFrom = (text: string) => {
    const m = /\/reset-password\?token=([\w-]+)/.exec(text);
    if (!m?.[1]) throw new Error(`no reset link in: ${text}`);
    return decodeURIComponent(m[1]);
  };

  it('answers the same 200 message for a known and an unknown e-mail; mails only the known one', async () => {
    const u = await createUser(t, { name: 'Forgetful <b>Fred</b>' });
    // The link is on config.siteUrl (http://localhost:PORT here), never on the Host the request was addressed to.
    const known = await forgot(u.email.toUpperCase(), { host: 'evil.example:8443' });
    const unknown = await forgot('ghost@example.com');
    for (const res of [known, unknown]) {
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ message: FORGOT_PASSWORD_MESSAGE });
    }
    expect(await mailsTo('ghost@example.com')).toEqual([]);
    const [mail] = await mailsTo(u.email);
    expect(mail?.subject).toBe(RESET_MAIL_SUBJECT);
    expect(mail?.text).toMatch(/^http:\/\/localhost:3000\/reset-password\?token=[\w-]{43}$/m);
    expect(mail?.html).toContain('Forgetful &#60;b&#62;Fred&#60;/b&#62;');

    // stored hashed, valid for one hour
    const token = tokenFrom(mail!.text);
    const [row] = await t.database.db.select().from(passwordResets).where(eq(passwordResets.userId, u.id));
    expect(row?.tokenHash).toBe(hashToken(token));
    expect(row?.tokenHash).not.toContain(token);
    const ttl = row!.expiresAt.getTime() - Date.now();
    expect(ttl).toBeGreaterThan(59 * 60_000);
    expect(ttl).toBeLessThanOrEqual(60 * 60_000);
  });

  it('resets the password once, ends every session, and refuses the same token again', async () => {
    const u = await createUser(t, { password: 'old-password' });
    await forgot(u.email);
    const token = tokenFrom((await mailsTo(u.email))[0]!.text);

    const ok = await reset(token, 'new-password');
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toEqual({ message: RESET_PASSWORD_SUCCESS });

    const current = await t.app.inject({ method: 'GET', url: '/api/users/current', headers: { cookie: accessCookie(u.accessToken) } });
    expect(current.body).toBe('null');
    expect((await t.app.inject({ method: 'POST', url: '/api/users/signin', payload: { email: u.email, password: 'old-password' } })).statusCode).toBe(401);
    expect((await t.app.inject({ method: 'POST', url: '/api/users/signin', payload: { email: u.email, password: 'new-password' } })).statusCode).toBe(200);

    const again = await reset(token, 'another-password');
    expect(again.statusCode).toBe(400);
    expect(again.json()).toEqual({ message: INVALID_RESET_TOKEN, code: 'INVALID_RESET_TOKEN' });
  });

  it('voids the other outstanding links of the account when one is used', async () => {
    const u = await createUser(t);
    await forgot(u.email);
    await forgot(u.email);
    const [newer, older] = await mailsTo(u.email);
    expect((await reset(tokenFrom(newer!.text), 'new-password')).statusCode).toBe(200);
    const res = await reset(tokenFrom(older!.text), 'other-password');
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe(INVALID_RESET_TOKEN);
  });

  it('refuses an expired token with 400', async () => {
    const u = await createUser(t, { password: 'old-password' });
    await forgot(u.email);
    const token = tokenFrom((await mailsTo(u.email))[0]!.text);
    await t.database.db.update(passwordResets).set({ expiresAt: new Date(Date.now() - 1000) }).where(eq(passwordResets.tokenHash, hashToken(token)));
    const res = await reset(token, 'new-password');
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ message: INVALID_RESET_TOKEN, code: 'INVALID_RESET_TOKEN' });
    expect((await t.app.inject({ method: 'POST', url: '/api/users/signin', payload: { email: u.email, password: 'old-password' } })).statusCode).toBe(200);
  });

  it('refuses an unknown token with 400', async () => {
    const res = await reset('made-up-token', 'new-password');
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ message: INVALID_RESET_TOKEN, code: 'INVALID_RESET_TOKEN' });
  });

  it('lets only one of two concurrent resets with the same token succeed', async () => {
    const u = await createUser(t);
    await forgot(u.email);
    const token = tokenFrom((await mailsTo(u.email))[0]!.text);
    const results = await Promise.all([reset(token, 'first-password'), reset(token, 'second-password')]);
    expect(results.map((r) => r.statusCode).sort()).toEqual([200, 400]);
  });

  it('validates bodies with 400', async () => {
    const badEmail = await t.app.inject({ method: 'POST', url: '/api/users/forgot-password', payload: { email: 'nope' } });
    expect(badEmail.statusCode).toBe(400);
    expect(badEmail.json().fieldErrors).toEqual({ email: 'Please enter a valid email address' });
    const shortPw = await reset('some-token', 'short');
    expect(shortPw.statusCode).toBe(400);
    expect(shortPw.json().fieldErrors).toEqual({ password: 'Password must be at least 8 characters' });
    const noToken = await t.app.inject({ method: 'POST', url: '/api/users/reset-password', payload: { password: 'long-enough' } });
    expect(noToken.statusCode).toBe(400);
    expect(noToken.json().fieldErrors).toEqual({ token: 'Reset token is required' });
  });
});

describe('forgot password with PUBLIC_URL', () => {
  let t: TestApp;
  beforeAll(async () => { t = await createTestApp({ env: { PUBLIC_URL: 'https://shop.example.com/' } }); });
  afterAll(async () => { await t.close(); });

  it('builds the link from PUBLIC_URL, not from the Host header', async () => {
    const u = await createUser(t);
    const res = await t.app.inject({ method: 'POST', url: '/api/users/forgot-password', payload: { email: u.email }, headers: { host: 'evil.example' } });
    expect(res.statusCode).toBe(200);
    await t.app.ctx.background.flush();
    const [stored] = await t.database.db.select().from(outbox).where(eq(outbox.to, u.email));
    const mail = stored && openMail(stored, t.app.ctx.mailSealer);
    expect(mail?.text).toMatch(/^https:\/\/shop\.example\.com\/reset-password\?token=/m);
    expect(mail?.text).not.toContain('evil.example');
  });
});
