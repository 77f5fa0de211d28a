import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../app.ts';
import { openDatabase, type Database } from '../db/client.ts';
import { migrate } from '../db/migrate.ts';
import { insertProduct } from '../modules/products/test-factories.ts';
import { cleanValue, jsonSchemaOf, type Json, type JsonSchema } from '../test/fuzz/arbitraries.ts';
import { startTcpProxy, type TcpProxy } from '../test/tcp-proxy.ts';
import { createScratchPostgres, createUser, TEST_DB, testConfig, type TestApp, type TestUser } from '../test/test-app.ts';
import { listRegisteredRoutes, type RegisteredRoute } from './auth.ts';
import { DATABASE_UNAVAILABLE_MESSAGE } from './errors.ts';

/*
 * PostgreSQL unreachable: the shop reaches its database through a local TCP proxy that the test
 * closes (every connection reset, new ones refused). Every route of the route table, called by an
 * anonymous visitor, a customer and an administrator with well-formed input, must answer without
 * a 5xx other than 503, and every 503 carries Retry-After and the outage message. When the proxy
 * opens again the same app serves again, without a restart.
 */
// PostgreSQL only (the postgres project, which exists when TEST_DATABASE_URL is set).
const RUN = Boolean(process.env.TEST_DATABASE_URL) && TEST_DB === 'postgres';
type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
type Role = 'anonymous' | 'customer' | 'admin';

