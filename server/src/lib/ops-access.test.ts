import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAdmin, createTestApp, createUser, type TestApp, type TestUser } from '../test/test-app.ts';
import { OPS_UNAUTHORIZED } from './ops-access.ts';

const TOKEN = 'metrics-token-0123456789abcdef';
const PRODUCTION = { NODE_ENV: 'production', PUBLIC_URL: 'https://shop.example.com', SEED_DEMO_DATA: 'false', METRICS_TOKEN: TOKEN };
const OPS_URLS = ['/metrics', '/api/docs/json', '/api/docs'];

const get = (t: TestApp, url: string, headers: Record<string, string> = {}) => t.app.inject({ method: 'GET', url, headers });

describe('/metrics and /api/docs outside production: on and public by default', () => {
  let t: TestApp;
  beforeAll(async () => { t = await createTestApp(); });
  afterAll(async () => { await t.close(); });

  it('serves them to anyone', async () => {
    expect((await get(t, '/metrics')).statusCode).toBe(200);
    expect((await get(t, '/api/docs/json')).json().openapi).toMatch(/^3\./);
    expect([200, 302]).toContain((await get(t, '/api/docs')).statusCode);
  });
});

describe('/metrics and /api/docs in production: protected by default', () => {
  let t: TestApp;
  let admin: TestUser;
  let customer: TestUser;
  beforeAll(async () => {
    t = await createTestApp({ env: PRODUCTION });
    admin = await createAdmin(t);
    customer = await createUser(t);
  });
  afterAll(async () => { await t.close(); });

  it('refuses anonymous callers and wrong tokens with 401', async () => {
    for (const url of OPS_URLS) {
      for (const headers of [{} as Record<string, string>, { authorization: 'Bearer wrong-token-wrong-token' }, { authorization: TOKEN }, { authorization: `Basic ${TOKEN}` }]) {
        const res = await get(t, url, headers);
        expect(res.statusCode, `${url} ${JSON.stringify(headers)}`).toBe(401);
        expect(res.json()).toEqual({ message: OPS_UNAUTHORIZED, code: 'UNAUTHORIZED' });
      }
    }
    expect((await get(t, '/api/docs/static/index.html')).statusCode).toBe(401);
  });

  it('refuses a customer session with 403', async () => {
    for (const url of OPS_URLS) {
      const res = await get(t, url, { cookie: customer.cookie });
      expect(res.statusCode, url).toBe(403);
      expect(res.json()).toEqual({ message: 'Admin access required', code: 'FORBIDDEN' });
    }
  });

  it('serves them with the bearer token (a scraper) or an administrator session (a person)', async () => {
    const scraped = await get(t, '/metrics', { authorization: `Bearer ${TOKEN}` });
    expect(scraped.statusCode).toBe(200);
    expect(scraped.body).toContain('http_request_duration_seconds');
    expect((await get(t, '/api/docs/json', { authorization: `bearer  ${TOKEN}` })).statusCode).toBe(200);
    expect((await get(t, '/metrics', { cookie: admin.cookie })).statusCode).toBe(200);
    expect((await get(t, '/api/docs/json', { cookie: admin.cookie })).json().openapi).toMatch(/^3\./);
  });

  it('leaves the rest of the API alone', async () => {
    expect((await get(t, '/api/health')).statusCode).toBe(200);
  });
});

describe('configurable: METRICS_ACCESS and API_DOCS_ACCESS', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ env: { ...PRODUCTION, METRICS_ACCESS: 'off', API_DOCS_ACCESS: 'public' } });
  });
  afterAll(async () => { await t.close(); });

  it("'off' is not served at all; 'public' is open in production too", async () => {
    const metrics = await get(t, '/metrics', { authorization: `Bearer ${TOKEN}` });
    expect(metrics.statusCode).toBe(404);
    expect(metrics.json()).toEqual({ message: 'Route GET /metrics not found', code: 'NOT_FOUND' });
    expect((await get(t, '/api/docs/json')).statusCode).toBe(200);
  });
});
