import { INVALID_CREDENTIALS, TOO_MANY_ATTEMPTS } from '@shop/contracts';
import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRedisRateLimiter } from '../../lib/rate-limit.ts';
import { createTestApp, createUser, type TestApp } from '../../test/test-app.ts';

const LIMITED = { message: TOO_MANY_ATTEMPTS, code: 'RATE_LIMITED' };
const env = { AUTH_RATE_LIMIT_MAX: '3', AUTH_RATE_LIMIT_WINDOW_SECONDS: '600' };

function expectLimited(res: { statusCode: number; json: () => unknown; headers: Record<string, unknown> }) {
  expect(res.statusCode).toBe(429);
  expect(res.json()).toEqual(LIMITED);
  const retryAfter = Number(res.headers['retry-after']);
  expect(retryAfter).toBeGreaterThan(0);
  expect(retryAfter).toBeLessThanOrEqual(600);
}

describe('rate limits on sign-in, sign-up, forgot and reset (in-process counters)', () => {
  let t: TestApp;
  beforeAll(async () => { t = await createTestApp({ env }); });
  afterAll(async () => { await t.close(); });

  // app.inject lets us choose the client address, so each case has its own IP bucket.
  const from = (ip: string) => ({ remoteAddress: ip });

  it('sign-in: per e-mail, across addresses; the answer is 429 with Retry-After', async () => {
    const u = await createUser(t, { password: 'password123' });
    for (const ip of ['10.0.0.1', '10.0.0.2', '10.0.0.3']) {
      const res = await t.app.inject({ method: 'POST', url: '/api/users/signin', payload: { email: u.email, password: 'wrong-guess' }, ...from(ip) });
      expect(res.statusCode).toBe(401);
      expect(res.json().message).toBe(INVALID_CREDENTIALS);
    }
    // even the right password is refused while the account is locked out
    const blocked = await t.app.inject({ method: 'POST', url: '/api/users/signin', payload: { email: u.email, password: 'password123' }, ...from('10.0.0.4') });
    expectLimited(blocked);
    expect(blocked.cookies).toEqual([]);
  });

  it('sign-in: per IP, across e-mails', async () => {
    for (let i = 0; i < 3; i += 1) {
      const res = await t.app.inject({ method: 'POST', url: '/api/users/signin', payload: { email: `probe${i}@example.com`, password: 'x' }, ...from('10.0.1.1') });
      expect(res.statusCode).toBe(401);
    }
    expectLimited(await t.app.inject({ method: 'POST', url: '/api/users/signin', payload: { email: 'probe9@example.com', password: 'x' }, ...from('10.0.1.1') }));
    // another address is not affected
    const other = await t.app.inject({ method: 'POST', url: '/api/users/signin', payload: { email: 'probe9@example.com', password: 'x' }, ...from('10.0.1.2') });
    expect(other.statusCode).toBe(401);
  });

  it('sign-in: a successful sign-in stops counting earlier failures against the account', async () => {
    const u = await createUser(t, { password: 'password123' });
    const attempt = (password: string, ip: string) =>
      t.app.inject({ method: 'POST', url: '/api/users/signin', payload: { email: u.email, password }, ...from(ip) });
    expect((await attempt('typo-one', '10.0.2.1')).statusCode).toBe(401);
    expect((await attempt('typo-two', '10.0.2.2')).statusCode).toBe(401);
    expect((await attempt('password123', '10.0.2.3')).statusCode).toBe(200);
    expect((await attempt('typo-three', '10.0.2.4')).statusCode).toBe(401);
    expect((await attempt('password123', '10.0.2.5')).statusCode).toBe(200);
  });

  it('sign-up: per IP and per e-mail', async () => {
    for (let i = 0; i < 3; i += 1) {
      const res = await t.app.inject({ method: 'POST', url: '/api/users/signup', payload: { name: 'Bot', email: `bot${i}@example.com`, password: 'password123' }, ...from('10.0.3.1') });
      expect(res.statusCode).toBe(201);
    }
    expectLimited(await t.app.inject({ method: 'POST', url: '/api/users/signup', payload: { name: 'Bot', email: 'bot9@example.com', password: 'password123' }, ...from('10.0.3.1') }));

    for (const ip of ['10.0.4.1', '10.0.4.2', '10.0.4.3']) {
      await t.app.inject({ method: 'POST', url: '/api/users/signup', payload: { name: 'Same', email: 'same@example.com', password: 'password123' }, ...from(ip) });
    }
    expectLimited(await t.app.inject({ method: 'POST', url: '/api/users/signup', payload: { name: 'Same', email: 'SAME@example.com', password: 'password123' }, ...from('10.0.4.4') }));
  });

  it('forgot password: per e-mail and per IP', async () => {
    const u = await createUser(t);
    for (const ip of ['10.0.5.1', '10.0.5.2', '10.0.5.3']) {
      expect((await t.app.inject({ method: 'POST', url: '/api/users/forgot-password', payload: { email: u.email }, ...from(ip) })).statusCode).toBe(200);
    }
    expectLimited(await t.app.inject({ method: 'POST', url: '/api/users/forgot-password', payload: { email: u.email }, ...from('10.0.5.4') }));

    for (let i = 0; i < 3; i += 1) {
      await t.app.inject({ method: 'POST', url: '/api/users/forgot-password', payload: { email: `someone${i}@example.com` }, ...from('10.0.6.1') });
    }
    expectLimited(await t.app.inject({ method: 'POST', url: '/api/users/forgot-password', payload: { email: 'someone9@example.com' }, ...from('10.0.6.1') }));
  });

  it('reset password: per IP (token guessing)', async () => {
    for (let i = 0; i < 3; i += 1) {
      const res = await t.app.inject({ method: 'POST', url: '/api/users/reset-password', payload: { token: `guess-${i}`, password: 'password123' }, ...from('10.0.7.1') });
      expect(res.statusCode).toBe(400);
    }
    expectLimited(await t.app.inject({ method: 'POST', url: '/api/users/reset-password', payload: { token: 'guess-9', password: 'password123' }, ...from('10.0.7.1') }));
  });
});

