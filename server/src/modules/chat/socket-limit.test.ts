import { Redis } from 'ioredis';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { createSocketLimiter, SOCKET_LEASE_MS } from './socket-limit.ts';

const REDIS_URL = process.env.TEST_REDIS_URL;

describe('sockets per IP, in one process', () => {
  it('refuses past the limit and counts released sockets out', async () => {
    const limiter = createSocketLimiter();
    const first = await limiter.acquire('1.2.3.4', 2);
    const second = await limiter.acquire('1.2.3.4', 2);
    expect(first && second).toBeTruthy();
    expect(await limiter.acquire('1.2.3.4', 2)).toBeNull();
    expect(await limiter.acquire('5.6.7.8', 2)).not.toBeNull();
    await first!();
    await first!(); // releasing twice frees one place only
    expect(await limiter.acquire('1.2.3.4', 2)).not.toBeNull();
    expect(await limiter.acquire('1.2.3.4', 2)).toBeNull();
    await limiter.close();
  });
});

describe.runIf(REDIS_URL)('sockets per IP, shared in Redis', () => {
  const redis = REDIS_URL ? new Redis(REDIS_URL) : null;
  const ip = `198.51.100.${Math.floor(Math.random() * 250)}-${Date.now()}`;
  afterAll(async () => {
    await redis?.del(`chat:ip-sockets:${ip}`);
    await redis?.quit();
  });

  it('two instances share the count; a crashed instance\'s sockets stop counting after the lease', async () => {
    let clock = 1_000_000;
    const now = () => clock;
    const a = createSocketLimiter({ redis: redis!, now });
    const b = createSocketLimiter({ redis: redis!, now });
    const onA = await a.acquire(ip, 2);
    expect(onA).not.toBeNull();
    expect(await b.acquire(ip, 2)).not.toBeNull();
    expect(await a.acquire(ip, 2)).toBeNull();
    expect(await b.acquire(ip, 2)).toBeNull();
    await onA!();
    const again = await b.acquire(ip, 2);
    expect(again).not.toBeNull();
    expect(await a.acquire(ip, 2)).toBeNull();
    // Instance B "crashes" (never releases, never renews): its two sockets lapse after the lease.
    clock += SOCKET_LEASE_MS + 1;
    expect(await a.acquire(ip, 2)).not.toBeNull();
    expect(await a.acquire(ip, 2)).not.toBeNull();
    expect(await a.acquire(ip, 2)).toBeNull();
    await a.close();
    // A closed instance drops its own sockets from the count.
    expect(await redis!.zcard(`chat:ip-sockets:${ip}`)).toBe(0);
    void b;
  });

  it('an instance renews the leases of the sockets it holds (a few at a time), not of released ones', async () => {
    const renewedIp = `${ip}-renewed`;
    const key = `chat:ip-sockets:${renewedIp}`;
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    try {
      let clock = 2_000_000;
      const a = createSocketLimiter({ redis: redis!, now: () => clock });
      const releases = [];
      for (let i = 0; i < 300; i += 1) releases.push(await a.acquire(renewedIp, 1000));
      await releases[0]!();
      for (let t = 0; t < 3 * SOCKET_LEASE_MS; t += 250) {
        clock += 250;
        vi.advanceTimersByTime(250);
      }
      // Commands on one connection keep their order: the renewals were applied before this count.
      expect(await redis!.zcount(key, clock, '+inf')).toBe(299);
      expect(await redis!.zcard(key)).toBe(299);
      await a.close();
      expect(await redis!.zcard(key)).toBe(0);
    } finally {
      vi.useRealTimers();
      await redis!.del(key);
    }
  });
});
