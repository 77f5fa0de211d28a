import { INVALID_CREDENTIALS } from '@shop/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, createUser, type TestApp } from '../../test/test-app.ts';
import { authCookies } from './users.test-helpers.ts';

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