const REDIS_URL = process.env.TEST_REDIS_URL;

describe('rate limits with Redis counters shared by two app instances', () => {
  let a: TestApp;
  let b: TestApp;
  let redis: Redis;
  const prefix = `rl-test:${randomBytes(6).toString('hex')}:`;

  beforeAll(async () => {
    if (!REDIS_URL) return;
    redis = new Redis(REDIS_URL, { maxRetriesPerRequest: 2 });
    a = await createTestApp({ env, deps: { rateLimiter: createRedisRateLimiter(redis, prefix) } });
    b = await createTestApp({ env, deps: { rateLimiter: createRedisRateLimiter(redis, prefix) } });
  });
  afterAll(async () => {
    if (!REDIS_URL) return;
    await a?.close();
    await b?.close();
    const keys = await redis.keys(`${prefix}*`);
    if (keys.length) await redis.del(...keys);
    await redis.quit();
  });

  it.runIf(REDIS_URL)('counts attempts on one instance against the other', async () => {
    const email = 'shared@example.com';
    const signIn = (t: TestApp, ip: string) =>
      t.app.inject({ method: 'POST', url: '/api/users/signin', payload: { email, password: 'wrong-guess' }, remoteAddress: ip });
    expect((await signIn(a, '10.1.0.1')).statusCode).toBe(401);
    expect((await signIn(b, '10.1.0.2')).statusCode).toBe(401);
    expect((await signIn(a, '10.1.0.3')).statusCode).toBe(401);
    expectLimited(await signIn(b, '10.1.0.4'));
    const ttl = await redis.pttl(`${prefix}auth:signin:subject:${email}`);
    expect(ttl).toBeGreaterThan(0);
    expect(ttl).toBeLessThanOrEqual(600_000);
  });
});
