import { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort } from '../test/ports.ts';
import { createFailoverRateLimiter, createMemoryRateLimiter } from './rate-limit.ts';

describe('per-instance rate-limit counters', () => {
  it('keep at most maxKeys windows, dropping the oldest', async () => {
    let t = 0;
    const limiter = createMemoryRateLimiter(() => t, { maxKeys: 3 });
    for (const key of ['a', 'b', 'c']) { t += 1; await limiter.hit(key, 10, 60); }
    await limiter.hit('a', 10, 60);
    expect(await limiter.count('a')).toBe(2);
    t += 1;
    await limiter.hit('d', 10, 60); // a fourth key: the oldest window ('a') goes
    expect(await limiter.count('a')).toBe(0);
    expect(await limiter.count('b')).toBe(1);
    expect(await limiter.count('d')).toBe(1);
  });

  it('stay bounded under 200,000 distinct keys', async () => {
    const limiter = createMemoryRateLimiter(Date.now, { maxKeys: 1_000 });
    for (let i = 0; i < 200_000; i++) await limiter.hit(`ip:${i}`, 5, 60);
    expect(await limiter.count('ip:199999')).toBe(1);
    expect(await limiter.count('ip:198999')).toBe(0);
  });
});

describe('failover rate limiter while Redis is unreachable', () => {
  // A client whose server does not exist: every command fails at once (no offline queue).
  let redis: Redis;
  afterAll(() => { redis?.disconnect(); });

  it('count on this instance, without waiting and without errors', async () => {
    const port = await freePort();
    redis = new Redis({ host: '127.0.0.1', port, lazyConnect: true, enableOfflineQueue: false, maxRetriesPerRequest: 0, retryStrategy: () => null });
    redis.on('error', () => undefined);
    // Health says up, the command fails: still answered from local counters.
    let up = true;
    const limiter = createFailoverRateLimiter(redis, { isUp: () => up });
    const first = await limiter.hit('k', 2, 60);
    expect(first).toMatchObject({ count: 1, allowed: true });
    up = false;
    expect((await limiter.hitMany([{ key: 'k', max: 2, windowSeconds: 60 }]))[0]).toMatchObject({ count: 2, allowed: true });
    expect(await limiter.hit('k', 2, 60)).toMatchObject({ count: 3, allowed: false });
    expect(await limiter.count('k')).toBe(3);
    await limiter.reset('k');
    expect(await limiter.count('k')).toBe(0);

  });
});
