import { INVALID_CREDENTIALS, USER_EXISTS } from '@shop/contracts';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { users } from '../../db/schema.ts';
import { ACCESS_COOKIE, REFRESH_COOKIE, REFRESH_COOKIE_PATH } from '../../lib/auth.ts';
import { createTestApp, createUser, type TestApp } from '../../test/test-app.ts';
import { authCookies } from './users.test-helpers.ts';

describe('POST /api/users/signup', () => {
  let t: TestApp;
  beforeAll(async () => { t = await createTestApp(); });
  afterAll(async () => { await t.close(); });

  it('creates a customer, answers 201 with the user only and sets HTTP-only auth cookies', async () => {
    const res = await t.app.inject({
      method: 'POST', url: '/api/users/signup',
      payload: { name: '  Ada Lovelace ', email: 'Ada@Example.com', password: 'correct horse' },
    });
    expect(res.statusCode).toBe(201);
    const body = res.json();
    expect(Object.keys(body).sort()).toEqual(['_id', 'email', 'isAdmin', 'name']);
    expect(body).toMatchObject({ name: 'Ada Lovelace', email: 'ada@example.com', isAdmin: false });
    expect(body._id).toMatch(/^[0-9a-f]{24}$/);
    expect(res.body).not.toContain('argon2');

    const access = res.cookies.find((c) => c.name === ACCESS_COOKIE);
    const refresh = res.cookies.find((c) => c.name === REFRESH_COOKIE);
    expect(access).toMatchObject({ httpOnly: true, sameSite: 'Lax', path: '/' });
    expect(refresh).toMatchObject({ httpOnly: true, sameSite: 'Strict', path: REFRESH_COOKIE_PATH });

    const current = await t.app.inject({ method: 'GET', url: '/api/users/current', headers: { cookie: authCookies(res).header } });
    expect(current.statusCode).toBe(200);
    expect(current.json()).toEqual(body);

    const [row] = await t.database.db.select().from(users).where(eq(users.id, body._id));
    expect(row?.passwordHash).toMatch(/^\$argon2id\$/);
  });

  it('refuses a second account for the same e-mail in any letter case with 409', async () => {
    await createUser(t, { email: 'taken@example.com' });
    const res = await t.app.inject({
      method: 'POST', url: '/api/users/signup',
      payload: { name: 'Someone', email: 'TAKEN@example.COM', password: 'password123' },
    });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toEqual({ message: USER_EXISTS, code: 'CONFLICT', fieldErrors: { email: USER_EXISTS } });
    expect(res.cookies).toEqual([]);
  });

  it('answers 409 to one of two concurrent sign-ups with the same e-mail', async () => {
    const payload = { name: 'Racer', email: 'race@example.com', password: 'password123' };
    const results = await Promise.all([1, 2, 3].map(() => t.app.inject({ method: 'POST', url: '/api/users/signup', payload })));
    expect(results.map((r) => r.statusCode).sort()).toEqual([201, 409, 409]);
  });

  it('validates the body with 400 and field errors', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/api/users/signup', payload: { name: '', email: 'not-an-email', password: 'short' } });
    expect(res.statusCode).toBe(400);
    const body = res.json();
    expect(body.code).toBe('VALIDATION_ERROR');
    expect(body.fieldErrors).toEqual({
      name: 'Name is required',
      email: 'Please enter a valid email address',
      password: 'Password must be at least 8 characters',
    });
    expect(body.message).toBe('Name is required');
  });

  it('never makes an administrator, whatever the body says', async () => {
    const res = await t.app.inject({
      method: 'POST', url: '/api/users/signup',
      payload: { name: 'Mallory', email: 'mallory@example.com', password: 'password123', isAdmin: true },
    });
    expect(res.statusCode).toBe(201);
    expect(res.json().isAdmin).toBe(false);
  });
});

describe('POST /api/users/signin', () => {
  let t: TestApp;
  beforeAll(async () => { t = await createTestApp(); });
  afterAll(async () => { await t.close(); });

  it('signs in with the right password (e-mail in any case) and sets cookies', async () => {
    const u = await createUser(t, { name: 'Grace', email: 'grace@example.com', password: 'hopper123' });
    const res = await t.app.inject({ method: 'POST', url: '/api/users/signin', payload: { email: ' GRACE@example.com ', password: 'hopper123' } });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ _id: u.id, name: 'Grace', email: 'grace@example.com', isAdmin: false });
    const cookies = authCookies(res);
    expect(cookies.access).not.toBe('');
    expect(cookies.refresh).not.toBe('');
    const current = await t.app.inject({ method: 'GET', url: '/api/users/current', headers: { cookie: cookies.header } });
    expect(current.json()).toMatchObject({ _id: u.id });
  });

  it('reports an admin as isAdmin', async () => {
    await createUser(t, { email: 'boss@example.com', password: 'boss12345', isAdmin: true });
    const res = await t.app.inject({ method: 'POST', url: '/api/users/signin', payload: { email: 'boss@example.com', password: 'boss12345' } });
    expect(res.statusCode).toBe(200);
    expect(res.json().isAdmin).toBe(true);
  });

  it('answers 401 with one message for a wrong password and for an unknown e-mail', async () => {
    await createUser(t, { email: 'known@example.com', password: 'password123' });
    const wrong = await t.app.inject({ method: 'POST', url: '/api/users/signin', payload: { email: 'known@example.com', password: 'nope-nope' } });
    const unknown = await t.app.inject({ method: 'POST', url: '/api/users/signin', payload: { email: 'nobody@example.com', password: 'password123' } });
    for (const res of [wrong, unknown]) {
      expect(res.statusCode).toBe(401);
      expect(res.json()).toEqual({ message: INVALID_CREDENTIALS, code: 'INVALID_CREDENTIALS' });
      expect(res.cookies).toEqual([]);
    }
  });

  it('requires e-mail and password (400)', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/api/users/signin', payload: { email: '', password: '' } });
    expect(res.statusCode).toBe(400);
    expect(res.json().fieldErrors).toEqual({ email: 'Email is required', password: 'Password is required' });
    const noBody = await t.app.inject({ method: 'POST', url: '/api/users/signin' });
    expect(noBody.statusCode).toBe(400);
    expect(noBody.json().code).toBe('VALIDATION_ERROR');
  });
});
