/**
 * `Idempotency-Key` for the requests that move money (place an order, pay, refund, cancel), one
 * mechanism for every route that opts in with `config: { idempotent: true }`. It follows Stripe's
 * contract (docs.stripe.com/api/idempotent_requests):
 *
 * - A key (1-255 visible ASCII characters) is scoped to the signed-in caller: two users may use the
 *   same key independently. It is optional; without it a request runs as usual.
 * - The first request with a key claims it atomically (one INSERT ... ON CONFLICT in the database,
 *   so every instance of a fleet agrees), runs, and its answer (status and body) is stored. A later
 *   request with the same key and the same request (method, route, path parameters, query and the
 *   parsed body) gets that answer again, with `Idempotent-Replayed: true`, and runs nothing.
 * - The same key with another request: 422 IDEMPOTENCY_KEY_REUSED. While the first request still
 *   runs: 409 IDEMPOTENCY_KEY_IN_USE with Retry-After.
 * - What is stored: every answer the route's handler gave, 2xx and 4xx (a refusal such as "out of
 *   stock" or "PayPal refused the refund" is replayed as Stripe replays a declined card). Not stored,
 *   so that a retry runs again: 5xx answers (the outcome is unknown: PayPal unreachable, the database
 *   down), answers that say to retry later (429, or any answer with Retry-After), and requests refused
 *   before the handler ran (validation, authentication), as Stripe does.
 * - Keys are kept 24 hours: an older key counts as unused, and the job runner deletes them.
 * - A claim whose request never finished (the instance died) is taken over by the next request with
 *   the same key and request once IDEMPOTENCY_LEASE_MS has passed.
 */
import { createHash, randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { FastifyInstance, FastifyReply, FastifyRequest, preHandlerHookHandler } from 'fastify';
import type { Db } from '../db/client.ts';
import { idempotencyKeys } from '../db/schema.ts';
import { AppError, badRequest } from './errors.ts';
import type { JobRunner } from './jobs.ts';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The route honours an Idempotency-Key header (lib/idempotency.ts). Signed-in routes only. */
    idempotent?: boolean;
  }
  interface FastifyRequest {
    /** Set while this request holds an idempotency key (claimed, answer not stored yet). */
    idempotencyClaim: IdempotencyClaim | null;
  }
}

interface IdempotencyClaim {
  userId: string;
  key: string;
  token: string;
}

export const IDEMPOTENCY_HEADER = 'idempotency-key';
export const IDEMPOTENT_REPLAYED_HEADER = 'idempotent-replayed';
/** How long a key and its answer are kept. */
export const IDEMPOTENCY_KEEP_MS = 24 * 3_600_000;
/** How long a claim holds while its request runs (longer than any request: PayPal calls time out in 15 s). */
export const IDEMPOTENCY_LEASE_MS = 120_000;
export const IDEMPOTENCY_PURGE_JOB = 'idempotency.purge';

const KEY_PATTERN = /^[\x21-\x7e]{1,255}$/;
export const IDEMPOTENCY_MESSAGES = {
  invalid: 'Idempotency-Key must be 1 to 255 visible characters (letters, digits, punctuation; no spaces)',
  reused: 'This Idempotency-Key was already used for a different request. Use a new key for a new request.',
  inUse: 'A request with this Idempotency-Key is still being processed. Try again in a moment.',
} as const;

/** JSON with object keys sorted at every level: the same value always gives the same text. */
export function canonicalJson(value: unknown): string {
  if (value === undefined) return 'null';
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null';
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  const entries = Object.entries(value as Record<string, unknown>).filter(([, v]) => v !== undefined).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
}

/** What makes two requests "the same request" for a key: method, route, path parameters, query and body. */
export function requestFingerprint(request: FastifyRequest): string {
  const text = [request.method, request.routeOptions.url ?? '', canonicalJson(request.params), canonicalJson(request.query), canonicalJson(request.body)].join('\n');
  return createHash('sha256').update(text).digest('hex');
}

type Rows<T> = { rows: T[] };

async function claimKey(db: Db, claim: IdempotencyClaim, fingerprint: string): Promise<boolean> {
  const { rows } = (await db.execute(sql`
    insert into ${idempotencyKeys} as k (user_id, key, fingerprint, claim_token, locked_until, created_at)
    values (${claim.userId}::char(24), ${claim.key}::text, ${fingerprint}::text, ${claim.token}::text,
            now() + (${IDEMPOTENCY_LEASE_MS}::int * interval '1 millisecond'), now())
    on conflict (user_id, key) do update set
      fingerprint = excluded.fingerprint, claim_token = excluded.claim_token, locked_until = excluded.locked_until,
      response_status = null, response_body = null, created_at = excluded.created_at
    where k.created_at <= now() - (${IDEMPOTENCY_KEEP_MS}::bigint * interval '1 millisecond')
       or (k.response_status is null and k.fingerprint = excluded.fingerprint and k.locked_until <= now())
    returning claim_token`)) as unknown as Rows<{ claim_token: string }>;
  return rows[0]?.claim_token === claim.token;
}

