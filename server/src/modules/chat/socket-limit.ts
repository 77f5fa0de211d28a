import { randomBytes } from 'node:crypto';
import type { Redis } from 'ioredis';
import { createSpreadRenewal } from './spread-renewal.ts';

/** A socket counted against its IP lives this long in Redis unless its instance refreshes it. */
export const SOCKET_LEASE_MS = 60_000;
/** Each lease is renewed once it is this old, a few per tick (at most 1.5 × this between renewals). */
const REFRESH_MS = 20_000;
const keyOf = (ip: string) => `chat:ip-sockets:${ip}`;

/**
 * Open chat sockets per IP. With Redis the count is shared by every instance: each socket is a
 * member of a sorted set per IP, scored by when its lease ends; the instance holding it renews the
 * lease, so the sockets of a crashed instance stop counting after SOCKET_LEASE_MS.
 */
export interface SocketLimiter {
  /** Counts a socket for the IP; returns a release function, or null when the IP already holds `max`. */
  acquire(ip: string, max: number): Promise<(() => Promise<void>) | null>;
  /** Stops renewing and drops this instance's sockets from the counts. */
  close(): Promise<void>;
}

function createLocalLimiter(): SocketLimiter {
  const local = new Map<string, number>();
  return {
    async acquire(ip, max) {
      const count = local.get(ip) ?? 0;
      if (count >= max) return null;
      local.set(ip, count + 1);
      let released = false;
      return async () => {
        if (released) return;
        released = true;
        const left = (local.get(ip) ?? 1) - 1;
        if (left > 0) local.set(ip, left); else local.delete(ip);
      };
    },
    async close() { local.clear(); },
  };
}

/**
 * With Redis, `isUp` (app.ctx.redisHealth) says whether it is reachable: while it is not, sockets
 * are counted per instance (a socket is never refused because Redis is down).
 */
export function createSocketLimiter(opts: { redis?: Redis | undefined; now?: () => number; isUp?: () => boolean } = {}): SocketLimiter {
  const now = opts.now ?? Date.now;
  const fallback = createLocalLimiter();
  if (!opts.redis) return fallback;
  const redis: Redis = opts.redis;
  const isUp = opts.isUp ?? (() => true);

  const held = new Map<string, string>(); // member → ip, for the lease renewals
  const instance = randomBytes(6).toString('hex');
  let seq = 0;
  // Spread over time, one variadic ZADD per IP: renewing 5,000 leases at once stalled the chat.
  const renewal = createSpreadRenewal<string>({
    periodMs: REFRESH_MS,
    now,
    renew: (members) => {
      if (!isUp()) return;
      const until = now() + SOCKET_LEASE_MS;
      const byIp = new Map<string, Array<string | number>>();
      for (const member of members) {
        const ip = held.get(member);
        if (ip === undefined) continue;
        let pairs = byIp.get(ip);
        if (!pairs) { pairs = []; byIp.set(ip, pairs); }
        pairs.push(until, member);
      }
      if (!byIp.size) return;
      const multi = redis.multi();
      for (const [ip, pairs] of byIp) multi.zadd(keyOf(ip), 'XX', ...pairs).pexpire(keyOf(ip), SOCKET_LEASE_MS);
      void multi.exec().catch(() => undefined);
    },
  });

  return {
    async acquire(ip, max) {
      if (!isUp()) return fallback.acquire(ip, max);
      try {
        return await acquireShared(ip, max);
      } catch {
        return fallback.acquire(ip, max); // Redis went away mid-way
      }
    },
    async close() {
      await fallback.close();
      renewal.close();
      const members = [...held];
      held.clear();
      if (members.length && isUp()) {
        const multi = redis.multi();
        for (const [member, ip] of members) multi.zrem(keyOf(ip), member);
        await multi.exec().catch(() => undefined);
      }
    },
  };

  async function acquireShared(ip: string, max: number): Promise<(() => Promise<void>) | null> {
    {
      const key = keyOf(ip);
      seq += 1;
      const member = `${instance}:${seq}`;
      const t = now();
      const results = await redis.multi()
        .zremrangebyscore(key, '-inf', t)
        .zadd(key, t + SOCKET_LEASE_MS, member)
        .zcard(key)
        .pexpire(key, SOCKET_LEASE_MS)
        .exec();
      const count = Number(results?.[2]?.[1] ?? Infinity);
      if (count > max) {
        await redis.zrem(key, member);
        return null;
      }
      held.set(member, ip);
      renewal.written(member);
      return async () => {
        if (!held.delete(member)) return;
        renewal.delete(member);
        await redis.zrem(key, member).catch(() => undefined); // its lease ends by itself
      };
    }
  }
}
