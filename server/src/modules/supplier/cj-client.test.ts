import { Writable } from 'node:stream';
import { CJ_MESSAGES } from '@shop/contracts';
import pino from 'pino';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Database } from '../../db/client.ts';
import { supplierTokens } from '../../db/schema.ts';
import { startCjMock, type CjMock } from '../../test/cj-mock.ts';
import { openTestDatabase, TEST_DB } from '../../test/test-app.ts';
import { CjApiError, createCjClient, type CjClientOptions } from './cj-client.ts';
import { createDbTokenStore } from './token-store.ts';

const SECRET = 'test-secret-test-secret-test-secret-123';
const DAY = 86_400_000;

describe(`CJ API 2.0 client against a local CJ server, tokens in ${TEST_DB}`, () => {
  let database: Database;
  let cleanup: () => Promise<void>;
  let cj: CjMock;
  let logLines: string[];

  beforeAll(async () => {
    ({ database, cleanup } = await openTestDatabase());
  });
  afterAll(async () => { await cleanup(); });
  beforeEach(async () => {
    cj = await startCjMock({ products: 12 });
    logLines = [];
    await database.db.delete(supplierTokens);
  });
  afterEach(async () => { await cj.close(); });

  /** A client as one app instance builds it (its own memory, the shared token table). */
  function client(over: Partial<CjClientOptions> = {}) {
    const sink = new Writable({ write(chunk, _enc, done) { logLines.push(String(chunk)); done(); } });
    return createCjClient({
      apiKey: cj.apiKey,
      apiBase: cj.url,
      tokens: createDbTokenStore(database.db, { provider: 'cj', apiKey: over.apiKey ?? cj.apiKey, secret: SECRET }),
      requestsPerSecond: 100,
      retryBaseMs: 5,
      log: pino({ level: 'debug' }, sink),
      ...over,
    });
  }
  const firstPid = () => [...cj.products.keys()][0]!;
  const tokensSent = (path: string) => cj.requests.filter((r) => r.path === path).map((r) => r.headers['cj-access-token']);

  it('logs in once and reuses the token across calls, and across a restart (a new instance)', async () => {
    const a = client();
    const page = await a.listProducts({ pageNum: 1, pageSize: 5 });
    expect(page).toMatchObject({ pageNum: 1, pageSize: 5, total: 12 });
    expect(page.list).toHaveLength(5);
    await a.getProduct(firstPid());
    await a.getCategories();
    expect(cj.count('authentication/getAccessToken')).toBe(1);
    const login = JSON.parse(cj.requests.find((r) => r.path === 'authentication/getAccessToken')!.body) as unknown;
    expect(login).toEqual({ apiKey: cj.apiKey });

    // "Restart": a fresh client with empty memory reads the stored token instead of logging in.
    const b = client();
    await b.getProduct(firstPid());
    expect(cj.count('authentication/getAccessToken')).toBe(1);
    expect(cj.count('authentication/refreshAccessToken')).toBe(0);
    const sent = [...tokensSent('product/list'), ...tokensSent('product/query'), ...tokensSent('product/getCategory')];
    expect(new Set(sent).size).toBe(1);
    expect(sent[0]).toMatch(/^[0-9a-f]{32}$/);
  });

  it('renews with the refresh token a day before expiry, never with a second login', async () => {
    await cj.close();
    let now = Date.now();
    cj = await startCjMock({ products: 12, now: () => now });
    const a = client({ now: () => now });
    await a.getProduct(firstPid());
    const first = await a.accessToken();
    now += 13 * DAY; // two days left: still good
    await a.getProduct(firstPid());
    expect(cj.count('authentication/refreshAccessToken')).toBe(0);
    now += 1.5 * DAY; // half a day left: renew first
    await a.getProduct(firstPid());
    expect(cj.count('authentication/refreshAccessToken')).toBe(1);
    expect(cj.count('authentication/getAccessToken')).toBe(1);
    const renewed = await a.accessToken();
    expect(renewed).not.toBe(first);
    expect(tokensSent('product/query').at(-1)).toBe(renewed);
    // Another instance at the same moment uses the renewed token without renewing again.
    await client({ now: () => now }).getProduct(firstPid());
    expect(cj.count('authentication/refreshAccessToken')).toBe(1);
    expect(tokensSent('product/query').at(-1)).toBe(renewed);
  });

  it('renews a token CJ refused and replays the call once', async () => {
    const a = client();
    await a.getProduct(firstPid());
    cj.revokeAccessTokens();
    const product = await a.getProduct(firstPid());
    expect(product.pid).toBe(firstPid());
    expect(cj.count('authentication/refreshAccessToken')).toBe(1);
    expect(cj.count('authentication/getAccessToken')).toBe(1);
  });

  it('logs in again only when the refresh token is refused, and at most once per 5 minutes', async () => {
    let now = Date.now();
    const a = client({ now: () => now });
    await a.getProduct(firstPid());
    now += 10 * 60_000;
    cj.revokeAccessTokens();
    cj.failNext('authentication/refreshAccessToken', { code: 1600003, message: 'Invalid Refresh token' });
    // Our clock says 10 minutes passed, so the client logs in again; CJ's clock says seconds and refuses.
    await expect(a.getProduct(firstPid())).rejects.toMatchObject({ statusCode: 429, message: CJ_MESSAGES.rateLimited });
    expect(cj.count('authentication/getAccessToken')).toBe(2);
    // That attempt counts: within the next 5 minutes no login is even tried.
    now += 60_000;
    cj.failNext('authentication/refreshAccessToken', { code: 1600003, message: 'Invalid Refresh token' });
    await expect(a.getProduct(firstPid())).rejects.toMatchObject({
      statusCode: 503, code: 'SUPPLIER_LOGIN_THROTTLED', message: 'CJ allows a new login once every 5 minutes. Please try again in 240 s.',
    });
    expect(cj.count('authentication/getAccessToken')).toBe(2);
  });

  it('answers a clear message for a wrong API key', async () => {
    const a = client({ apiKey: 'CJ000@api@wrong' });
    const err = await a.listProducts({ pageNum: 1, pageSize: 10 }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(CjApiError);
    expect(err).toMatchObject({ statusCode: 502, message: CJ_MESSAGES.authFailed, code: 'SUPPLIER_AUTH', cjCode: 1600001 });
  });

  it("retries CJ's rate-limit and busy codes and 5xx with backoff, then succeeds", async () => {
    const a = client();
    await a.getCategories();
    cj.failNext('product/list', { code: 1600200, message: 'Too Many Requests' });
    cj.failNext('product/list', { code: 1600000, message: 'System busy' });
    cj.failNext('product/list', { httpStatus: 502, rawBody: '<html>Bad gateway</html>' });
    const page = await a.listProducts({ pageNum: 2, pageSize: 5 });
    expect(page.list).toHaveLength(5);
    expect(cj.count('product/list')).toBe(4);
  });

  it('gives up after the retries with clear messages: rate limit 429, outage 503; the quota is not retried', async () => {
    const a = client({ maxRetries: 2 });
    await a.getCategories();
    cj.failNext('product/list', { code: 1600200, message: 'Too Many Requests' }, 3);
    await expect(a.listProducts({ pageNum: 1, pageSize: 5 })).rejects.toMatchObject({ statusCode: 429, message: CJ_MESSAGES.rateLimited });
    expect(cj.count('product/list')).toBe(3);

    cj.failNext('product/query', { httpStatus: 503, rawBody: 'Service Unavailable' }, 3);
    await expect(a.getProduct(firstPid())).rejects.toMatchObject({ statusCode: 503, message: CJ_MESSAGES.unavailable });

    cj.failNext('product/getCategory', { code: 1600201, message: 'Quota has been used up' });
    await expect(a.getCategories()).rejects.toMatchObject({ statusCode: 429, message: CJ_MESSAGES.quotaUsedUp });
    expect(cj.count('product/getCategory')).toBe(2);

    cj.failNext('product/getCategory', { code: 1600300, message: 'Illegal parameter: categoryId' });
    await expect(a.getCategories()).rejects.toMatchObject({ statusCode: 502, message: 'CJ refused the request (code 1600300): Illegal parameter: categoryId' });
  });

  it('maps "product not found" and times out after the configured time', async () => {
    const a = client({ timeoutMs: 300, maxRetries: 0 });
    await expect(a.getProduct('NOT-A-CJ-PRODUCT')).rejects.toMatchObject({ statusCode: 404, message: CJ_MESSAGES.notFound, cjCode: 1602001 });
    const held = cj.hold('product/list');
    const started = Date.now();
    await expect(a.listProducts({ pageNum: 1, pageSize: 5 })).rejects.toMatchObject({ statusCode: 503, message: CJ_MESSAGES.unavailable });
    expect(Date.now() - started).toBeLessThan(3000);
    held.release();
  });

  it('a CJ that never answers: a call ends within its budget, retries included, and the next calls fail at once for a while', async () => {
    const a = client({ timeoutMs: 400, maxRetries: 5, callBudgetMs: 1_000, unreachablePauseMs: 1_500 });
    await a.accessToken();
    const held = Array.from({ length: 10 }, () => cj.hold('product/list'));
    let started = Date.now();
    await expect(a.listProducts({ pageNum: 1, pageSize: 5 })).rejects.toMatchObject({ statusCode: 503, message: CJ_MESSAGES.unavailable });
    // Not 6 x 400 ms plus backoff: the budget.
    expect(Date.now() - started).toBeLessThan(1_800);
    const sent = cj.count('product/list');
    expect(sent).toBeGreaterThanOrEqual(2);
    // The next callers do not wait, and nothing is sent to CJ.
    started = Date.now();
    await expect(a.listProducts({ pageNum: 1, pageSize: 5 })).rejects.toMatchObject({ statusCode: 503, message: CJ_MESSAGES.unavailable });
    await expect(a.getProduct(firstPid())).rejects.toMatchObject({ statusCode: 503, message: CJ_MESSAGES.unavailable });
    expect(Date.now() - started).toBeLessThan(300);
    expect(cj.count('product/list')).toBe(sent);
    for (const h of held) h.release();
    // After the pause CJ is asked again, and answers.
    await new Promise((r) => setTimeout(r, 1_600));
    const page = await a.listProducts({ pageNum: 1, pageSize: 5 });
    expect(page.list).toHaveLength(5);
  });

  it('spaces its requests to stay under the per-second limit', async () => {
    const a = client({ requestsPerSecond: 5 });
    await a.accessToken();
    const started = Date.now();
    for (let i = 0; i < 4; i += 1) await a.getProduct(firstPid());
    // 5 per second: at least 4 gaps of 200 ms between the login and the 4 calls.
    expect(Date.now() - started).toBeGreaterThanOrEqual(590);
  });

  it('stores tokens encrypted and never logs the key or a token', async () => {
    const a = client();
    await a.getProduct(firstPid());
    cj.revokeAccessTokens();
    await a.getProduct(firstPid());
    const token = await a.accessToken();
    const [row] = await database.db.select().from(supplierTokens);
    expect(row!.accessToken).toMatch(/^v1\./);
    expect(JSON.stringify(row)).not.toContain(token);
    expect(JSON.stringify(row)).not.toContain(cj.apiKey);
    const logs = logLines.join('\n');
    expect(logs).toContain('CJ access token');
    expect(logs).not.toContain(token);
    expect(logs).not.toContain(cj.apiKey);
    // Another server secret cannot read them: the client logs in again (after CJ's 5 minutes).
    const other = createDbTokenStore(database.db, { provider: 'cj', apiKey: cj.apiKey, secret: 'another-secret-another-secret-1234567' });
    expect((await other.read())?.accessToken).toBeNull();
  });
});
