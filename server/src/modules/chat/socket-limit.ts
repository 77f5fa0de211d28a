import { randomBytes } from 'node:crypto';
import type { Redis } from 'ioredis';

/** A socket counted against its IP lives this long in Redis unless its instance refreshes it. */
export const SOCKET_LEASE_MS = 60_000;
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

export function createSocketLimiter(opts: { redis?: Redis | undefined; now?: () => number } = {}): SocketLimiter {
  const now = opts.now ?? Date.now;
  const redis = opts.redis;
  const local = new Map<string, number>();
  if (!redis) {
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

  const held = new Map<string, string>(); // member → ip, for the lease renewals
  const instance = randomBytes(6).toString('hex');
  let seq = 0;
  const renew = setInterval(() => {
    if (!held.size) return;
    const until = now() + SOCKET_LEASE_MS;
    const multi = redis.multi();
    for (const [member, ip] of held) multi.zadd(keyOf(ip), 'XX', until, member).pexpire(keyOf(ip), SOCKET_LEASE_MS);
    void multi.exec().catch(() => undefined);
  }, REFRESH_MS);
  renew.unref();

  return {
    async acquire(ip, max) {
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
      return async () => {
        if (!held.delete(member)) return;
        await redis.zrem(key, member);
      };
    },
    async close() {
      clearInterval(renew);
      const members = [...held];
      held.clear();
      if (members.length) {
        const multi = redis.multi();
        for (const [member, ip] of members) multi.zrem(keyOf(ip), member);
        await multi.exec().catch(() => undefined);
      }
    },
  };
}
