import type { Redis } from 'ioredis';

export interface RateLimitResult {
  allowed: boolean;
  remaining: number;
  retryAfterSeconds: number;
}

/** Fixed-window counters keyed by whatever the caller chooses (IP, e-mail, ...). */
export interface RateLimiter {
  hit(key: string, max: number, windowSeconds: number): Promise<RateLimitResult>;
  reset(key: string): Promise<void>;
}

export function createMemoryRateLimiter(now: () => number = Date.now): RateLimiter {
  const buckets = new Map<string, { count: number; resetAt: number }>();
  let lastSweep = now();
  return {
    async hit(key, max, windowSeconds) {
      const t = now();
      if (t - lastSweep > 60_000) {
        for (const [k, b] of buckets) if (b.resetAt <= t) buckets.delete(k);
        lastSweep = t;
      }
      let bucket = buckets.get(key);
      if (!bucket || bucket.resetAt <= t) {
        bucket = { count: 0, resetAt: t + windowSeconds * 1000 };
        buckets.set(key, bucket);
      }
      bucket.count += 1;
      return {
        allowed: bucket.count <= max,
        remaining: Math.max(0, max - bucket.count),
        retryAfterSeconds: Math.max(1, Math.ceil((bucket.resetAt - t) / 1000)),
      };
    },
    async reset(key) {
      buckets.delete(key);
    },
  };
}

/** Shared counters for several app instances behind a load balancer. */
export function createRedisRateLimiter(redis: Redis, prefix = 'rl:'): RateLimiter {
  return {
    async hit(key, max, windowSeconds) {
      const k = prefix + key;
      const [[, count], [, ttl]] = (await redis
        .multi()
        .incr(k)
        .pttl(k)
        .exec()) as [[unknown, number], [unknown, number]];
      if (ttl < 0) await redis.pexpire(k, windowSeconds * 1000);
      const ttlMs = ttl < 0 ? windowSeconds * 1000 : ttl;
      return { allowed: count <= max, remaining: Math.max(0, max - count), retryAfterSeconds: Math.max(1, Math.ceil(ttlMs / 1000)) };
    },
    async reset(key) {
      await redis.del(prefix + key);
    },
  };
}
