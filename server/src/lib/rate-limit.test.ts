import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMemoryRateLimiter, createRedisRateLimiter, type RateLimiter } from './rate-limit.ts';

describe('memory rate limiter (fixed window)', () => {
  it('allows max hits per window, then refuses with the time left, then opens a new window', async () => {
    let now = 1_000_000;
    const limiter = createMemoryRateLimiter(() => now);
    expect(await limiter.hit('k', 2, 60)).toEqual({ count: 1, allowed: true, remaining: 1, retryAfterSeconds: 60 });
    expect(await limiter.hit('k', 2, 60)).toEqual({ count: 2, allowed: true, remaining: 0, retryAfterSeconds: 60 });
    now += 15_500;
    expect(await limiter.hit('k', 2, 60)).toEqual({ count: 3, allowed: false, remaining: 0, retryAfterSeconds: 45 });
    expect(await limiter.count('k')).toBe(3);
    expect((await limiter.hit('other', 2, 60)).allowed).toBe(true);
    now += 45_000;
    expect(await limiter.count('k')).toBe(0);
    expect(await limiter.hit('k', 2, 60)).toEqual({ count: 1, allowed: true, remaining: 1, retryAfterSeconds: 60 });
  });

  it('reset clears a key', async () => {
    const limiter = createMemoryRateLimiter();
    await limiter.hit('k', 1, 60);
    expect((await limiter.hit('k', 1, 60)).allowed).toBe(false);
    await limiter.reset('k');
    expect((await limiter.hit('k', 1, 60)).allowed).toBe(true);
  });

  it('undo takes back one hit, never below zero', async () => {
    const limiter = createMemoryRateLimiter();
    await limiter.hit('k', 1, 60);
    await limiter.undo('k');
    expect(await limiter.count('k')).toBe(0);
    await limiter.undo('k');
    await limiter.undo('none');
    expect(await limiter.hit('k', 1, 60)).toMatchObject({ count: 1, allowed: true });
  });
});

const REDIS_URL = process.env.TEST_REDIS_URL;

describe('Redis rate limiter', () => {
  let redis: Redis;
  let limiter: RateLimiter;
  const prefix = `rl-unit:${randomBytes(6).toString('hex')}:`;

  beforeAll(() => {
    if (!REDIS_URL) return;
    redis = new Redis(REDIS_URL, { maxRetriesPerRequest: 2 });
    limiter = createRedisRateLimiter(redis, prefix);
  });
  afterAll(async () => {
    if (!REDIS_URL) return;
    const keys = await redis.keys(`${prefix}*`);
    if (keys.length) await redis.del(...keys);
    await redis.quit();
  });

  it.runIf(REDIS_URL)('counts within a window that expires on its own', async () => {
    expect(await limiter.hit('k', 2, 60)).toMatchObject({ allowed: true, remaining: 1 });
    expect(await limiter.hit('k', 2, 60)).toMatchObject({ allowed: true, remaining: 0 });
    const third = await limiter.hit('k', 2, 60);
    expect(third.allowed).toBe(false);
    expect(third.count).toBe(3);
    expect(await limiter.count('k')).toBe(3);
    expect(await limiter.count('never-hit')).toBe(0);
    expect(third.retryAfterSeconds).toBeGreaterThan(0);
    expect(third.retryAfterSeconds).toBeLessThanOrEqual(60);
    const ttl = await redis.pttl(`${prefix}k`);
    expect(ttl).toBeGreaterThan(0);
    expect(ttl).toBeLessThanOrEqual(60_000);
  });

  it.runIf(REDIS_URL)('starts a new window after expiry, and reset clears a key', async () => {
    await limiter.hit('short', 1, 1);
    expect((await limiter.hit('short', 1, 1)).allowed).toBe(false);
    await new Promise((r) => setTimeout(r, 1100));
    expect((await limiter.hit('short', 1, 1)).allowed).toBe(true);
    await limiter.reset('short');
    expect(await limiter.hit('short', 1, 1)).toMatchObject({ allowed: true, remaining: 0 });
  });

  it.runIf(REDIS_URL)('undo takes back one hit and keeps the expiry; it never creates a key', async () => {
    await limiter.hit('u', 2, 60);
    await limiter.hit('u', 2, 60);
    await limiter.undo('u');
    expect(await limiter.count('u')).toBe(1);
    expect(await redis.pttl(`${prefix}u`)).toBeGreaterThan(0);
    await limiter.undo('u');
    await limiter.undo('u');
    expect(await limiter.count('u')).toBe(0);
    await limiter.undo('absent');
    expect(await redis.exists(`${prefix}absent`)).toBe(0);
  });

  it.runIf(REDIS_URL)('never lets more than max through under concurrency', async () => {
    const results = await Promise.all(Array.from({ length: 20 }, () => limiter.hit('burst', 5, 60)));
    expect(results.filter((r) => r.allowed)).toHaveLength(5);
  });
});
