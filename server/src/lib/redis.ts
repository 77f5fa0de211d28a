import { Redis, type RedisOptions } from 'ioredis';

/** A command that has no answer within this time fails (the caller falls back to local state). */
export const REDIS_COMMAND_TIMEOUT_MS = 1_000;
/** Reconnect back-off: 100 ms, 200 ms, 400 ms, ... at most this long between attempts. */
export const REDIS_MAX_RECONNECT_DELAY_MS = 2_000;

/** Delay before reconnect attempt `times` (1, 2, ...): doubling from 100 ms, capped; never gives up. */
export function redisReconnectDelay(times: number): number {
  return Math.min(100 * 2 ** Math.min(Math.max(times, 1) - 1, 10), REDIS_MAX_RECONNECT_DELAY_MS);
}

/**
 * The options of the shop's Redis connections: fail fast while Redis is unreachable, so that a
 * request never waits for it (every user of Redis falls back to this instance's own state, see
 * redis-health.ts). Commands issued before the first connection is ready are queued (a start
 * must not fail for the milliseconds the connection takes); once it has been ready, the offline
 * queue is switched off (see createRedisClient), so a command during an outage is refused at once
 * instead of waiting for a reconnect. A command that is sent but unanswered fails after
 * REDIS_COMMAND_TIMEOUT_MS (a Redis that hangs), and one caught by a dropped connection fails at the
 * first failed reconnect (maxRetriesPerRequest 0).
 */
export function redisOptions(): RedisOptions {
  return {
    lazyConnect: false,
    enableOfflineQueue: true,
    maxRetriesPerRequest: 0,
    connectTimeout: 2_000,
    commandTimeout: REDIS_COMMAND_TIMEOUT_MS,
    retryStrategy: redisReconnectDelay,
    // READONLY after a failover: reconnect to whichever server now answers at the address.
    reconnectOnError: (err) => err.message.startsWith('READONLY'),
  };
}

export function createRedisClient(url: string): Redis {
  const redis = new Redis(url, redisOptions());
  redis.once('ready', () => {
    // ioredis reads the option on every command: from now on a command while disconnected fails at once.
    redis.options.enableOfflineQueue = false;
  });
  // A connection made with duplicate() (the chat hub's subscriber) starts with its offline queue on,
  // whatever this one's is by then (its SUBSCRIBE waits for its own first connection), and without
  // the command timeout: a subscription has no deadline, and a timer that fires late after a busy
  // event loop must not cancel it.
  const duplicate = redis.duplicate.bind(redis);
  redis.duplicate = (override?: Partial<RedisOptions>) => {
    const copy = duplicate({ enableOfflineQueue: true, commandTimeout: undefined, ...override });
    copy.on('error', () => undefined);
    return copy;
  };
  // Without a listener ioredis prints every failed reconnect; redis-health.ts logs one line per outage.
  redis.on('error', () => undefined);
  return redis;
}
