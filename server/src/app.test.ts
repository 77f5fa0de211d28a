import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp, type App } from './app.ts';
import { users } from './db/schema.ts';
import { ORIGIN_NOT_ALLOWED } from './lib/origin-check.ts';
import { createTestApp, createUser, openTestDatabase, testConfig, type TestApp, type TestUser } from './test/test-app.ts';

// Who may call each route (every route x anonymous, customer, another customer, administrator): access-matrix.test.ts.

describe('error shape', () => {
  let app: App;
  let cleanup: () => Promise<void>;
  beforeAll(async () => {
    const opened = await openTestDatabase();
    cleanup = opened.cleanup;
    app = await buildApp({ config: testConfig(), database: opened.database, logger: false });
    app.get('/api/test/boom', { config: { access: 'public' } }, async () => {
      throw new Error('connect ECONNREFUSED 10.0.0.7:5432 password=hunter2 at /srv/app/db.ts');
    });
    app.get('/api/test/bad-gateway', { config: { access: 'public' } }, async () => {
      throw Object.assign(new Error('upstream said: internal stack detail'), { statusCode: 502 });
    });
    app.get('/api/test/sql', { config: { access: 'public' } }, async () => {
      await opened.database.query('SELECT * FROM table_that_does_not_exist');
      return {};
    });
    await app.ready();
  });
  afterAll(async () => {
    await app.close();
    await cleanup();
  });

  it('never leaks internal text in a 5xx body', async () => {
    for (const url of ['/api/test/boom', '/api/test/sql']) {
      const res = await app.inject({ method: 'GET', url });
      expect(res.statusCode).toBe(500);
      expect(res.json()).toEqual({ message: 'Internal Server Error', code: 'INTERNAL' });
    }
    const gateway = await app.inject({ method: 'GET', url: '/api/test/bad-gateway' });
    expect(gateway.statusCode).toBe(502);
    expect(gateway.json()).toEqual({ message: 'Internal Server Error', code: 'INTERNAL' });
  });

  it('answers 400 with a message for a malformed JSON body', async () => {
    const res = await app.inject({
      method: 'POST', url: '/api/users/signin', headers: { 'content-type': 'application/json' }, payload: '{"email": ',
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ message: 'Request body is not valid JSON', code: 'FST_ERR_CTP_INVALID_JSON_BODY' });
  });

  it('answers 400 with fieldErrors for a body that fails its schema', async () => {
    const res = await app.inject({ method: 'POST', url: '/api/users/signin', payload: { email: 'a@example.com' } });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ message: 'Password is required', code: 'VALIDATION_ERROR', fieldErrors: { password: 'Password is required' } });
  });

  it('answers 404 JSON for an unknown API route, even a write', async () => {
    const res = await app.inject({ method: 'POST', url: '/api/nope', payload: {} });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ message: 'Route POST /api/nope not found', code: 'NOT_FOUND' });
  });

  it('lists the users routes in the OpenAPI document with their tags and summaries', async () => {
    const doc = (await app.inject({ method: 'GET', url: '/api/docs/json' })).json() as {
      paths: Record<string, Record<string, { tags?: string[]; summary?: string; responses?: Record<string, unknown> }>>;
    };
    for (const [path, method] of [
      ['/api/users/signup', 'post'], ['/api/users/signin', 'post'], ['/api/users/signout', 'post'], ['/api/users/refresh-token', 'post'],
      ['/api/users/current', 'get'], ['/api/users/profile', 'put'], ['/api/users/forgot-password', 'post'], ['/api/users/reset-password', 'post'],
    ] as const) {
      const op = doc.paths[path]?.[method];
      expect(op, `${method} ${path}`).toBeDefined();
      expect(op?.tags).toEqual(['users']);
      expect(op?.summary).toBeTruthy();
    }
    // the declared user shape has no password field
    expect(JSON.stringify(doc.paths['/api/users/signin'])).not.toMatch(/password_?hash/i);
  });
});

