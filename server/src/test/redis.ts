import { Redis } from 'ioredis';

/**
 * Test files that start whole shop instances on Redis each get a Redis database of their own.
 * The shop's chat keys (presence, per-IP message counts) are shared by design across a fleet, so
 * two such files on one database see each other: a test writing ten messages a second from
 * 127.0.0.1 used up another test's per-IP message allowance, and one test's clean-up removed the
 * other's presence. Each file is given a fixed database index counted down from TEST_REDIS_URL's.
 */
const OWNERS = ['chat-instances', 'rolling-restart', 'cluster', 'chat-revocation'] as const;

export function isolatedRedisUrl(owner: (typeof OWNERS)[number]): string | undefined {
  const base = process.env.TEST_REDIS_URL;
  if (!base) return undefined;
  const url = new URL(base);
  const baseIndex = Number(url.pathname.slice(1) || '0');
  const index = (baseIndex - 1 - OWNERS.indexOf(owner) + 16) % 16;
  url.pathname = `/${index}`;
  return url.toString();
}

/** Empties the file's own database (nothing else uses it), so a test starts from no chat state. */
export async function flushIsolatedRedis(url: string): Promise<void> {
  const redis = new Redis(url, { maxRetriesPerRequest: 2 });
  try {
    await redis.flushdb();
  } finally {
    await redis.quit();
  }
}
