import { TOO_MANY_ATTEMPTS } from '@shop/contracts';
import type { FastifyReply } from 'fastify';
import type { Redis } from 'ioredis';
import { tooManyRequests } from './errors.ts';
import type { RedisHealth } from './redis-health.ts';

export interface RateLimitResult {
  /** Hits in the current window, this one included. */
  count: number;
  allowed: boolean;
  remaining: number;
  retryAfterSeconds: number;
}

/** Fixed-window counters keyed by whatever the caller chooses (IP, e-mail, ...). */
export interface RateLimiter {
  hit(key: string, max: number, windowSeconds: number): Promise<RateLimitResult>;
  /** Counts one hit against each key at once (with Redis: one round trip for all of them). */
  hitMany(hits: Array<{ key: string; max: number; windowSeconds: number }>): Promise<RateLimitResult[]>;
  /** Hits in the current window, without counting one (0 when there is no window). */
  count(key: string): Promise<number>;
  reset(key: string): Promise<void>;
  /** Takes back one hit of the current window (no-op when there is none), keeping its expiry. */
  undo(key: string): Promise<void>;
}

/** Per-instance counters keep at most this many keys; the oldest window is dropped for a new one. */
export const MEMORY_RATE_LIMIT_MAX_KEYS = 100_000;

export function createMemoryRateLimiter(now: () => number = Date.now, opts: { maxKeys?: number } = {}): RateLimiter {
  const maxKeys = opts.maxKeys ?? MEMORY_RATE_LIMIT_MAX_KEYS;
  // Insertion order is the order windows started in: the first key is the oldest.
  const buckets = new Map<string, { count: number; resetAt: number }>();
  let lastSweep = now();
  const limiter: RateLimiter = {
    async hitMany(hits) {
      return Promise.all(hits.map((h) => limiter.hit(h.key, h.max, h.windowSeconds)));
    },
    async hit(key, max, windowSeconds) {
      const t = now();
      if (t - lastSweep > 60_000) {
        for (const [k, b] of buckets) if (b.resetAt <= t) buckets.delete(k);
        lastSweep = t;
      }
      let bucket = buckets.get(key);
      if (!bucket || bucket.resetAt <= t) {
        bucket = { count: 0, resetAt: t + windowSeconds * 1000 };
        buckets.delete(key);
        while (buckets.size >= maxKeys) {
          const oldest = buckets.keys().next().value;
          if (oldest === undefined) break;
          buckets.delete(oldest);
        }
        buckets.set(key, bucket);
      }
      bucket.count += 1;
      return {
        count: bucket.count,
        allowed: bucket.count <= max,
        remaining: Math.max(0, max - bucket.count),
        retryAfterSeconds: Math.max(1, Math.ceil((bucket.resetAt - t) / 1000)),
      };
    },
    async count(key) {
      const bucket = buckets.get(key);
      return bucket && bucket.resetAt > now() ? bucket.count : 0;
    },
    async reset(key) {
      buckets.delete(key);
    },
    async undo(key) {
      const bucket = buckets.get(key);
      if (bucket && bucket.resetAt > now() && bucket.count > 0) bucket.count -= 1;
    },
  };
  return limiter;
}

const UNDO_SCRIPT = "local n = tonumber(redis.call('GET', KEYS[1]) or '0') if n > 0 then redis.call('DECR', KEYS[1]) end return 0";

/** Shared counters for several app instances behind a load balancer. */
export function createRedisRateLimiter(redis: Redis, prefix = 'rl:'): RateLimiter {
  const limiter: RateLimiter = {
    async hit(key, max, windowSeconds) {
      const [result] = await limiter.hitMany([{ key, max, windowSeconds }]);
      return result!;
    },
    async hitMany(hits) {
      // One MULTI for every key: start the window (with its expiry) if there is none, count, read what is left.
      const multi = redis.multi();
      for (const h of hits) {
        const k = prefix + h.key;
        multi.set(k, 0, 'PX', h.windowSeconds * 1000, 'NX').incr(k).pttl(k);
      }
      const results = await multi.exec();
      if (!results) throw new Error('rate limiter: Redis transaction aborted');
      for (const [err] of results) if (err) throw err;
      return hits.map((h, i) => {
        const count = Number(results[i * 3 + 1]?.[1]);
        const ttl = Number(results[i * 3 + 2]?.[1]);
        const ttlMs = ttl > 0 ? ttl : h.windowSeconds * 1000;
        return { count, allowed: count <= h.max, remaining: Math.max(0, h.max - count), retryAfterSeconds: Math.max(1, Math.ceil(ttlMs / 1000)) };
      });
    },
    async count(key) {
      return Number(await redis.get(prefix + key)) || 0;
    },
    async reset(key) {
      await redis.del(prefix + key);
    },
    async undo(key) {
      // Only while the window exists and above zero, so an expired key is not recreated without expiry.
      await redis.eval(UNDO_SCRIPT, 1, prefix + key);
    },
  };
  return limiter;
}

/**
 * Shared counters in Redis while it is reachable; while it is not (`health` says down, or a command
 * fails or times out), this instance's own bounded counters (createMemoryRateLimiter) take over, so
 * a Redis outage never fails or delays a request. The limits then hold per instance rather than per
 * fleet; the shared counters resume by themselves when Redis is back.
 */
export function createFailoverRateLimiter(
  redis: Redis,
  health: Pick<RedisHealth, 'isUp'>,
  opts: { prefix?: string; maxKeys?: number; now?: () => number } = {},
): RateLimiter {
  const shared = createRedisRateLimiter(redis, opts.prefix);
  const local = createMemoryRateLimiter(opts.now, { maxKeys: opts.maxKeys ?? MEMORY_RATE_LIMIT_MAX_KEYS });
  const either = async <T>(fromRedis: () => Promise<T>, fromLocal: () => Promise<T>): Promise<T> => {
    if (!health.isUp()) return fromLocal();
    try {
      return await fromRedis();
    } catch {
      // Redis failed between two health checks: redis-health.ts logs the outage once.
      return fromLocal();
    }
  };
  // Every method of the limiter (whatever the interface grows) goes to Redis or, failing that, to
  // this instance's counters; reset clears both.
  type Method = (...args: unknown[]) => Promise<unknown>;
  const limiter = {} as Record<keyof RateLimiter, Method>;
  for (const name of Object.keys(shared) as Array<keyof RateLimiter>) {
    const fromRedis = shared[name] as Method;
    const fromLocal = local[name] as Method;
    limiter[name] = (...args) => either(() => fromRedis(...args), () => fromLocal(...args));
  }
  limiter.reset = async (...args) => {
    await (local.reset as Method)(...args);
    await either(() => (shared.reset as Method)(...args), async () => undefined);
  };
  return limiter as unknown as RateLimiter;
}

/**
 * Counts one attempt against every key (e.g. the caller's IP and the e-mail it targets) and throws
 * 429 with a Retry-After header when any of them is over `max` within the window.
 */
export async function enforceRateLimits(
  limiter: RateLimiter,
  reply: FastifyReply,
  keys: string[],
  limit: { max: number; windowSeconds: number },
): Promise<void> {
  const results = await limiter.hitMany(keys.map((key) => ({ key, max: limit.max, windowSeconds: limit.windowSeconds })));
  const blocked = results.filter((r) => !r.allowed);
  if (!blocked.length) return;
  reply.header('retry-after', String(Math.max(...blocked.map((r) => r.retryAfterSeconds))));
  throw tooManyRequests(TOO_MANY_ATTEMPTS);
}
