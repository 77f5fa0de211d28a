import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp, type App } from '../app.ts';
import type { Database } from '../db/client.ts';
import { connectChat, guestCookieOf, listen, type TestChatClient } from '../modules/chat/chat.test-helpers.ts';
import { createProduct } from '../test/commerce-factories.ts';
import { captureLog, type CapturedLog } from '../test/log-capture.ts';
import { hasRedisServer, startRedisServer, type TestRedisServer } from '../test/redis-server.ts';
import { createUser, openTestDatabase, TEST_DB, testConfig, type TestApp, type TestUser } from '../test/test-app.ts';

/*
 * Redis stops while two instances run on it (a redis-server of this test's own, killed with
 * SIGKILL and started again on the same port). While it is down: sign-in, browsing, the cart,
 * checkout and a chat guest session answer without a 5xx, /api/ready stays 200 and says
 * `degraded: ['redis']`, /metrics says shop_redis_up 0, rate limits count per instance, and one
 * warning is logged for the outage. When it is back: not degraded, and the instances share their
 * counters again. Conditions are polled with generous deadlines (a loaded machine is slow, never wrong).
 */

async function until<T>(what: string, fn: () => Promise<T | undefined | false>, timeoutMs = 30_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await fn();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe.skipIf(!hasRedisServer)(`Redis outage with two instances (${TEST_DB})`, () => {
  let redis: TestRedisServer;
  let database: Database;
  let cleanup: () => Promise<void>;
  const instances: Array<{ app: App; log: CapturedLog; t: TestApp }> = [];
  const clients: TestChatClient[] = [];
  let customer: TestUser;
  let productId: string;

  beforeAll(async () => {
    redis = await startRedisServer();
    ({ database, cleanup } = await openTestDatabase());
    for (let i = 0; i < 2; i++) {
      const config = testConfig({ REDIS_URL: redis.url, LOG_LEVEL: 'info', AUTH_RATE_LIMIT_MAX: '1000' });
      const log = captureLog();
      const app = await buildApp({ config, database, logStream: log.stream });
      await app.ready();
      instances.push({ app, log, t: { app, database, config, close: () => app.close() } });
    }
    const a = instances[0]!;
    customer = await createUser(a.t, { name: 'Redis Outage Customer' });
    productId = (await createProduct(a.t, { name: 'Outage Candle', price: 12, countInStock: 100 })).id;
    await until('both instances connected to Redis', async () => instances.every((i) => i.app.ctx.redis?.status === 'ready'));
  }, 120_000);

  afterAll(async () => {
    for (const c of clients) await c.close().catch(() => undefined);
    for (const i of instances) await i.app.close().catch(() => undefined);
    await cleanup?.();
    await redis?.stop();
  }, 60_000);

  const [A, B] = [0, 1];
  const inject = (n: number, opts: InjectOptions) => instances[n]!.app.inject(opts);

  /** One visit: sign in, browse, cart, checkout, a chat guest session with its socket. Answers the statuses. */
  async function visit(n: number, withChat = true): Promise<Record<string, number>> {
    const statuses: Record<string, number> = {};
    const signIn = await inject(n, { method: 'POST', url: '/api/users/signin', payload: { email: customer.email, password: customer.password } });
    statuses.signIn = signIn.statusCode;
    statuses.products = (await inject(n, { method: 'GET', url: '/api/products' })).statusCode;
    statuses.product = (await inject(n, { method: 'GET', url: `/api/products/${productId}` })).statusCode;
    const cookie = customer.cookie;
    statuses.cart = (await inject(n, { method: 'POST', url: '/api/cart/items', headers: { cookie }, payload: { productId, quantity: 1 } })).statusCode;
    statuses.order = (await inject(n, {
      method: 'POST', url: '/api/orders', headers: { cookie },
      payload: { shippingAddress: { fullName: 'Jane Doe', address: '1 Main Street', city: 'Springfield', postalCode: '10001', country: 'USA' }, paymentMethod: 'PayPal' },
    })).statusCode;
    if (!withChat) return statuses;
    const guest = await inject(n, { method: 'POST', url: '/api/chat/guest-session', payload: { name: 'Guest', email: `guest-${Date.now()}@example.com` } });
    statuses.guestSession = guest.statusCode;
    if (guest.statusCode < 300) {
      const base = await wsBase(n);
      const chat = await connectChat(base, { cookie: guestCookieOf(guest.headers['set-cookie']) });
      clients.push(chat);
      try {
        await chat.waitFor((e) => e.type === 'hello', 15_000);
      } catch (err) {
        throw new Error(`no hello on ${n ? 'B' : 'A'} (${String(err)}); its log ends:\n${instances[n]!.log.lines.slice(-12).join('\n')}`);
      }
      statuses.chatHello = 200;
      await chat.close();
    }
    return statuses;
  }
  const wsUrls = new Map<number, string>();
  async function wsBase(n: number): Promise<string> {
    let url = wsUrls.get(n);
    if (!url) { url = await listen(instances[n]!.app); wsUrls.set(n, url); }
    return url;
  }

  /** The count after one hit on A and then one on B under the same fresh key: 2 when they share Redis. */
  let keySeq = 0;
  async function sharedCount(): Promise<number> {
    keySeq += 1;
    const key = `outage-test:${keySeq}:${Date.now()}`;
    await instances[A]!.app.ctx.rateLimiter.hit(key, 100, 60);
    return (await instances[B]!.app.ctx.rateLimiter.hit(key, 100, 60)).count;
  }

  const metricsUp = async (n: number) => /^shop_redis_up (\d)/m.exec((await inject(n, { method: 'GET', url: '/metrics' })).body)?.[1];

  it('keeps serving while Redis is down, says so, and shares state again when it is back', async () => {
    // Redis up: shared counters, ready without degradation.
    expect(await sharedCount()).toBe(2);
    for (const n of [A, B]) {
      const ready = await inject(n, { method: 'GET', url: '/api/ready' });
      expect(ready.statusCode).toBe(200);
      expect(ready.json()).toEqual({ status: 'ready' });
      expect(await metricsUp(n)).toBe('1');
    }
    for (const [step, status] of Object.entries(await visit(A))) expect(status, step).toBeLessThan(500);

    // Redis dies.
    await redis.stop();
    await until('both instances to notice', async () => instances.every((i) => !i.app.ctx.redisHealth.isUp()));
    const slowest: number[] = [];
    for (const n of [A, B, A, B]) {
      const started = Date.now();
      const statuses = await visit(n);
      slowest.push(Date.now() - started);
      for (const [step, status] of Object.entries(statuses)) expect(status, `${step} on ${n ? 'B' : 'A'} while Redis is down`).toBeLessThan(500);
      expect(statuses.signIn).toBe(200);
      expect(statuses.chatHello).toBe(200);
      const ready = await inject(n, { method: 'GET', url: '/api/ready' });
      expect(ready.statusCode).toBe(200);
      expect(ready.json()).toEqual({ status: 'ready', degraded: ['redis'] });
      expect(await metricsUp(n)).toBe('0');
    }
    console.info(`visits while Redis is down (sign-in, 2 reads, cart, order, guest session, socket): ${slowest.map((ms) => `${ms} ms`).join(', ')}`);
    // Rate limits count per instance meanwhile.
    expect(await sharedCount()).toBe(1);
    // Several reconnect attempts fail (back-off from 100 ms), yet one warning per instance for the outage.
    await new Promise((r) => setTimeout(r, 1_500));
    for (const i of instances) {
      expect(i.log.lines.filter((l) => l.includes('Redis is unreachable')).length).toBe(1);
    }

    // Redis is back on the same port: no restart of the instances.
    await redis.start();
    await until('both instances to reconnect', async () => instances.every((i) => i.app.ctx.redisHealth.isUp()), 60_000);
    for (const n of [A, B]) {
      const ready = await inject(n, { method: 'GET', url: '/api/ready' });
      expect(ready.json()).toEqual({ status: 'ready' });
      expect(await metricsUp(n)).toBe('1');
    }
    await until('shared counters again', async () => (await sharedCount()) === 2, 30_000);
    for (const i of instances) {
      expect(i.log.lines.filter((l) => l.includes('Redis is reachable again')).length).toBe(1);
    }
    for (const [step, status] of Object.entries(await visit(B))) expect(status, `${step} after Redis is back`).toBeLessThan(500);
  }, 180_000);

  it('treats a Redis that hangs with its connections open as down, and up again when it answers', async () => {
    await until('both instances connected', async () => instances.every((i) => i.app.ctx.redisHealth.isUp()), 60_000);
    redis.pause();
    try {
      // Commands time out (1 s); two missed PINGs in a row mark Redis down.
      await until('both instances to notice the hang', async () => instances.every((i) => !i.app.ctx.redisHealth.isUp()), 30_000);
      for (const n of [A, B]) {
        const statuses = await visit(n);
        for (const [step, status] of Object.entries(statuses)) expect(status, `${step} while Redis hangs`).toBeLessThan(500);
        const ready = await inject(n, { method: 'GET', url: '/api/ready' });
        expect(ready.json()).toEqual({ status: 'ready', degraded: ['redis'] });
      }
      expect(await sharedCount()).toBe(1);
    } finally {
      redis.resume();
    }
    await until('both instances to see Redis answer again', async () => instances.every((i) => i.app.ctx.redisHealth.isUp()), 60_000);
    await until('shared counters again', async () => (await sharedCount()) === 2, 30_000);
  }, 180_000);
});
