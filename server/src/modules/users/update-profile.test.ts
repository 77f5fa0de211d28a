import { EMAIL_IN_USE, INVALID_CREDENTIALS } from '@shop/contracts';
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

  it('updates name and e-mail and keeps the password when it is empty or missing', async () => {
    const u = await createUser(t, { password: 'original1' });
    const before = await passwordHashOf(u.id);
    const res = await put(u, { name: 'New Name', email: 'New.Address@Example.com', password: '' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ _id: u.id, name: 'New Name', email: 'new.address@example.com', isAdmin: false });
    const again = await put(u, { name: 'Newer Name', email: 'new.address@example.com' });
    expect(again.statusCode).toBe(200);
    expect(again.json().name).toBe('Newer Name');
    expect(await passwordHashOf(u.id)).toBe(before);
    expect((await signIn('new.address@example.com', 'original1')).statusCode).toBe(200);
  });

  it('changes the password, keeps the current session and ends the other ones', async () => {
    const u = await createUser(t, { password: 'original1' });
    const otherDevice = authCookies(await signIn(u.email, 'original1'));
    const res = await put(u, { name: u.name, email: u.email, password: 'brand-new-pass' });
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

  it('voids outstanding reset links when the password or e-mail changes', async () => {
    const u = await createUser(t);
    const id = newId();
    await t.database.db.insert(passwordResets).values({ id, userId: u.id, tokenHash: `h-${id}`, expiresAt: new Date(Date.now() + 3_600_000) });
    await put(u, { name: u.name, email: `moved-${u.email}` });
    const [row] = await t.database.db.select().from(passwordResets).where(eq(passwordResets.id, id));
    expect(row?.usedAt).toBeInstanceOf(Date);
  });

  it('refuses an e-mail that belongs to another account (any case) with 409 and changes nothing', async () => {
    const owner = await createUser(t, { email: 'owner@example.com' });
    const u = await createUser(t, { name: 'Unchanged' });
    const res = await put(u, { name: 'Changed', email: 'OWNER@example.com' });
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
    const pw = await put(u, { name: 'Ok', email: u.email, password: 'short' });
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

  it('never lets the body grant admin rights', async () => {
    const u = await createUser(t);
    const res = await put(u, { name: 'Sneaky', email: u.email, isAdmin: true });
    expect(res.statusCode).toBe(200);
    expect(res.json().isAdmin).toBe(false);
  });
});
