import {
  EMAIL_CHANGE_CANCELLED, EMAIL_CHANGE_CONFIRMED, EMAIL_CHANGE_EXPIRED, EMAIL_CHANGE_INVALID, EMAIL_CHANGE_TAKEN,
  EMAIL_CHANGE_USED, INVALID_RESET_TOKEN, TOO_MANY_ATTEMPTS, USER_MESSAGES,
} from '@shop/contracts';
import { and, desc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { emailChanges, outbox, passwordResets, sessions, users } from '../../db/schema.ts';
import { isSealed } from '../../lib/mail-seal.ts';
import { openMail } from '../../lib/mailer.ts';
import { hashToken } from '../../lib/tokens.ts';
import { createAdmin, createTestApp, createUser, TEST_DB, type TestApp, type TestUser } from '../../test/test-app.ts';
import { CONFIRM_EMAIL_CHANGE_SUBJECT, EMAIL_CHANGED_BY_ADMIN_SUBJECT, EMAIL_CHANGE_NOTICE_SUBJECT } from './account-mails.ts';
import { tokenFromLink } from './users.test-helpers.ts';

/*
 * Changing the e-mail (issue 32): the new address confirms it by a single-use link, the account
 * keeps its old address (and signs in with it) until then, and the old address is told at once
 * with a way to secure the account. An administrator's change takes effect at once and is told to
 * the old address too.
 */
describe(`changing the e-mail (${TEST_DB})`, () => {
  let t: TestApp;
  beforeAll(async () => { t = await createTestApp({ env: { PORT: '3000' } }); });
  afterAll(async () => { await t.close(); });

  const put = (u: Pick<TestUser, 'cookie'>, payload: Record<string, unknown>) =>
    t.app.inject({ method: 'PUT', url: '/api/users/profile', headers: { cookie: u.cookie }, payload });
  const ask = (u: TestUser, email: string) => put(u, { name: u.name, email, currentPassword: u.password });
  const confirm = (token: string) => t.app.inject({ method: 'POST', url: '/api/users/confirm-email', payload: { token } });
  const signIn = (email: string, password: string) => t.app.inject({ method: 'POST', url: '/api/users/signin', payload: { email, password } });
  const emailOf = async (id: string) => (await t.database.db.select({ email: users.email }).from(users).where(eq(users.id, id)))[0]?.email;
  /** The newest mail to `to` with `subject`, opened (bodies are sealed at rest), and its raw row. */
  const mailTo = async (to: string, subject: string) => {
    const [row] = await t.database.db.select().from(outbox).where(and(eq(outbox.to, to), eq(outbox.subject, subject)))
      .orderBy(desc(outbox.createdAt), desc(outbox.id)).limit(1);
    return row ? { raw: row, mail: openMail(row, t.app.ctx.mailSealer) } : undefined;
  };
  const linksFor = async (oldEmail: string, newEmail: string) => {
    const confirmMail = await mailTo(newEmail, CONFIRM_EMAIL_CHANGE_SUBJECT);
    const notice = await mailTo(oldEmail, EMAIL_CHANGE_NOTICE_SUBJECT);
    return {
      confirmMail, notice,
      confirmToken: tokenFromLink(confirmMail!.mail.text, '/confirm-email'),
      secureToken: tokenFromLink(notice!.mail.text, '/reset-password'),
    };
  };

  it('the request: the answer names the pending address, the account keeps its e-mail and signs in with it, two mails go out', async () => {
    const u = await createUser(t, { name: 'Mover', email: 'mover.old@example.com', password: 'original1' });
    const res = await ask(u, 'Mover.New@Example.com');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ _id: u.id, name: 'Mover', email: 'mover.old@example.com', isAdmin: false, pendingEmail: 'mover.new@example.com' });
    expect(await emailOf(u.id)).toBe('mover.old@example.com');
    expect((await t.app.inject({ method: 'GET', url: '/api/users/current', headers: { cookie: u.cookie } })).json()).toMatchObject({ email: 'mover.old@example.com' });
    expect((await signIn('mover.old@example.com', 'original1')).statusCode).toBe(200);
    expect((await signIn('mover.new@example.com', 'original1')).statusCode).toBe(401);

    const { confirmMail, notice, confirmToken, secureToken } = await linksFor('mover.old@example.com', 'mover.new@example.com');
    // To the new address: the link (absolute, on the shop's one origin), its expiry.
    expect(confirmMail!.mail.text).toMatch(/^http:\/\/localhost:3000\/confirm-email\?token=[\w-]{43}$/m);
    expect(confirmMail!.mail.text).toContain('expires in 24 hours');
    expect(confirmMail!.mail.html).toContain('href="http://localhost:3000/confirm-email?token=');
    // To the old address: what was asked, that nothing changed yet, and a link that secures the account.
    expect(notice!.mail.text).toContain('asked to change its e-mail address to mover.new@example.com');
    expect(notice!.mail.text).toContain('Nothing changes until that address confirms it');
    expect(notice!.mail.text).toMatch(/^http:\/\/localhost:3000\/reset-password\?token=[\w-]{43}$/m);
    expect(notice!.mail.text).not.toContain(confirmToken);
    // Tokens stored hashed; both mails sealed at rest and erased when their links expire.
    const [change] = await t.database.db.select().from(emailChanges).where(eq(emailChanges.userId, u.id));
    expect(change).toMatchObject({ newEmail: 'mover.new@example.com', tokenHash: hashToken(confirmToken), confirmedAt: null, cancelledAt: null });
    const ttl = change!.expiresAt.getTime() - Date.now();
    expect(ttl).toBeGreaterThan(23.9 * 3_600_000);
    expect(ttl).toBeLessThanOrEqual(24 * 3_600_000);
    const [secure] = await t.database.db.select().from(passwordResets).where(eq(passwordResets.tokenHash, hashToken(secureToken)));
    expect(secure?.expiresAt.getTime()).toBe(change!.expiresAt.getTime());
    for (const { raw } of [confirmMail!, notice!]) {
      expect(isSealed(raw.text)).toBe(true);
      expect(isSealed(raw.html)).toBe(true);
      expect(raw.text + raw.html).not.toContain(confirmToken);
      expect(raw.text + raw.html).not.toContain(secureToken);
      expect(raw.eraseAfter?.getTime()).toBe(change!.expiresAt.getTime());
    }
  });

  it('the link: confirms once, then the account has the new address (sign-in with it only); reset links to the old one die', async () => {
    const u = await createUser(t, { email: 'confirmer.old@example.com', password: 'original1' });
    expect((await ask(u, 'confirmer.new@example.com')).statusCode).toBe(200);
    const { confirmToken, secureToken } = await linksFor('confirmer.old@example.com', 'confirmer.new@example.com');
    const res = await confirm(confirmToken);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ message: EMAIL_CHANGE_CONFIRMED, email: 'confirmer.new@example.com' });
    expect(res.headers['set-cookie']).toBeUndefined(); // it signs no one in
    expect(await emailOf(u.id)).toBe('confirmer.new@example.com');
    expect((await signIn('confirmer.new@example.com', 'original1')).statusCode).toBe(200);
    expect((await signIn('confirmer.old@example.com', 'original1')).statusCode).toBe(401);
    // the session that asked is still signed in, under the new address
    expect((await t.app.inject({ method: 'GET', url: '/api/users/current', headers: { cookie: u.cookie } })).json()).toMatchObject({ email: 'confirmer.new@example.com' });
    // used: a clear answer, nothing more happens
    const again = await confirm(confirmToken);
    expect(again.statusCode).toBe(400);
    expect(again.json()).toEqual({ message: EMAIL_CHANGE_USED, code: 'EMAIL_CHANGE_USED' });
    // the old mailbox's "secure my account" link went with the address
    const secure = await t.app.inject({ method: 'POST', url: '/api/users/reset-password', payload: { token: secureToken, password: 'taken-over-1' } });
    expect(secure.statusCode).toBe(400);
    expect(secure.json().message).toBe(INVALID_RESET_TOKEN);
  });

  it('clear answers for an unknown, expired or replaced link; nothing changes', async () => {
    const unknown = await confirm('not-a-real-token-at-all');
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json()).toEqual({ message: EMAIL_CHANGE_INVALID, code: 'EMAIL_CHANGE_INVALID' });
    expect((await t.app.inject({ method: 'POST', url: '/api/users/confirm-email', payload: {} })).statusCode).toBe(400);

    const u = await createUser(t, { email: 'late.old@example.com' });
    expect((await ask(u, 'late.first@example.com')).statusCode).toBe(200);
    const first = (await linksFor('late.old@example.com', 'late.first@example.com')).confirmToken;
    expect((await ask(u, 'late.second@example.com')).statusCode).toBe(200); // a newer request replaces it
    const second = (await linksFor('late.old@example.com', 'late.second@example.com')).confirmToken;
    const replaced = await confirm(first);
    expect(replaced.statusCode).toBe(400);
    expect(replaced.json()).toEqual({ message: EMAIL_CHANGE_CANCELLED, code: 'EMAIL_CHANGE_CANCELLED' });
    await t.database.db.update(emailChanges).set({ expiresAt: new Date(Date.now() - 1000) }).where(eq(emailChanges.tokenHash, hashToken(second)));
    const expired = await confirm(second);
    expect(expired.statusCode).toBe(400);
    expect(expired.json()).toEqual({ message: EMAIL_CHANGE_EXPIRED, code: 'EMAIL_CHANGE_EXPIRED' });
    expect(await emailOf(u.id)).toBe('late.old@example.com');
  });

  it('saving the profile with the current address (a new name) leaves a pending change alone', async () => {
    const u = await createUser(t, { email: 'renamer.old@example.com' });
    expect((await ask(u, 'renamer.new@example.com')).statusCode).toBe(200);
    expect((await put(u, { name: 'Renamed Meanwhile', email: 'renamer.old@example.com' })).statusCode).toBe(200);
    const { confirmToken } = await linksFor('renamer.old@example.com', 'renamer.new@example.com');
    expect((await confirm(confirmToken)).statusCode).toBe(200);
    expect((await t.database.db.select().from(users).where(eq(users.id, u.id)))[0]).toMatchObject({ name: 'Renamed Meanwhile', email: 'renamer.new@example.com' });
  });

  it('the address taken by another account meanwhile: 409 with a clear message, nothing changes', async () => {
    const u = await createUser(t, { email: 'slow.old@example.com' });
    expect((await ask(u, 'contested@example.com')).statusCode).toBe(200);
    const { confirmToken } = await linksFor('slow.old@example.com', 'contested@example.com');
    await createUser(t, { email: 'contested@example.com' }); // signed up with it first
    const res = await confirm(confirmToken);
    expect(res.statusCode).toBe(409);
    expect(res.json()).toEqual({ message: EMAIL_CHANGE_TAKEN, code: 'EMAIL_CHANGE_TAKEN' });
    expect(await emailOf(u.id)).toBe('slow.old@example.com');
    const [change] = await t.database.db.select().from(emailChanges).where(eq(emailChanges.tokenHash, hashToken(confirmToken)));
    expect(change?.confirmedAt).toBeNull();
  });

  it('asking for an address another account has: 409 at once, no mail', async () => {
    const other = await createUser(t, { email: 'has.it@example.com' });
    const u = await createUser(t, { email: 'wants.it@example.com' });
    const res = await ask(u, 'Has.It@example.com');
    expect(res.statusCode).toBe(409);
    expect(await mailTo(other.email, CONFIRM_EMAIL_CHANGE_SUBJECT)).toBeUndefined();
    expect(await mailTo(u.email, EMAIL_CHANGE_NOTICE_SUBJECT)).toBeUndefined();
  });

  it('two uses of one link at once: one changes the address, the other is told it was used', async () => {
    const u = await createUser(t, { email: 'racer.old@example.com' });
    expect((await ask(u, 'racer.new@example.com')).statusCode).toBe(200);
    const { confirmToken } = await linksFor('racer.old@example.com', 'racer.new@example.com');
    const results = await Promise.all([confirm(confirmToken), confirm(confirmToken)]);
    expect(results.map((r) => r.statusCode).sort()).toEqual([200, 400]);
    expect(results.find((r) => r.statusCode === 400)!.json().code).toBe('EMAIL_CHANGE_USED');
    expect(await emailOf(u.id)).toBe('racer.new@example.com');
  });

  it('the old address secures the account: a new password ends every session and cancels the change', async () => {
    const u = await createUser(t, { email: 'victim@example.com', password: 'original1' });
    // someone with the session and the password asks to move the account to their mailbox
    expect((await ask(u, 'attacker@example.com')).statusCode).toBe(200);
    const { confirmToken, secureToken } = await linksFor('victim@example.com', 'attacker@example.com');
    const secured = await t.app.inject({ method: 'POST', url: '/api/users/reset-password', payload: { token: secureToken, password: 'owners-new-pass' } });
    expect(secured.statusCode).toBe(200);
    const live = await t.database.db.select().from(sessions).where(eq(sessions.userId, u.id));
    expect(live.every((s) => s.revokedAt !== null)).toBe(true);
    const res = await confirm(confirmToken);
    expect(res.statusCode).toBe(400);
    expect(res.json().code).toBe('EMAIL_CHANGE_CANCELLED');
    expect(await emailOf(u.id)).toBe('victim@example.com');
    expect((await signIn('victim@example.com', 'owners-new-pass')).statusCode).toBe(200);
  });

  it('an administrator\'s change (Admin → Users) takes effect at once; the old address is told, the new one gets nothing to confirm', async () => {
    const admin = await createAdmin(t);
    const u = await createUser(t, { name: 'Support Case', email: 'lost.mailbox@example.com', password: 'original1' });
    // a change the customer had asked for, and a reset link to the old address, both outstanding
    expect((await ask(u, 'customer.own.idea@example.com')).statusCode).toBe(200);
    const pending = (await linksFor('lost.mailbox@example.com', 'customer.own.idea@example.com')).confirmToken;
    const res = await t.app.inject({
      method: 'PUT', url: `/api/users/${u.id}`, headers: { cookie: admin.cookie },
      payload: { name: 'Support Case', email: 'Fresh.Mailbox@example.com', isAdmin: false },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ message: USER_MESSAGES.updated, user: { email: 'fresh.mailbox@example.com' } });
    expect(await emailOf(u.id)).toBe('fresh.mailbox@example.com');
    expect((await signIn('fresh.mailbox@example.com', 'original1')).statusCode).toBe(200);
    const notice = await mailTo('lost.mailbox@example.com', EMAIL_CHANGED_BY_ADMIN_SUBJECT);
    expect(notice?.mail.text).toContain("The shop's staff changed the e-mail address of your account to fresh.mailbox@example.com.");
    expect(notice?.mail.text).toContain('If you did not ask for this, contact us at once: http://localhost:3000/pages/contact');
    expect(await mailTo('fresh.mailbox@example.com', CONFIRM_EMAIL_CHANGE_SUBJECT)).toBeUndefined();
    expect((await confirm(pending)).json().code).toBe('EMAIL_CHANGE_CANCELLED');
    const resets = await t.database.db.select().from(passwordResets).where(eq(passwordResets.userId, u.id));
    expect(resets.every((r) => r.usedAt !== null)).toBe(true);
    // an edit that keeps the address (any case) tells no one
    const before = (await t.database.db.select().from(outbox)).length;
    const same = await t.app.inject({
      method: 'PUT', url: `/api/users/${u.id}`, headers: { cookie: admin.cookie },
      payload: { name: 'Support Case 2', email: 'FRESH.mailbox@example.com', isAdmin: false },
    });
    expect(same.statusCode).toBe(200);
    expect((await t.database.db.select().from(outbox)).length).toBe(before);
  });

  it('requests are limited per account (each mails two addresses)', async () => {
    const limited = await createTestApp({ env: { AUTH_RATE_LIMIT_MAX: '3' } });
    try {
      const u = await createUser(limited, { password: 'original1' });
      const attempt = (n: number) => limited.app.inject({
        method: 'PUT', url: '/api/users/profile', headers: { cookie: u.cookie }, payload: { name: 'N', email: `try-${n}@example.com`, currentPassword: 'original1' },
      });
      for (let i = 0; i < 3; i += 1) expect((await attempt(i)).statusCode).toBe(200);
      const blocked = await attempt(3);
      expect(blocked.statusCode).toBe(429);
      expect(blocked.json()).toEqual({ message: TOO_MANY_ATTEMPTS, code: 'RATE_LIMITED' });
      expect((await limited.database.db.select().from(emailChanges).where(eq(emailChanges.userId, u.id))).length).toBe(3);
      // the name alone is not limited
      expect((await limited.app.inject({ method: 'PUT', url: '/api/users/profile', headers: { cookie: u.cookie }, payload: { name: 'Only Name', email: u.email } })).statusCode).toBe(200);
    } finally {
      await limited.close();
    }
  });
});