async function readKey(db: Db, userId: string, key: string) {
  const { rows } = (await db.execute(sql`
    select fingerprint, response_status, response_body from ${idempotencyKeys}
    where user_id = ${userId}::char(24) and key = ${key}::text
      and created_at > now() - (${IDEMPOTENCY_KEEP_MS}::bigint * interval '1 millisecond')`)) as unknown as Rows<{
    fingerprint: string; response_status: number | null; response_body: string | null;
  }>;
  return rows[0];
}

/** Deletes keys older than IDEMPOTENCY_KEEP_MS; returns how many went. */
export async function purgeIdempotencyKeys(db: Db): Promise<number> {
  const { rows } = (await db.execute(sql`
    delete from ${idempotencyKeys} where created_at <= now() - (${IDEMPOTENCY_KEEP_MS}::bigint * interval '1 millisecond')
    returning 1 as gone`)) as unknown as Rows<{ gone: number }>;
  return rows.length;
}

function claimHook(db: Db): preHandlerHookHandler {
  return async function idempotencyClaim(request: FastifyRequest, reply: FastifyReply) {
    const header = request.headers[IDEMPOTENCY_HEADER];
    if (header === undefined) return;
    if (typeof header !== 'string' || !KEY_PATTERN.test(header)) {
      throw badRequest(IDEMPOTENCY_MESSAGES.invalid, { [IDEMPOTENCY_HEADER]: IDEMPOTENCY_MESSAGES.invalid }, 'IDEMPOTENCY_KEY_INVALID');
    }
    const user = request.user;
    if (!user) return; // signed-in routes only (checked when the route is registered)
    const fingerprint = requestFingerprint(request);
    // A key released between our insert and our read (a 5xx, or purged) is claimed on the next turn.
    for (let attempt = 0; attempt < 3; attempt += 1) {
      const claim = { userId: user.id, key: header, token: randomBytes(12).toString('hex') };
      if (await claimKey(db, claim, fingerprint)) {
        request.idempotencyClaim = claim;
        return;
      }
      const stored = await readKey(db, user.id, header);
      if (!stored) continue;
      if (stored.fingerprint !== fingerprint) throw new AppError(422, IDEMPOTENCY_MESSAGES.reused, 'IDEMPOTENCY_KEY_REUSED');
      if (stored.response_status === null || stored.response_body === null) {
        throw new AppError(409, IDEMPOTENCY_MESSAGES.inUse, 'IDEMPOTENCY_KEY_IN_USE', undefined, 1);
      }
      return reply.code(stored.response_status)
        .header('content-type', 'application/json; charset=utf-8')
        .header(IDEMPOTENT_REPLAYED_HEADER, 'true')
        .send(stored.response_body);
    }
    throw new AppError(409, IDEMPOTENCY_MESSAGES.inUse, 'IDEMPOTENCY_KEY_IN_USE', undefined, 1);
  };
}

/** Whether an answer is kept for the key (see the module comment). */
function isStoredAnswer(reply: FastifyReply): boolean {
  const status = reply.statusCode;
  return status < 500 && status !== 429 && reply.getHeader('retry-after') === undefined;
}

/**
 * Installs the mechanism: routes registered after this with `config.idempotent` claim the key after
 * authentication and validation (a route-level preHandler), and every claimed request stores or
 * releases its key as its answer leaves (an instance-level onSend, which runs before the routes'
 * own onSend hooks such as compression, so the stored body is the JSON text). Registers the purge
 * job on the runner (every `purgeEveryMs`).
 */
export function registerIdempotency(app: FastifyInstance, opts: { db: Db; jobs: JobRunner; purgeEveryMs: number }): void {
  const { db } = opts;
  app.decorateRequest('idempotencyClaim', null);
  const claim = claimHook(db);
  app.addHook('onRoute', (route) => {
    if (!route.config?.idempotent) return;
    if (route.config.access === 'public') throw new Error(`Route ${String(route.method)} ${route.url}: an idempotent route must be for signed-in callers (keys are scoped to the caller)`);
    const existing = route.preHandler === undefined ? [] : Array.isArray(route.preHandler) ? route.preHandler : [route.preHandler];
    route.preHandler = [...existing, claim];
  });
  app.addHook('onSend', async (request, reply, payload) => {
    const held = request.idempotencyClaim;
    if (!held) return payload;
    request.idempotencyClaim = null;
    const body = typeof payload === 'string' ? payload : Buffer.isBuffer(payload) ? payload.toString('utf8') : null;
    const where = sql`user_id = ${held.userId}::char(24) and key = ${held.key}::text and claim_token = ${held.token}::text`;
    try {
      if (body !== null && isStoredAnswer(reply)) {
        await db.execute(sql`update ${idempotencyKeys} set response_status = ${reply.statusCode}::int, response_body = ${body}::text,
          claim_token = null, locked_until = null where ${where}`);
      } else {
        await db.execute(sql`delete from ${idempotencyKeys} where ${where} and response_status is null`);
      }
    } catch (err) {
      // The answer still goes out; the key stays claimed until its lease ends, then a retry runs again.
      request.log.error({ err, route: request.routeOptions.url ?? null }, 'could not store the answer of an idempotent request');
    }
    return payload;
  });
  opts.jobs.register(IDEMPOTENCY_PURGE_JOB, async () => ({ deleted: await purgeIdempotencyKeys(db) }));
  opts.jobs.schedule(IDEMPOTENCY_PURGE_JOB, opts.purgeEveryMs);
}
