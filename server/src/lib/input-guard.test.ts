import { count, eq } from 'drizzle-orm';
import { z } from 'zod';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { users } from '../db/schema.ts';
import { insertProduct } from '../modules/products/test-factories.ts';
import { buildApp } from '../app.ts';
import { createAdmin, createTestApp, createUser, openTestDatabase, testConfig, type TestApp } from '../test/test-app.ts';
import { findNulPath, NUL_NOT_ALLOWED } from './input-guard.ts';

const nulError = (context: string, field: string) => ({
  message: `Invalid ${context} field '${field}': ${NUL_NOT_ALLOWED}`,
  code: 'VALIDATION_ERROR',
  fieldErrors: { [field]: NUL_NOT_ALLOWED },
});

describe('findNulPath', () => {
  it('finds NUL in values and keys at any depth, and names the field', () => {
    expect(findNulPath({ a: 'ok', b: ['x', 'y\u0000'] })).toBe('b.1');
    expect(findNulPath({ nested: { ['k\u0000ey']: 1 } })).toBe('nested.k\\u0000ey');
    expect(findNulPath('plain\u0000')).toBe('');
    expect(findNulPath({ a: 'fine', n: 1, b: true, c: null })).toBeNull();
  });

  it('walks a deeply nested value without overflowing the stack', () => {
    let deep: unknown = 'end\u0000';
    for (let i = 0; i < 200_000; i += 1) deep = [deep];
    const path = findNulPath(deep);
    expect(path).toBe('0.0.0.0.0.0.....0.0.0.0.0');
  });
});

describe('NUL characters are refused centrally: 400 naming the field, nothing stored', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
    await insertProduct(t, { name: 'Mug', slug: 'mug', category: 'Kitchen' });
  });
  afterAll(async () => { await t.close(); });

  it('in a JSON body field (sign-up name): 400, no account', async () => {
    const before = (await t.database.db.select({ n: count() }).from(users))[0]?.n;
    const res = await t.app.inject({
      method: 'POST', url: '/api/users/signup', payload: { name: 'Ev\u0000e', email: 'eve@example.com', password: 'password123' },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual(nulError('body', 'name'));
    expect((await t.database.db.select({ n: count() }).from(users))[0]?.n).toBe(before);
  });

  it('in a nested body field and in a body key', async () => {
    const u = await createUser(t);
    const res = await t.app.inject({
      method: 'POST', url: '/api/addresses', headers: { cookie: u.cookie },
      payload: { fullName: 'A', address: 'Street\u00001', city: 'C', postalCode: '1', country: 'X' },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual(nulError('body', 'address'));
    const key = await t.app.inject({ method: 'POST', url: '/api/users/signin', payload: { email: 'a@example.com', password: 'x', ['x\u0000']: 1 } });
    expect(key.statusCode).toBe(400);
    expect(key.json()).toEqual(nulError('body', 'x\\u0000'));
  });

  it('in a query parameter (%00), anonymous: GET /api/products/search?category=%00', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/products/search?category=%00' });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual(nulError('query', 'category'));
    const query = await t.app.inject({ method: 'GET', url: '/api/products/search?query=head%00phones&page=1' });
    expect(query.json()).toEqual(nulError('query', 'query'));
  });

  it('in a path parameter: GET /api/products/slug/%00 and an admin route', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/products/slug/a%00b' });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual(nulError('params', 'slug'));
    const admin = await createAdmin(t);
    const put = await t.app.inject({ method: 'PUT', url: '/api/products/%00', headers: { cookie: admin.cookie }, payload: {} });
    expect(put.statusCode).toBe(400);
    expect(put.json()).toEqual(nulError('params', 'id'));
  });

  it('a signed-in route still answers 401 first to an anonymous caller', async () => {
    const res = await t.app.inject({ method: 'PUT', url: '/api/users/profile', payload: { name: '\u0000' } });
    expect(res.statusCode).toBe(401);
  });

  it('control characters other than NUL are not refused by this rule', async () => {
    const u = await createUser(t, { name: 'Tab' });
    const res = await t.app.inject({
      method: 'PUT', url: '/api/users/profile', headers: { cookie: u.cookie }, payload: { name: 'Tab\there', email: u.email },
    });
    expect(res.statusCode).toBe(200);
    expect((await t.database.db.select().from(users).where(eq(users.id, u.id)))[0]?.name).toBe('Tab\there');
  });
});

describe('a route added later is covered without any code of its own', () => {
  let seen = 0;

  it('applies to a route registered in a plugin after the app was built', async () => {
    const { database, cleanup } = await openTestDatabase();
    const fresh = await buildApp({ config: testConfig(), database, logger: false });
    await fresh.register(async (child) => {
      child.post('/api/later/:code', {
        config: { access: 'public' },
        schema: { params: z.object({ code: z.string() }), querystring: z.object({ q: z.string().optional() }), body: z.object({ text: z.string() }) },
      }, async () => {
        seen += 1;
        return { ok: true };
      });
    });
    await fresh.ready();
    try {
      const body = await fresh.inject({ method: 'POST', url: '/api/later/x', payload: { text: 'a\u0000' } });
      expect(body.json()).toEqual(nulError('body', 'text'));
      const query = await fresh.inject({ method: 'POST', url: '/api/later/x?q=%00', payload: { text: 'a' } });
      expect(query.json()).toEqual(nulError('query', 'q'));
      const params = await fresh.inject({ method: 'POST', url: '/api/later/%00', payload: { text: 'a' } });
      expect(params.json()).toEqual(nulError('params', 'code'));
      expect(seen).toBe(0);
      expect((await fresh.inject({ method: 'POST', url: '/api/later/x?q=1', payload: { text: 'fine' } })).statusCode).toBe(200);
      expect(seen).toBe(1);
    } finally {
      await fresh.close();
      await cleanup();
    }
  });
});
