import {
  CURRENT_PASSWORD_INCORRECT, CURRENT_PASSWORD_REQUIRED, EMAIL_IN_USE, INVALID_CREDENTIALS, TOO_MANY_ATTEMPTS,
} from '@shop/contracts';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { passwordResets, sessions, users } from '../../db/schema.ts';
import { newId } from '../../lib/ids.ts';
import { createTestApp, createUser, type TestApp, type TestUser } from '../../test/test-app.ts';
import { accessCookie, authCookies } from './users.test-helpers.ts';

describe('PUT /api/users/profile', () => {
  let t: TestApp;
  beforeAll(async () => { t = await createTestApp(); });
  afterAll(async () => { await t.close(); });

  const put = (u: Pick<TestUser, 'cookie'>, payload: Record<string, unknown>) =>
    t.app.inject({ method: 'PUT', url: '/api/users/profile', headers: { cookie: u.cookie }, payload });
  const signIn = (email: string, password: string) => t.app.inject({ method: 'POST', url: '/api/users/signin', payload: { email, password } });
  const passwordHashOf = async (id: string) => (await t.database.db.select().from(users).where(eq(users.id, id)))[0]?.passwordHash;

  it('updates the name at once, asks for the new e-mail (kept pending) and keeps the password when it is empty or missing', async () => {
    const u = await createUser(t, { password: 'original1' });
    const before = await passwordHashOf(u.id);
    const res = await put(u, { name: 'New Name', email: 'New.Address@Example.com', password: '', currentPassword: 'original1' });
    expect(res.statusCode).toBe(200);
    // The account keeps its e-mail until the new address confirms it (email-change.test.ts).
    expect(res.json()).toEqual({ _id: u.id, name: 'New Name', email: u.email, isAdmin: false, pendingEmail: 'new.address@example.com' });
    const again = await put(u, { name: 'Newer Name', email: u.email });
    expect(again.statusCode).toBe(200);
    expect(again.json()).toEqual({ _id: u.id, name: 'Newer Name', email: u.email, isAdmin: false });
    expect(await passwordHashOf(u.id)).toBe(before);
    expect((await signIn(u.email, 'original1')).statusCode).toBe(200);
    expect((await signIn('new.address@example.com', 'original1')).statusCode).toBe(401);
  });

  it('changes the password, keeps the current session and ends the other ones', async () => {
    const u = await createUser(t, { password: 'original1' });
    const otherDevice = authCookies(await signIn(u.email, 'original1'));
    const res = await put(u, { name: u.name, email: u.email, password: 'brand-new-pass', currentPassword: 'original1' });
    expect(res.statusCode).toBe(200);

    const here = await t.app.inject({ method: 'GET', url: '/api/users/current', headers: { cookie: accessCookie(u.accessToken) } });
    expect(here.json()).toMatchObject({ _id: u.id });
    const there = await t.app.inject({ method: 'GET', url: '/api/users/current', headers: { cookie: accessCookie(otherDevice.access) } });
    expect(there.body).toBe('null');

    const old = await signIn(u.email, 'original1');
    expect(old.statusCode).toBe(401);
    expect(old.json().message).toBe(INVALID_CREDENTIALS);
    expect((await signIn(u.email, 'brand-new-pass')).statusCode).toBe(200);
  });

  it('voids outstanding reset links when the password changes (a new e-mail voids them once confirmed: email-change.test.ts)', async () => {
    const u = await createUser(t);
    const id = newId();
    await t.database.db.insert(passwordResets).values({ id, userId: u.id, tokenHash: `h-${id}`, expiresAt: new Date(Date.now() + 3_600_000) });
    expect((await put(u, { name: u.name, email: u.email, password: 'another-pass-1', currentPassword: u.password })).statusCode).toBe(200);
    const [row] = await t.database.db.select().from(passwordResets).where(eq(passwordResets.id, id));
    expect(row?.usedAt).toBeInstanceOf(Date);
  });

  it('refuses an e-mail that belongs to another account (any case) with 409 and changes nothing', async () => {
    const owner = await createUser(t, { email: 'owner@example.com' });
    const u = await createUser(t, { name: 'Unchanged' });
    const res = await put(u, { name: 'Changed', email: 'OWNER@example.com', currentPassword: u.password });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toEqual({ message: EMAIL_IN_USE, code: 'CONFLICT', fieldErrors: { email: EMAIL_IN_USE } });
    const [row] = await t.database.db.select().from(users).where(eq(users.id, u.id));
    expect(row).toMatchObject({ name: 'Unchanged', email: u.email });
    expect(owner.email).toBe('owner@example.com');
  });

  it('validates: name and e-mail required, a non-empty password must be long enough', async () => {
    const u = await createUser(t);
    const res = await put(u, { name: ' ', email: '', password: 'short' });
    expect(res.statusCode).toBe(400);
    expect(res.json().fieldErrors).toMatchObject({ name: 'Name is required', email: 'Email is required' });
    const pw = await put(u, { name: 'Ok', email: u.email, password: 'short', currentPassword: u.password });
    expect(pw.statusCode).toBe(400);
    expect(pw.json().fieldErrors.password).toMatch(/at least 8 characters/);
  });

  it('answers 401 when signed out or when the session was revoked', async () => {
    const anonymous = await t.app.inject({ method: 'PUT', url: '/api/users/profile', payload: { name: 'X', email: 'x@example.com' } });
    expect(anonymous.statusCode).toBe(401);
    expect(anonymous.json()).toEqual({ message: 'Not authorized, please sign in', code: 'UNAUTHORIZED' });
    const u = await createUser(t);
    await t.database.db.update(sessions).set({ revokedAt: new Date() }).where(eq(sessions.userId, u.id));
    expect((await put(u, { name: 'X', email: u.email })).statusCode).toBe(401);
  });

  it('requires the current password to change the e-mail or the password: 400 when missing, nothing changes', async () => {
    const u = await createUser(t, { name: 'Careful', password: 'original1' });
    const before = await passwordHashOf(u.id);
    for (const body of [
      { name: 'Careful', email: `new-${u.email}` },
      { name: 'Careful', email: `new-${u.email}`, currentPassword: '' },
      { name: 'Renamed', email: u.email, password: 'another-pass' },
    ]) {
      const res = await put(u, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json()).toEqual({
        message: CURRENT_PASSWORD_REQUIRED, code: 'CURRENT_PASSWORD_REQUIRED', fieldErrors: { currentPassword: CURRENT_PASSWORD_REQUIRED },
      });
    }
    const [row] = await t.database.db.select().from(users).where(eq(users.id, u.id));
    expect(row).toMatchObject({ name: 'Careful', email: u.email, passwordHash: before });
    // The name alone (or the same e-mail in another case) needs no password.
    const nameOnly = await put(u, { name: 'Just A Name', email: u.email.toUpperCase(), password: '' });
    expect(nameOnly.statusCode).toBe(200);
    expect(nameOnly.json().name).toBe('Just A Name');
  });

  it('401 with a wrong current password; nothing changes and the session stays', async () => {
    const u = await createUser(t, { name: 'Guarded', password: 'original1' });
    const before = await passwordHashOf(u.id);
    const res = await put(u, { name: 'Hacked', email: `hacker-${u.email}`, password: 'hacker-pass', currentPassword: 'not-the-password' });
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual({
      message: CURRENT_PASSWORD_INCORRECT, code: 'CURRENT_PASSWORD_INCORRECT', fieldErrors: { currentPassword: CURRENT_PASSWORD_INCORRECT },
    });
    const [row] = await t.database.db.select().from(users).where(eq(users.id, u.id));
    expect(row).toMatchObject({ name: 'Guarded', email: u.email, passwordHash: before });
    const current = await t.app.inject({ method: 'GET', url: '/api/users/current', headers: { cookie: u.cookie } });
    expect(current.json()).toMatchObject({ _id: u.id });
    // The wrong password is checked before the new address is looked at: no hint about other accounts.
    const other = await createUser(t);
    const probe = await put(u, { name: 'Guarded', email: other.email, currentPassword: 'not-the-password' });
    expect(probe.statusCode).toBe(401);
  });

  it('limits wrong current passwords per account (a stolen session cannot guess the password)', async () => {
    const limited = await createTestApp({ env: { AUTH_RATE_LIMIT_MAX: '3' } });
    try {
      const u = await createUser(limited, { password: 'original1' });
      const attempt = (currentPassword: string) => limited.app.inject({
        method: 'PUT', url: '/api/users/profile', headers: { cookie: u.cookie }, payload: { name: 'N', email: u.email, password: 'new-password1', currentPassword },
      });
      for (let i = 0; i < 3; i += 1) expect((await attempt(`guess-${i}`)).statusCode).toBe(401);
      const blocked = await attempt('original1');
      expect(blocked.statusCode).toBe(429);
      expect(blocked.json()).toEqual({ message: TOO_MANY_ATTEMPTS, code: 'RATE_LIMITED' });
      expect((await limited.database.db.select().from(users).where(eq(users.id, u.id)))[0]?.name).not.toBe('N');
    } finally {
      await limited.close();
    }
  });

  it('never lets the body grant admin rights', async () => {
    const u = await createUser(t);
    const res = await put(u, { name: 'Sneaky', email: u.email, isAdmin: true });
    expect(res.statusCode).toBe(200);
    expect(res.json().isAdmin).toBe(false);
  });
});
