import { createHash } from 'node:crypto';
import fc from 'fast-check';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { reviews, users } from './db/schema.ts';
import { listRegisteredRoutes, startSession, type RegisteredRoute } from './lib/auth.ts';
import { newId } from './lib/ids.ts';
import { hashPassword } from './lib/passwords.ts';
import { insertProduct } from './modules/products/test-factories.ts';
import { createAddressFor, placeOrderFor } from './test/commerce-factories.ts';
import {
  cleanValue, encodeComponent, jsonSchemaOf, mutant, rawPathSegment, wrongType, type Json, type JsonSchema, type ValuePools,
} from './test/fuzz/arbitraries.ts';
import { createTestApp, createUser, TEST_DB, type TestApp, type TestUser } from './test/test-app.ts';

/*
 * Route fuzz test: every route the app registers (whoever wrote it, whenever it is merged) is called
 * as an anonymous visitor, a customer and an administrator with inputs generated from the route's
 * own zod schemas (params, query string, body): NUL and control characters, huge strings, wrong
 * types, deep JSON, broken and hostile bodies (invalid JSON, multipart without boundary, ...), and
 * ids, slugs and e-mail addresses of rows that exist. No answer may be a 5xx. Fixed seed, bounded
 * count: the same requests on every run.
 */

const SEED = 20_241_124;
/** About this many generated requests in all, shared out over routes and roles (at least 4 each). */
const REQUEST_BUDGET = Number(process.env.FUZZ_REQUESTS ?? 1500);
const REQUEST_TIMEOUT_MS = 20_000;

type Role = 'anonymous' | 'customer' | 'admin';
const ROLES: Role[] = ['anonymous', 'customer', 'admin'];
type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

interface GeneratedRequest {
  params: Record<string, { value: string; raw: boolean }>;
  query: Array<[string, string]>;
  body: { kind: 'none' } | { kind: 'json'; value: Json } | { kind: 'raw'; contentType: string; payload: string };
  ip: string;
}

/** Where one field of a request lives: a path parameter, a query key, or a path into the JSON body. */
interface Target {
  where: 'params' | 'query' | 'body';
  path: string[];
}

interface Failure {
  route: string;
  role: Role;
  status: number | 'timeout';
  url: string;
  body: string;
  response: string;
}

const paramNames = (url: string) => [...url.matchAll(/:([A-Za-z0-9_]+)/g)].map((m) => m[1]!).concat(url.includes('*') ? ['*'] : []);

/** Turns a value into query string values: arrays repeat the key, everything else is text. */
function queryPairs(value: Json): Array<[string, string]> {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return value === null ? [] : [['q', JSON.stringify(value)]];
  const pairs: Array<[string, string]> = [];
  for (const [k, v] of Object.entries(value)) {
    if (Array.isArray(v)) for (const item of v.slice(0, 3)) pairs.push([k, typeof item === 'string' ? item : JSON.stringify(item) ?? '']);
    else if (v !== null && typeof v === 'object') pairs.push([k, JSON.stringify(v).slice(0, 5000)]);
    else pairs.push([k, String(v)]);
  }
  return pairs;
}

const BOUNDARY = 'fuzz-boundary';
const multipart = (parts: Array<{ name: string; filename?: string; data: string }>) =>
  parts
    .map((p) => `--${BOUNDARY}\r\nContent-Disposition: form-data; name="${p.name}"${p.filename !== undefined ? `; filename="${p.filename}"\r\nContent-Type: image/png` : ''}\r\n\r\n${p.data}\r\n`)
    .join('') + `--${BOUNDARY}--\r\n`;

