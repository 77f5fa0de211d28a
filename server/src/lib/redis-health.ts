import type { Redis } from 'ioredis';

interface Log { warn(obj: object, msg: string): void; info(obj: object, msg: string): void }

/**
 * Whether the shared Redis is reachable right now. Every feature that uses Redis asks `isUp()`
 * before it does and falls back to this instance's own state when it is not (rate limits, chat
 * fan-out, presence); a command that fails anyway is treated the same way. One warning is logged
 * per outage and one line when Redis is back; `/metrics` exports `shop_redis_up`.
 */
export interface RedisHealth {
  /** False when no Redis is configured. */
  readonly configured: boolean;
  /** True while the connection is ready for commands. */
  isUp(): boolean;
  /** Called with true when Redis comes back after an outage and false when it goes away. */
  onChange(fn: (up: boolean) => void): void;
  /** Seconds since the current outage began (0 while up or when not configured). */
  downForSeconds(): number;
}

/** How often a connected Redis is PINGed: a Redis that hangs without closing the connection counts as down. */
export const REDIS_PING_EVERY_MS = 1_000;

export function watchRedis(redis: Redis | undefined, log: Log, now: () => number = Date.now, pingEveryMs = REDIS_PING_EVERY_MS): RedisHealth {
  const listeners: Array<(up: boolean) => void> = [];
  // Until the first connection is ready Redis counts as up: a start must not report an outage for
  // the few milliseconds the connection takes (commands issued meanwhile are queued by ioredis).
  let up = true;
  let downSince = 0;
  const set = (next: boolean, err?: unknown) => {
    if (next === up) return;
    up = next;
    if (next) {
      log.info({ downForSeconds: Math.round((now() - downSince) / 1000) }, 'Redis is reachable again: shared state resumed');
      downSince = 0;
    } else {
      downSince = now();
      log.warn({ err }, 'Redis is unreachable: rate limits, chat fan-out and presence fall back to this instance until it returns');
    }
    for (const fn of listeners) {
      try { fn(next); } catch { /* a listener's error must not stop the others */ }
    }
  };
  if (redis) {
    redis.on('ready', () => set(true));
    // 'error' fires for every failed reconnect attempt; only the first one of an outage is logged.
    redis.on('error', (err: unknown) => { if (redis.status !== 'ready') set(false, err); });
    redis.on('close', () => set(false));
    redis.on('end', () => set(false));
    // The PING monitor: two PINGs in a row without an answer (the command timeout of lib/redis.ts)
    // mark Redis down even while its socket stays open (a Redis that hangs); the next answered PING
    // marks it up again. One miss is not enough: a timer can fire late after a busy event loop.
    let pinging = false;
    let misses = 0;
    const monitor = setInterval(() => {
      if (pinging || redis.status !== 'ready') return;
      pinging = true;
      redis.ping().then(
        () => { misses = 0; set(true); },
        (err: unknown) => { misses += 1; if (misses >= 2) set(false, err); },
      ).finally(() => { pinging = false; });
    }, pingEveryMs);
    monitor.unref();
    redis.once('end', () => clearInterval(monitor));
  }
  return {
    configured: Boolean(redis),
    isUp: () => Boolean(redis) && up,
    onChange: (fn) => { listeners.push(fn); },
    downForSeconds: () => (redis && !up ? Math.round((now() - downSince) / 1000) : 0),
  };
}
