import { INVALID_CREDENTIALS, TOO_MANY_ATTEMPTS } from '@shop/contracts';
import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { users } from '../../db/schema.ts';
import { createRedisRateLimiter } from '../../lib/rate-limit.ts';
import { createTestApp, createUser, type TestApp } from '../../test/test-app.ts';
import { clientKey } from './sign-in-guard.ts';
import { latestMailTo, tokenFromLink } from './users.test-helpers.ts';

const LIMITED = { message: TOO_MANY_ATTEMPTS, code: 'RATE_LIMITED' };
const env = { AUTH_RATE_LIMIT_MAX: '3', AUTH_RATE_LIMIT_WINDOW_SECONDS: '600' };

function expectLimited(res: { statusCode: number; json: () => unknown; headers: Record<string, unknown> }) {
  expect(res.statusCode).toBe(429);
  expect(res.json()).toEqual(LIMITED);
  const retryAfter = Number(res.headers['retry-after']);
  expect(retryAfter).toBeGreaterThan(0);
  expect(retryAfter).toBeLessThanOrEqual(600);
}

describe('sign-in with the default limits', () => {
  let t: TestApp;
  beforeAll(async () => { t = await createTestApp(); });
  afterAll(async () => { await t.close(); });

  it('15 correct sign-ins in a row from one address are all 200', async () => {
    const u = await createUser(t, { password: 'password123' });
    for (let i = 0; i < 15; i += 1) {
      const res = await t.app.inject({ method: 'POST', url: '/api/users/signin', payload: { email: u.email, password: 'password123' }, remoteAddress: '10.7.0.1' });
      expect(res.statusCode).toBe(200);
    }
  });
});

