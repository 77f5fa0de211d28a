import { randomBytes } from 'node:crypto';
import type { Redis } from 'ioredis';
import type { RedisHealth } from '../../lib/redis-health.ts';

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

/** Per-instance counts (no Redis, or Redis unreachable). */
function createLocalSocketLimiter(): SocketLimiter {
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
 * With Redis, the count is shared by the fleet while Redis is reachable; while it is not (`health`
 * says down, the connection is not ready, or a command fails), sockets are counted by this instance
 * alone, so a Redis outage never refuses or delays a chat connection. A socket keeps being released
 * where it was counted.
 */
export function createSocketLimiter(opts: { redis?: Redis | undefined; health?: Pick<RedisHealth, 'isUp'> | undefined; now?: () => number } = {}): SocketLimiter {
  const now = opts.now ?? Date.now;
  const redis = opts.redis;
  const fallback = createLocalSocketLimiter();
  if (!redis) return fallback;
  const health = opts.health;
  // Before its first connection a client queues commands (lib/redis.ts); after it, a connection
  // that is not ready means Redis is away.
  let everReady = redis.status === 'ready';
  if (!everReady) redis.once('ready', () => { everReady = true; });
  const redisUsable = () => (redis.status === 'ready' || !everReady) && (health?.isUp() ?? true);

  const held = new Map<string, string>(); // member → ip, for the lease renewals
  const instance = randomBytes(6).toString('hex');
  let seq = 0;
  const renew = setInterval(() => {
    if (!held.size || !redisUsable()) return;
    const until = now() + SOCKET_LEASE_MS;
    const multi = redis.multi();
    for (const [member, ip] of held) multi.zadd(keyOf(ip), 'XX', until, member).pexpire(keyOf(ip), SOCKET_LEASE_MS);
    void multi.exec().catch(() => undefined);
  }, REFRESH_MS);
  renew.unref();

  const acquireShared = async (ip: string, max: number): Promise<(() => Promise<void>) | null> => {
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
      await redis.zrem(key, member).catch(() => undefined);
      return null;
    }
    held.set(member, ip);
    return async () => {
      if (!held.delete(member)) return;
      // While Redis is down the lease simply runs out (SOCKET_LEASE_MS).
      await redis.zrem(key, member).catch(() => undefined);
    };
  };

  return {
    async acquire(ip, max) {
      if (!redisUsable()) return fallback.acquire(ip, max);
      try {
        return await acquireShared(ip, max);
      } catch {
        return fallback.acquire(ip, max);
      }
    },
    async close() {
      clearInterval(renew);
      await fallback.close();
      const members = [...held];
      held.clear();
      if (members.length && redisUsable()) {
        const multi = redis.multi();
        for (const [member, ip] of members) multi.zrem(keyOf(ip), member);
        await multi.exec().catch(() => undefined);
      }
    },
  };
}