describe('CSRF: cookie-authenticated writes from another origin are refused', () => {
  let t: TestApp;
  beforeAll(async () => { t = await createTestApp(); });
  afterAll(async () => { await t.close(); });

  const putProfile = (u: TestUser, headers: Record<string, string>) =>
    t.app.inject({ method: 'PUT', url: '/api/users/profile', headers: { cookie: u.cookie, host: 'shop.example', ...headers }, payload: { name: 'Hijacked', email: u.email } });
  const nameOf = async (id: string) => (await t.database.db.select().from(users).where(eq(users.id, id)))[0]?.name;

  it('refuses a foreign Origin with 403 and changes nothing', async () => {
    const u = await createUser(t, { name: 'Original' });
    const res = await putProfile(u, { origin: 'https://evil.example' });
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual({ message: ORIGIN_NOT_ALLOWED, code: 'FORBIDDEN' });
    expect(await nameOf(u.id)).toBe('Original');
  });

  it('refuses a foreign Referer when there is no Origin, an opaque "null" Origin, a look-alike host, another port or scheme', async () => {
    const u = await createUser(t, { name: 'Original' });
    const cases: Array<Record<string, string>> = [
      { referer: 'https://evil.example/attack.html' },
      { origin: 'null' },
      { origin: 'http://shop.example.evil.example' },
      { origin: 'http://shop.example:8080' },
      // same host, other scheme: the shop is served on http here
      { origin: 'https://shop.example' },
      { origin: 'https://shop.example:80' },
      { referer: 'https://shop.example/profile' },
    ];
    for (const headers of cases) {
      const res = await putProfile(u, headers);
      expect(res.statusCode, JSON.stringify(headers)).toBe(403);
    }
    expect(await nameOf(u.id)).toBe('Original');
  });

  it('refuses cross-site sign-out and sign-in (login CSRF)', async () => {
    const u = await createUser(t);
    const out = await t.app.inject({ method: 'POST', url: '/api/users/signout', headers: { cookie: u.cookie, origin: 'https://evil.example' } });
    expect(out.statusCode).toBe(403);
    const current = await t.app.inject({ method: 'GET', url: '/api/users/current', headers: { cookie: u.cookie } });
    expect(current.json()).toMatchObject({ _id: u.id });
    const signin = await t.app.inject({ method: 'POST', url: '/api/users/signin', headers: { origin: 'https://evil.example' }, payload: { email: u.email, password: u.password } });
    expect(signin.statusCode).toBe(403);
    expect(signin.cookies).toEqual([]);
  });

  it('accepts the same origin (default port omitted or not), a same-origin Referer, and no Origin at all', async () => {
    const u = await createUser(t, { name: 'Original' });
    expect((await putProfile(u, { origin: 'http://shop.example' })).statusCode).toBe(200);
    expect((await putProfile(u, { origin: 'HTTP://Shop.Example:80' })).statusCode).toBe(200);
    expect((await putProfile(u, { origin: 'http://shop.example', host: 'shop.example:80' })).statusCode).toBe(200);
    expect((await putProfile(u, { referer: 'http://shop.example/profile' })).statusCode).toBe(200);
    expect((await putProfile(u, {})).statusCode).toBe(200);
    expect(await nameOf(u.id)).toBe('Hijacked');
  });

  it('lets reads through whatever their Origin', async () => {
    const u = await createUser(t);
    const res = await t.app.inject({ method: 'GET', url: '/api/users/current', headers: { cookie: u.cookie, origin: 'https://evil.example' } });
    expect(res.statusCode).toBe(200);
  });
});

describe('CSRF with PUBLIC_URL behind a proxy', () => {
  let t: TestApp;
  beforeAll(async () => { t = await createTestApp({ env: { PUBLIC_URL: 'https://shop.example.com' } }); });
  afterAll(async () => { await t.close(); });

  it('accepts the public origin even when the Host header is the internal address', async () => {
    const u = await createUser(t);
    const res = await t.app.inject({
      method: 'PUT', url: '/api/users/profile',
      headers: { cookie: u.cookie, host: '10.0.0.5:3000', origin: 'https://shop.example.com' },
      payload: { name: 'Via Proxy', email: u.email },
    });
    expect(res.statusCode).toBe(200);
    const evil = await t.app.inject({
      method: 'PUT', url: '/api/users/profile',
      headers: { cookie: u.cookie, host: '10.0.0.5:3000', origin: 'https://evil.example' },
      payload: { name: 'Evil', email: u.email },
    });
    expect(evil.statusCode).toBe(403);
  });

  it('compares scheme, host and port with PUBLIC_URL only', async () => {
    const u = await createUser(t);
    for (const origin of ['http://shop.example.com', 'https://shop.example.com:8443', 'http://10.0.0.5:3000']) {
      const res = await t.app.inject({
        method: 'PUT', url: '/api/users/profile',
        headers: { cookie: u.cookie, host: '10.0.0.5:3000', origin },
        payload: { name: 'Wrong origin', email: u.email },
      });
      expect(res.statusCode, origin).toBe(403);
      expect(res.json()).toEqual({ message: ORIGIN_NOT_ALLOWED, code: 'FORBIDDEN' });
    }
    const ok = await t.app.inject({
      method: 'PUT', url: '/api/users/profile',
      headers: { cookie: u.cookie, host: '10.0.0.5:3000', origin: 'https://shop.example.com:443' },
      payload: { name: 'Right origin', email: u.email },
    });
    expect(ok.statusCode).toBe(200);
  });
});

describe('CSRF behind a TLS proxy without PUBLIC_URL', () => {
  let t: TestApp;
  beforeAll(async () => { t = await createTestApp({ env: { TRUST_PROXY: 'true' } }); });
  afterAll(async () => { await t.close(); });

  it("takes the request's own scheme from X-Forwarded-Proto (TRUST_PROXY) and compares it", async () => {
    const u = await createUser(t);
    const put = (origin: string, proto: string) => t.app.inject({
      method: 'PUT', url: '/api/users/profile',
      headers: { cookie: u.cookie, host: 'shop.example', 'x-forwarded-proto': proto, origin },
      payload: { name: 'Proxied', email: u.email },
    });
    expect((await put('https://shop.example', 'https')).statusCode).toBe(200);
    expect((await put('http://shop.example', 'https')).statusCode).toBe(403);
    expect((await put('https://shop.example', 'http')).statusCode).toBe(403);
  });
});