describe.skipIf(!RUN)('PostgreSQL outage: 503 + Retry-After on every route, recovery without restart', () => {
  let scratch: { url: string; drop: () => Promise<void> };
  let proxy: TcpProxy;
  let database: Database;
  let t: TestApp;
  let accounts: Record<Exclude<Role, 'anonymous'>, TestUser>;
  let productId: string;
  let productSlug: string;

  beforeAll(async () => {
    scratch = await createScratchPostgres();
    const target = new URL(scratch.url);
    const direct = await openDatabase({ databaseUrl: scratch.url, poolSize: 2 });
    await migrate(direct);
    await direct.close();
    proxy = await startTcpProxy({ host: target.hostname, port: Number(target.port || 5432) });
    const viaProxy = new URL(scratch.url);
    viaProxy.hostname = '127.0.0.1';
    viaProxy.port = String(proxy.port);
    database = await openDatabase({ databaseUrl: viaProxy.toString(), poolSize: 5, connectTimeoutSeconds: 3 });
    const config = testConfig({ PAYPAL_API_BASE: 'http://127.0.0.1:9', CJ_API_BASE: 'http://127.0.0.1:9', AUTH_RATE_LIMIT_MAX: '100000' });
    const app = await buildApp({ config, database, logger: false });
    await app.ready();
    t = { app, database, config, close: async () => { await app.close(); await database.close(); } };
    accounts = { customer: await createUser(t, { name: 'Outage Customer' }), admin: await createUser(t, { name: 'Outage Admin', isAdmin: true }) };
    const product = await insertProduct(t, { name: 'Outage Lamp', slug: 'outage-lamp', price: 25, countInStock: 50 });
    productId = product!.id;
    productSlug = 'outage-lamp';
  }, 120_000);

  afterAll(async () => {
    await proxy?.open().catch(() => undefined);
    await t?.close().catch(() => undefined);
    await proxy?.close();
    await scratch?.drop();
  }, 60_000);

  /** One well-formed request per route: path parameters from a real row, a body and query from the schema (fixed seed). */
  function requestFor(route: RegisteredRoute, seed: number) {
    const pools = { strings: [productId, productSlug, accounts.customer.email] };
    const sample = (schema: unknown): Json | undefined => {
      const js = jsonSchemaOf(schema);
      if (!js) return undefined;
      return fc.sample(cleanValue(js, pools), { numRuns: 1, seed })[0];
    };
    const path = route.url
      .replace(/:([A-Za-z0-9_]+)/g, (_m, name: string) => (/slug/i.test(name) ? productSlug : productId))
      .replace('*', 'x');
    const query = sample(route.schema?.querystring);
    const qs = query && typeof query === 'object' && !Array.isArray(query)
      ? new URLSearchParams(Object.entries(query).filter(([, v]) => v !== null && typeof v !== 'object').map(([k, v]) => [k, String(v)])).toString()
      : '';
    const body = (route.schema?.body ? sample(route.schema.body) : undefined) as Json | undefined;
    return { url: qs ? `${path}?${qs}` : path, body, bodySchema: jsonSchemaOf(route.schema?.body) as JsonSchema | undefined };
  }

  it('answers 503 with Retry-After (never another 5xx) on every route while the database is unreachable, and recovers', async () => {
    const before = await t.app.inject({ method: 'GET', url: '/api/products' });
    expect(before.statusCode).toBe(200);

    await proxy.close();
    const routes = listRegisteredRoutes(t.app).filter((r) => r.method !== 'HEAD' && r.method !== 'OPTIONS' && !r.isWebsocket);
    expect(routes.length).toBeGreaterThan(50);
    const failures: string[] = [];
    const statuses = new Map<number, number>();
    let unavailable = 0;
    let seed = 1;
    for (const route of routes) {
      for (const role of ['anonymous', 'customer', 'admin'] as const) {
        const req = requestFor(route, seed++);
        const headers: Record<string, string> = {};
        if (role !== 'anonymous') headers.cookie = accounts[role].cookie;
        let payload: string | undefined;
        if (req.body !== undefined && route.method !== 'GET') {
          headers['content-type'] = 'application/json';
          payload = JSON.stringify(req.body);
        }
        const res = await t.app.inject({ method: route.method as Method, url: req.url, headers, ...(payload !== undefined ? { payload } : {}) });
        statuses.set(res.statusCode, (statuses.get(res.statusCode) ?? 0) + 1);
        const label = `${role} ${route.method} ${req.url} → ${res.statusCode}`;
        if (res.statusCode >= 500 && res.statusCode !== 503) failures.push(`${label}: ${res.body.slice(0, 200)}`);
        // A signed-in visitor is never told to sign in again because the database is away.
        if (role !== 'anonymous' && route.access !== 'public' && res.statusCode === 401) failures.push(`${label}: signed out by the outage`);
        if (res.statusCode === 503) {
          unavailable += 1;
          if (res.headers['retry-after'] !== '5') failures.push(`${label}: Retry-After ${String(res.headers['retry-after'])}`);
          const message = (res.json() as { message?: string }).message;
          if (route.url !== '/api/ready' && message !== DATABASE_UNAVAILABLE_MESSAGE) failures.push(`${label}: message ${message}`);
        }
      }
    }
    const histogram = [...statuses].sort(([a], [b]) => a - b).map(([s, n]) => `${s}×${n}`).join(' ');
    console.info(`database outage: ${routes.length} routes × 3 roles; ${unavailable} × 503; statuses ${histogram}`);
    expect(failures).toEqual([]);
    // The catalogue, sign-in and every signed-in route read the database: most answers are 503.
    expect(unavailable).toBeGreaterThan(routes.length);
    // A search nobody made yet (a catalogue answer made seconds ago may still be served from the
    // instance's micro-cache, which is fine during an outage): it needs the database.
    const products = await t.app.inject({ method: 'GET', url: `/api/products/search?query=outage${Date.now()}` });
    expect(products.statusCode).toBe(503);
    const ready = await t.app.inject({ method: 'GET', url: '/api/ready' });
    expect(ready.statusCode).toBe(503);
    // The load balancer's check stays 200: the instance stays in rotation and answers its own 503s.
    const live = await t.app.inject({ method: 'GET', url: '/api/live' });
    expect(live.statusCode).toBe(200);
    expect(live.json()).toEqual({ status: 'live' });

    // The database is back: the same app serves again (the pool reconnects by itself).
    await proxy.open();
    const deadline = Date.now() + 60_000;
    let status = 0;
    while (Date.now() < deadline) {
      status = (await t.app.inject({ method: 'GET', url: '/api/products' })).statusCode;
      if (status === 200) break;
      await new Promise((r) => setTimeout(r, 250));
    }
    expect(status).toBe(200);
    expect((await t.app.inject({ method: 'GET', url: '/api/ready' })).statusCode).toBe(200);
    const signIn = await t.app.inject({ method: 'POST', url: '/api/users/signin', payload: { email: accounts.customer.email, password: accounts.customer.password } });
    expect(signIn.statusCode).toBe(200);
    const mine = await t.app.inject({ method: 'GET', url: '/api/orders/mine', headers: { cookie: accounts.customer.cookie } });
    expect(mine.statusCode).toBe(200);
  }, 240_000);
});