/** Bodies that are not the JSON the route expects. */
const rawBody: fc.Arbitrary<{ kind: 'raw'; contentType: string; payload: string }> = fc.oneof(
  fc.constantFrom(
    { contentType: 'application/json', payload: '{"a":' },
    { contentType: 'application/json', payload: '' },
    { contentType: 'application/json', payload: 'null' },
    { contentType: 'application/json', payload: '"\\u0000"' },
    { contentType: 'application/json', payload: '{"__proto__":{"isAdmin":true},"constructor":{"prototype":{"x":1}}}' },
    { contentType: 'application/json', payload: '['.repeat(200_000) + ']'.repeat(200_000) },
    { contentType: 'application/json', payload: `{"a":"${'x'.repeat(1_100_000)}"}` },
    { contentType: 'application/json; charset=utf-16', payload: '{}' },
    { contentType: 'multipart/form-data', payload: multipart([{ name: 'file', filename: 'a.png', data: 'not an image' }]) },
    { contentType: `multipart/form-data; boundary=${BOUNDARY}`, payload: 'garbage without any boundary' },
    { contentType: `multipart/form-data; boundary=${BOUNDARY}`, payload: multipart([{ name: 'file', filename: 'a\u0000.png', data: '\u0089PNG' }]) },
    { contentType: `multipart/form-data; boundary=${BOUNDARY}`, payload: multipart([{ name: 'x\u0000', data: 'v\u0000' }, { name: 'file', filename: 'a.png', data: 'x' }]) },
    { contentType: `multipart/form-data; boundary=${BOUNDARY}`, payload: multipart([{ name: 'file', filename: 'a.png', data: 'x' }]).slice(0, 50) },
    { contentType: `multipart/form-data; boundary=${BOUNDARY}`, payload: multipart(Array.from({ length: 30 }, (_, i) => ({ name: `f${i}`, data: 'v' }))) },
    { contentType: 'text/plain', payload: 'hello\u0000' },
    { contentType: 'application/x-www-form-urlencoded', payload: 'a=1&b=%00' },
    { contentType: 'application/xml', payload: '<a/>' },
  ),
  fc.tuple(fc.constantFrom('application/json', 'text/plain', `multipart/form-data; boundary=${BOUNDARY}`), fc.string({ unit: 'binary', maxLength: 200 }))
    .map(([contentType, payload]) => ({ contentType, payload })),
).map((b) => ({ kind: 'raw' as const, ...b }));

/** Every field a route declares: its path parameters, query keys and body properties (nested ones too). */
function targetsOf(route: RegisteredRoute): Target[] {
  const targets: Target[] = paramNames(route.url).map((name) => ({ where: 'params' as const, path: [name] }));
  const query = jsonSchemaOf(route.schema?.querystring);
  for (const key of Object.keys(query?.properties ?? {})) targets.push({ where: 'query', path: [key] });
  if (!query) targets.push({ where: 'query', path: ['q'] });
  const walk = (schema: JsonSchema | undefined, path: string[]) => {
    const alternatives = schema?.anyOf ?? schema?.oneOf ?? [];
    for (const s of [schema, ...alternatives]) {
      for (const [key, child] of Object.entries(s?.properties ?? {})) {
        targets.push({ where: 'body', path: [...path, key] });
        if (path.length < 3) walk(child, [...path, key]);
      }
      if (s?.items && path.length < 3) walk(s.items, [...path, '0']);
    }
  };
  if (route.method !== 'GET' && route.method !== 'DELETE') {
    const body = jsonSchemaOf(route.schema?.body);
    walk(body, []);
    if (!body?.properties) targets.push({ where: 'body', path: ['x'] });
  }
  return targets;
}

/** Sets `value` at `path` inside `root` (a JSON object), creating the objects on the way. */
function setAt(root: Json, path: string[], value: Json): Json {
  const top: Record<string, Json> = root !== null && typeof root === 'object' && !Array.isArray(root) ? { ...root } : {};
  let node: Record<string, Json> | Json[] = top;
  for (const [i, key] of path.entries()) {
    if (i === path.length - 1) {
      (node as Record<string, Json>)[key] = value;
      break;
    }
    const next: Json | undefined = (node as Record<string, Json>)[key];
    const copy: Record<string, Json> | Json[] = Array.isArray(next) ? [...next] : next !== null && typeof next === 'object' ? { ...next } : {};
    (node as Record<string, Json>)[key] = copy as Json;
    node = copy;
  }
  return top;
}

interface CleanParts {
  params: Record<string, Json>;
  query: Json;
  body: Json | undefined;
}

