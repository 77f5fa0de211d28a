import { TOO_MANY_ATTEMPTS } from '@shop/contracts';
import { isIPv6 } from 'node:net';
import type { FastifyReply } from 'fastify';
import { tooManyRequests } from '../../lib/errors.ts';
import type { RateLimiter } from '../../lib/rate-limit.ts';

/**
 * The client an IP address stands for: an IPv4 address, or the /64 network of an IPv6 address
 * (one subscriber usually holds a whole /64, so counting single IPv6 addresses would let one
 * attacker rotate through billions of them).
 */
export function clientKey(ip: string): string {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(ip);
  if (mapped?.[1]) return mapped[1];
  if (!isIPv6(ip)) return ip;
  const [head = '', tail = ''] = ip.toLowerCase().split('::');
  const headParts = head ? head.split(':') : [];
  const tailParts = tail ? tail.split(':') : [];
  const groups = ip.includes('::')
    ? [...headParts, ...Array<string>(8 - headParts.length - tailParts.length).fill('0'), ...tailParts]
    : headParts;
  return `${groups.slice(0, 4).map((g) => g.replace(/^0+(?=.)/, '')).join(':')}::/64`;
}

export interface SignInGuardOptions {
  limiter: RateLimiter;
  /** AUTH_RATE_LIMIT_MAX and AUTH_RATE_LIMIT_WINDOW_SECONDS. */
  limit: { max: number; windowSeconds: number };
}

/**
 * Stops password guessing without handing an attacker a way to lock the owner out:
 *
 * - per client (IP, or IPv6 /64): at most `max` failed sign-ins per window, on any accounts
 *   (one source guessing, or trying one password on many accounts). Successful sign-ins do not
 *   count, so an office behind one address is never refused the right password for signing in often;
 * - per client and account: at most `max` failed attempts per window;
 * - per account, failures from every client are counted. Past `max` the account is "under
 *   attack": a client that has already failed on it in this window gets 429, even with the right
 *   password, so each further source gets a single guess. A client with no failures on the
 *   account (the owner on their phone, at home, at work) is never refused because of the account
 *   count, and a correct password from it signs in and clears the count.
 *
 * A successful sign-in takes back its own count on the client and clears the client's failures on
 * that account and the account's failures; a password reset clears the account's. Counters live in the rate limiter (memory, or Redis shared by every instance),
 * and every check counts before the password is verified, so parallel requests cannot slip past.
 */
export function createSignInGuard({ limiter, limit }: SignInGuardOptions) {
  const keys = (ip: string, email: string) => {
    const client = clientKey(ip);
    const account = email.trim().toLowerCase();
    return { client: `auth:signin:client:${client}`, pair: `auth:signin:pair:${client}:${account}`, account: `auth:signin:account:${account}` };
  };
  const refuse = (reply: FastifyReply, retryAfterSeconds: number) => {
    reply.header('retry-after', String(retryAfterSeconds));
    return tooManyRequests(TOO_MANY_ATTEMPTS);
  };

  return {
    /** Counts the attempt; throws 429 when this client may not try this account now. */
    async beforeAttempt(reply: FastifyReply, ip: string, email: string): Promise<void> {
      const k = keys(ip, email);
      const client = await limiter.hit(k.client, limit.max, limit.windowSeconds);
      if (!client.allowed) throw refuse(reply, client.retryAfterSeconds);
      // Counted as a failure until the password proves right (then cleared).
      const pair = await limiter.hit(k.pair, limit.max, limit.windowSeconds);
      if (!pair.allowed) throw refuse(reply, pair.retryAfterSeconds);
      const earlierPairFailures = pair.count - 1;
      if (earlierPairFailures > 0 && (await limiter.count(k.account)) >= limit.max) throw refuse(reply, limit.windowSeconds);
    },
    async onSuccess(ip: string, email: string): Promise<void> {
      const k = keys(ip, email);
      // The attempt was counted up front (so parallel guesses cannot slip past); a right password is not a failure.
      await Promise.all([limiter.undo(k.client), limiter.reset(k.pair), limiter.reset(k.account)]);
    },
    async onFailure(ip: string, email: string): Promise<void> {
      await limiter.hit(keys(ip, email).account, Number.MAX_SAFE_INTEGER, limit.windowSeconds);
    },
    /** The owner proved access to the mailbox (password reset): the account is no longer under attack. */
    async clearAccount(email: string): Promise<void> {
      await limiter.reset(keys('', email).account);
    },
  };
}
export type SignInGuard = ReturnType<typeof createSignInGuard>;