describe('rate limits on sign-in, sign-up, forgot and reset (in-process counters)', () => {
  let t: TestApp;
  beforeAll(async () => { t = await createTestApp({ env }); });
  afterAll(async () => { await t.close(); });

  // app.inject lets us choose the client address, so each case has its own IP bucket.
  const from = (ip: string) => ({ remoteAddress: ip });

  const signIn = (email: string, password: string, ip: string) =>
    t.app.inject({ method: 'POST', url: '/api/users/signin', payload: { email, password }, ...from(ip) });

  it('sign-in: wrong passwords from many addresses do not lock the owner out of a new address', async () => {
    const u = await createUser(t, { password: 'password123' });
    for (let i = 1; i <= 6; i += 1) {
      const res = await signIn(u.email, `wrong-guess-${i}`, `10.0.0.${i}`);
      expect(res.statusCode).toBe(401);
      expect(res.json().message).toBe(INVALID_CREDENTIALS);
    }
    // The account is under attack (6 failures, limit 3), but this address never failed on it.
    const owner = await signIn(u.email, 'password123', '10.0.0.100');
    expect(owner.statusCode).toBe(200);
    expect(owner.cookies.length).toBeGreaterThan(0);
  });

  it('sign-in: one address gets at most 3 tries on an account, then 429 even with the right password', async () => {
    const u = await createUser(t, { password: 'password123' });
    for (let i = 0; i < 3; i += 1) expect((await signIn(u.email, `guess-${i}`, '10.0.8.1')).statusCode).toBe(401);
    const blocked = await signIn(u.email, 'password123', '10.0.8.1');
    expectLimited(blocked);
    expect(blocked.cookies).toEqual([]);
    // The owner elsewhere is not affected.
    expect((await signIn(u.email, 'password123', '10.0.8.2')).statusCode).toBe(200);
  });

  it('sign-in: once an account is under attack, each further address gets a single guess', async () => {
    const u = await createUser(t, { password: 'password123' });
    for (const ip of ['10.0.9.1', '10.0.9.2', '10.0.9.3']) expect((await signIn(u.email, 'wrong-guess', ip)).statusCode).toBe(401);
    // A fresh address: its first (wrong) guess is answered, then it is refused, even with the right password.
    expect((await signIn(u.email, 'another-guess', '10.0.9.4')).statusCode).toBe(401);
    expectLimited(await signIn(u.email, 'password123', '10.0.9.4'));
    expectLimited(await signIn(u.email, 'password123', '10.0.9.1'));
    // The owner from an address with no failures gets in, which clears the account's failures.
    expect((await signIn(u.email, 'password123', '10.0.9.50')).statusCode).toBe(200);
    expect((await signIn(u.email, 'password123', '10.0.9.1')).statusCode).toBe(200);
  });

  it('sign-in: successful sign-ins do not count, so one address signs in 15 times in a row', async () => {
    const a = await createUser(t, { password: 'password123' });
    const b = await createUser(t, { password: 'password456' });
    for (let i = 0; i < 15; i += 1) {
      const [email, password] = i % 2 ? [a.email, 'password123'] : [b.email, 'password456'];
      expect((await signIn(email, password, '10.0.20.1')).statusCode).toBe(200);
    }
    // Failures from that address are still limited (3 per window here).
    for (let i = 0; i < 3; i += 1) expect((await signIn(`nobody${i}@example.com`, 'x', '10.0.20.1')).statusCode).toBe(401);
    expectLimited(await signIn(a.email, 'password123', '10.0.20.1'));
  });

  it('sign-in: an address is limited across accounts (password spraying)', async () => {
    for (let i = 0; i < 3; i += 1) {
      expect((await signIn(`probe${i}@example.com`, 'Summer2024!', '10.0.1.1')).statusCode).toBe(401);
    }
    expectLimited(await signIn('probe9@example.com', 'Summer2024!', '10.0.1.1'));
    expect((await signIn('probe9@example.com', 'Summer2024!', '10.0.1.2')).statusCode).toBe(401);
  });

  it('sign-in: IPv6 addresses of one /64 count as one client', async () => {
    for (let i = 1; i <= 3; i += 1) {
      expect((await signIn(`v6-${i}@example.com`, 'x', `2001:db8:abcd:12::${i}`)).statusCode).toBe(401);
    }
    expectLimited(await signIn('v6-9@example.com', 'x', '2001:db8:abcd:0012:ffff::9'));
    expect((await signIn('v6-9@example.com', 'x', '2001:db8:abcd:13::1')).statusCode).toBe(401);
  });

  it('sign-in: a successful sign-in stops counting earlier failures against the account', async () => {
    const u = await createUser(t, { password: 'password123' });
    expect((await signIn(u.email, 'typo-one', '10.0.2.1')).statusCode).toBe(401);
    expect((await signIn(u.email, 'typo-two', '10.0.2.1')).statusCode).toBe(401);
    expect((await signIn(u.email, 'password123', '10.0.2.1')).statusCode).toBe(200);
    expect((await signIn(u.email, 'typo-three', '10.0.2.4')).statusCode).toBe(401);
    expect((await signIn(u.email, 'password123', '10.0.2.4')).statusCode).toBe(200);
  });

  it('sign-in: a password reset lifts the attack state of the account', async () => {
    const u = await createUser(t, { password: 'password123' });
    for (const ip of ['10.0.10.1', '10.0.10.2', '10.0.10.3']) await signIn(u.email, 'wrong', ip);
    // The owner mistyped once from home during the attack, so home is refused...
    expect((await signIn(u.email, 'typo', '10.0.10.9')).statusCode).toBe(401);
    expectLimited(await signIn(u.email, 'password123', '10.0.10.9'));
    // ...until the owner resets the password through the mailed link.
    await t.app.inject({ method: 'POST', url: '/api/users/forgot-password', payload: { email: u.email }, ...from('10.0.10.9') });
    const token = tokenFromLink((await latestMailTo(t, u.email))!.text, '/reset-password');
    expect((await t.app.inject({ method: 'POST', url: '/api/users/reset-password', payload: { token, password: 'new-password1' }, ...from('10.0.10.9') })).statusCode).toBe(200);
    expect((await signIn(u.email, 'new-password1', '10.0.10.9')).statusCode).toBe(200);
  });

  it('sign-in: parallel guesses from one address cannot slip past the limit', async () => {
    const u = await createUser(t, { password: 'password123' });
    const results = await Promise.all(Array.from({ length: 8 }, (_, i) => signIn(u.email, `burst-${i}`, '10.0.11.1')));
    expect(results.map((r) => r.statusCode).sort()).toEqual([401, 401, 401, 429, 429, 429, 429, 429]);
  });

  it('sign-up: per IP and per e-mail', async () => {
    for (let i = 0; i < 3; i += 1) {
      const res = await t.app.inject({ method: 'POST', url: '/api/users/signup', payload: { name: 'Bot', email: `bot${i}@example.com`, password: 'password123' }, ...from('10.0.3.1') });
      expect(res.statusCode).toBe(202);
    }
    expectLimited(await t.app.inject({ method: 'POST', url: '/api/users/signup', payload: { name: 'Bot', email: 'bot9@example.com', password: 'password123' }, ...from('10.0.3.1') }));

    for (const ip of ['10.0.4.1', '10.0.4.2', '10.0.4.3']) {
      await t.app.inject({ method: 'POST', url: '/api/users/signup', payload: { name: 'Same', email: 'same@example.com', password: 'password123' }, ...from(ip) });
    }
    expectLimited(await t.app.inject({ method: 'POST', url: '/api/users/signup', payload: { name: 'Same', email: 'SAME@example.com', password: 'password123' }, ...from('10.0.4.4') }));
  });

  it('confirm sign-up: per IP (token guessing)', async () => {
    for (let i = 0; i < 3; i += 1) {
      const res = await t.app.inject({ method: 'POST', url: '/api/users/confirm-signup', payload: { token: `guess-${i}` }, ...from('10.0.12.1') });
      expect(res.statusCode).toBe(400);
    }
    expectLimited(await t.app.inject({ method: 'POST', url: '/api/users/confirm-signup', payload: { token: 'guess-9' }, ...from('10.0.12.1') }));
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

describe('clientKey', () => {
  it('groups IPv6 addresses by /64 and keeps IPv4 (also IPv4-mapped) addresses as they are', () => {
    expect(clientKey('203.0.113.7')).toBe('203.0.113.7');
    expect(clientKey('::ffff:203.0.113.7')).toBe('203.0.113.7');
    expect(clientKey('2001:db8:abcd:12::1')).toBe('2001:db8:abcd:12::/64');
    expect(clientKey('2001:0db8:ABCD:0012:1:2:3:4')).toBe('2001:db8:abcd:12::/64');
    expect(clientKey('::1')).toBe('0:0:0:0::/64');
    expect(clientKey('fe80::1')).toBe('fe80:0:0:0::/64');
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
    const signIn = (t: TestApp, ip: string, password = 'wrong-guess') =>
      t.app.inject({ method: 'POST', url: '/api/users/signin', payload: { email, password }, remoteAddress: ip });
    // One address, alternating instances: the fourth try is refused.
    expect((await signIn(a, '10.1.0.1')).statusCode).toBe(401);
    expect((await signIn(b, '10.1.0.1')).statusCode).toBe(401);
    expect((await signIn(a, '10.1.0.1')).statusCode).toBe(401);
    expectLimited(await signIn(b, '10.1.0.1'));
    // The account is under attack on both instances: an address that failed once is refused on the other.
    expect((await signIn(a, '10.1.0.2')).statusCode).toBe(401);
    expectLimited(await signIn(b, '10.1.0.2'));
    const ttl = await redis.pttl(`${prefix}auth:signin:account:${email}`);
    expect(ttl).toBeGreaterThan(0);
    expect(ttl).toBeLessThanOrEqual(600_000);
  });

  it.runIf(REDIS_URL)('the owner signs in from a clean address on either instance while the account is under attack', async () => {
    const owner = await createUser(a, { password: 'password123' });
    await b.database.db.insert(users).values({ id: owner.id, name: owner.name, email: owner.email, passwordHash: (await a.database.db.select().from(users).where(eq(users.id, owner.id)))[0]!.passwordHash });
    for (const [t, ip] of [[a, '10.2.0.1'], [b, '10.2.0.2'], [a, '10.2.0.3'], [b, '10.2.0.4']] as const) {
      await t.app.inject({ method: 'POST', url: '/api/users/signin', payload: { email: owner.email, password: 'wrong' }, remoteAddress: ip });
    }
    const res = await b.app.inject({ method: 'POST', url: '/api/users/signin', payload: { email: owner.email, password: 'password123' }, remoteAddress: '10.2.0.99' });
    expect(res.statusCode).toBe(200);
  });
});