/** A well-formed request for the route: declared params, query and body, optional fields often left out. */
function cleanArbitrary(route: RegisteredRoute, pools: ValuePools): fc.Arbitrary<CleanParts> {
  const paramsSchema = jsonSchemaOf(route.schema?.params);
  const params: Record<string, fc.Arbitrary<Json>> = {};
  for (const name of paramNames(route.url)) {
    params[name] = fc.oneof({ arbitrary: fc.constantFrom(...pools.strings), weight: 3 }, { arbitrary: cleanValue(paramsSchema?.properties?.[name] ?? { type: 'string' }, pools), weight: 1 });
  }
  const querySchema = jsonSchemaOf(route.schema?.querystring);
  const bodySchema = jsonSchemaOf(route.schema?.body);
  const writes = route.method !== 'GET' && route.method !== 'DELETE';
  return fc.record({
    params: fc.record(params),
    query: querySchema ? cleanValue(querySchema, pools) : fc.constant({}),
    body: writes ? cleanValue(bodySchema ?? {}, pools) : fc.constant(undefined),
  });
}

/** Turns clean parts plus one changed field into the request sent. */
function assemble(route: RegisteredRoute, clean: CleanParts, change: { target: Target; value: Json; raw?: boolean } | null, ip: string): GeneratedRequest {
  const params: GeneratedRequest['params'] = {};
  for (const [name, v] of Object.entries(clean.params)) params[name] = { value: typeof v === 'string' ? v : JSON.stringify(v) ?? '', raw: false };
  let query = clean.query;
  let body = clean.body;
  if (change) {
    const { target, value } = change;
    if (target.where === 'params') params[target.path[0]!] = { value: typeof value === 'string' ? value : JSON.stringify(value) ?? '', raw: change.raw ?? false };
    else if (target.where === 'query') query = setAt(query, target.path, value);
    else body = setAt(body ?? {}, target.path, value);
  }
  return {
    params,
    query: queryPairs(query),
    body: body === undefined ? { kind: 'none' } : { kind: 'json', value: body },
    ip,
  };
}

/**
 * A generated request: a well-formed one with one field replaced by a hostile value (NUL and
 * control characters most often, huge or odd strings, wrong types, deep JSON), or a broken body
 * (invalid JSON, multipart without boundary, ...), or left as it is.
 */
function requestArbitrary(route: RegisteredRoute, pools: ValuePools): fc.Arbitrary<GeneratedRequest> {
  const targets = targetsOf(route);
  const ip = fc.tuple(fc.integer({ min: 1, max: 254 }), fc.integer({ min: 1, max: 254 })).map(([a, b]) => `10.77.${a}.${b}`);
  const change = fc.oneof(
    { arbitrary: fc.constant(null), weight: 1 },
    { arbitrary: fc.record({ target: fc.constantFrom(...targets), value: mutant }), weight: 6 },
    ...(targets.some((t) => t.where === 'params')
      ? [{ arbitrary: fc.record({ target: fc.constantFrom(...targets.filter((t) => t.where === 'params')), value: rawPathSegment as fc.Arbitrary<Json>, raw: fc.constant(true) }), weight: 1 }]
      : []),
  );
  const writes = route.method !== 'GET' && route.method !== 'DELETE';
  const bodyOverride: fc.Arbitrary<GeneratedRequest['body'] | null> = fc.oneof(
    { arbitrary: fc.constant(null), weight: writes ? 6 : 12 },
    { arbitrary: rawBody, weight: 2 },
    { arbitrary: wrongType.map((value) => ({ kind: 'json' as const, value })), weight: writes ? 1 : 0 },
  );
  return fc.tuple(cleanArbitrary(route, pools), change, bodyOverride, ip).map(([clean, c, override, address]) => {
    const req = assemble(route, clean, c, address);
    return override ? { ...req, body: override } : req;
  });
}

function buildUrl(route: RegisteredRoute, req: GeneratedRequest): string {
  let path = route.url.replace(/:([A-Za-z0-9_]+)/g, (_m, name: string) => {
    const p = req.params[name];
    return p ? (p.raw ? p.value : encodeComponent(p.value) || '%20') : 'x';
  });
  if (path.includes('*')) {
    const p = req.params['*'];
    path = path.replace('*', p ? (p.raw ? p.value : encodeComponent(p.value)) : 'x');
  }
  const qs = req.query.map(([k, v]) => `${encodeComponent(k)}=${encodeComponent(v)}`).join('&');
  return qs ? `${path}?${qs}` : path;
}

const clip = (text: string, n = 300) => (text.length > n ? `${text.slice(0, n)}... (${text.length} chars)` : text);

describe(`route fuzz (${TEST_DB}): no input gives a 5xx, for anyone`, () => {
  let t: TestApp;
  let accounts: Record<Exclude<Role, 'anonymous'>, TestUser>;
  let pools: ValuePools;
  let routes: RegisteredRoute[];

  beforeAll(async () => {
    // Outside services stay unconfigured (offline catalogue, demo payments); their base URLs point
    // at a closed local port, so nothing could leave the machine anyway.
    t = await createTestApp({
      env: { PAYPAL_API_BASE: 'http://127.0.0.1:9', CJ_API_BASE: 'http://127.0.0.1:9', AUTH_RATE_LIMIT_MAX: '100000' },
    });
    accounts = { customer: await createUser(t, { name: 'Fuzz Customer' }), admin: await createUser(t, { name: 'Fuzz Admin', isAdmin: true }) };
    const published = [
      await insertProduct(t, { name: 'Fuzz Lamp', slug: 'fuzz-lamp', price: 25, countInStock: 50 }),
      await insertProduct(t, { name: 'Fuzz Mug', slug: 'fuzz-mug', price: 9.99, isOnSale: true, saleDiscount: 50, countInStock: 50 }),
      await insertProduct(t, { name: 'Fuzz Sold Out', slug: 'fuzz-sold-out', price: 5, countInStock: 0 }),
    ];
    await insertProduct(t, { name: 'Fuzz Draft', slug: 'fuzz-draft', price: 0, isDraft: true });
    await t.database.db.insert(reviews).values({ id: newId(), productId: published[0]!.id, userId: accounts.customer.id, name: 'Fuzz Customer', rating: 4, comment: 'Fine' });
    await createAddressFor(t, accounts.customer);
    await placeOrderFor(t, accounts.customer, [{ productId: published[0]!.id, quantity: 1 }]);
    await t.app.inject({ method: 'POST', url: '/api/cart/items', headers: { cookie: accounts.customer.cookie }, payload: { productId: published[1]!.id, quantity: 2 } });

    // Every id, slug and e-mail address in the database: references to rows that exist, whatever
    // tables other modules add.
    const strings = new Set<string>();
    const columns = await t.database.query<{ table_name: string; column_name: string }>(
      `SELECT table_name, column_name FROM information_schema.columns
        WHERE table_schema = 'public' AND column_name IN ('id', 'slug', 'email') AND table_name <> 'schema_migrations'`,
    );
    for (const c of columns) {
      const rows = await t.database.query<{ v: string }>(`SELECT "${c.column_name}"::text AS v FROM "${c.table_name}" LIMIT 10`);
      for (const r of rows) strings.add(r.v);
    }
    pools = { strings: [...strings] };

    const order: Record<string, number> = { GET: 0, POST: 1, PUT: 2, PATCH: 3, DELETE: 4 };
    routes = listRegisteredRoutes(t.app)
      .filter((r) => r.method !== 'HEAD' && r.method !== 'OPTIONS' && !r.isWebsocket)
      // Reads first, deletions last, so the seeded rows serve most of the run.
      .sort((a, b) => (order[a.method] ?? 9) - (order[b.method] ?? 9) || a.url.localeCompare(b.url));
  }, 120_000);
  afterAll(async () => { await t?.close(); });

  /** A fresh session for each request: sign-out, refresh rotation and password changes cannot spoil the next one. */
  async function cookieFor(role: Role): Promise<string | undefined> {
    if (role === 'anonymous') return undefined;
    const u = accounts[role];
    const [exists] = await t.database.db.select({ id: users.id }).from(users).where(eq(users.id, u.id));
    if (!exists) {
      // An administrator route deleted the account: bring it back for the next requests.
      await t.database.db.insert(users).values({ id: u.id, name: u.name, email: `${role}-${newId()}@example.com`, passwordHash: await hashPassword(u.password), isAdmin: u.isAdmin });
    }
    const s = await startSession(t.database.db, { signer: t.app.ctx.signer, refreshTokenTtlDays: 1 }, u.id);
    return `access_token=${s.accessToken}; refresh_token=${s.refreshToken}`;
  }

  /** Sends one generated request as `role`; answers the status (or 'timeout') and the response body. */
  async function send(route: RegisteredRoute, role: Role, req: GeneratedRequest) {
    const url = buildUrl(route, req);
    const cookie = await cookieFor(role);
    const headers: Record<string, string> = {};
    if (cookie) headers.cookie = cookie;
    let payload: string | undefined;
    if (req.body.kind === 'json') {
      headers['content-type'] = 'application/json';
      payload = JSON.stringify(req.body.value) ?? 'null';
    } else if (req.body.kind === 'raw') {
      headers['content-type'] = req.body.contentType;
      payload = req.body.payload;
    }
    const res = await Promise.race([
      t.app.inject({ method: route.method as Method, url, headers, remoteAddress: req.ip, ...(payload !== undefined ? { payload } : {}) }),
      new Promise<'timeout'>((resolve) => setTimeout(() => resolve('timeout'), REQUEST_TIMEOUT_MS).unref()),
    ]);
    return { url, payload: payload ?? '', status: res === 'timeout' ? ('timeout' as const) : res.statusCode, response: res === 'timeout' ? '' : res.body };
  }

  const report = (failures: Failure[]) =>
    failures.map((f) => `${f.status} ${f.role} ${f.route}\n  url: ${f.url}\n  body: ${f.body}\n  answer: ${f.response}`).join('\n');

  it('refuses a NUL character in every declared field of every route (params, query, body) with a 4xx, never a 5xx', async () => {
    const roleFor: Record<RegisteredRoute['access'], Role> = { public: 'anonymous', user: 'customer', admin: 'admin' };
    const failures: Failure[] = [];
    let total = 0;
    for (const route of routes) {
      const [clean] = fc.sample(cleanArbitrary(route, pools), { seed: SEED, numRuns: 1 });
      for (const target of targetsOf(route)) {
        const req = assemble(route, clean!, { target, value: 'fuzz\u0000nul' }, '10.78.0.1');
        const role = roleFor[route.access];
        const res = await send(route, role, req);
        total += 1;
        if (res.status === 'timeout' || res.status < 400 || res.status >= 500) {
          failures.push({ route: `${route.method} ${route.url} [${target.where} ${target.path.join('.')}]`, role, status: res.status, url: clip(res.url), body: clip(res.payload), response: clip(res.response) });
        }
      }
    }
    console.info(`NUL sweep on ${TEST_DB}: ${total} fields of ${routes.length} routes; ${failures.length} not refused with a 4xx`);
    expect(total).toBeGreaterThan(routes.length);
    expect(failures, report(failures)).toEqual([]);
  }, 300_000);

  it('answers every generated request to every route with a status below 500', async () => {
    expect(routes.length).toBeGreaterThan(20);
    const runsPerRole = Math.max(4, Math.floor(REQUEST_BUDGET / (routes.length * ROLES.length)));
    const failures: Failure[] = [];
    const statuses = new Map<number, number>();
    let total = 0;
    const started = Date.now();

    for (const route of routes) {
      const key = `${route.method} ${route.url}`;
      // A seed per route: adding a route does not change the requests sent to the others.
      const routeSeed = SEED ^ createHash('sha256').update(key).digest().readUInt32BE(0);
      for (const [roleIndex, role] of ROLES.entries()) {
        const property = fc.asyncProperty(requestArbitrary(route, pools), async (req) => {
          total += 1;
          const res = await send(route, role, req);
          if (typeof res.status === 'number') statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
          if (res.status === 'timeout' || res.status >= 500) {
            failures.push({ route: key, role, status: res.status, url: clip(res.url), body: clip(res.payload), response: clip(res.response) });
            return false;
          }
          return true;
        });
        // No shrinking: report the first failing input of each route and role, and go on.
        await fc.check(property, { seed: routeSeed + roleIndex, numRuns: runsPerRole, endOnFailure: true });
      }
    }

    const seconds = Math.round((Date.now() - started) / 1000);
    const histogram = [...statuses.entries()].sort(([a], [b]) => a - b).map(([s, n]) => `${s}×${n}`).join(' ');
    console.info(`route fuzz on ${TEST_DB}: ${routes.length} routes × ${ROLES.length} roles × ${runsPerRole} = ${total} requests in ${seconds} s; ${failures.length} × 5xx; statuses ${histogram}`);
    expect(failures, report(failures)).toEqual([]);
  }, 600_000);
});
