import type { FastifyBaseLogger } from 'fastify';
import { CJ_MESSAGES } from '@shop/contracts';
import type { z } from 'zod';
import { AppError } from '../../lib/errors.ts';
import {
  CJ_AUTH_CODES, CJ_CODES, cjCategoryDataSchema, cjCreatedOrderSchema, cjDeletedOrderSchema, cjEnvelopeSchema, cjFreightDataSchema, cjListDataSchema,
  cjOrderDetailSchema, cjProductDataSchema, cjStockDataSchema, cjTokenDataSchema, type CjCreateOrderBody, type CjFreightBody, type CjTokenData,
} from './cj-types.ts';
import type { ListProductsInput, SupplierCatalogue } from './supplier-catalogue.ts';
import type { TokenStore } from './token-store.ts';

/**
 * A refusal or failure of CJ's API, with a message safe to show an administrator. `cjCode` is
 * CJ's envelope code (null for network errors and HTTP failures).
 */
export class CjApiError extends AppError {
  constructor(statusCode: number, message: string, public readonly cjCode: number | null, code = 'SUPPLIER_ERROR') {
    super(statusCode, message, code);
    this.name = 'CjApiError';
  }
}

const LOGIN_INTERVAL_MS = 5 * 60_000;
const DAY_MS = 86_400_000;

/** One place that turns CJ's codes into what the shop says. */
export function cjError(code: number | null, cjMessage: string | null | undefined): CjApiError {
  if (code === CJ_CODES.tooManyRequests) return new CjApiError(429, CJ_MESSAGES.rateLimited, code, 'SUPPLIER_RATE_LIMITED');
  if (code === CJ_CODES.quotaUsedUp) return new CjApiError(429, CJ_MESSAGES.quotaUsedUp, code, 'SUPPLIER_QUOTA');
  if (code !== null && CJ_AUTH_CODES.has(code)) return new CjApiError(502, CJ_MESSAGES.authFailed, code, 'SUPPLIER_AUTH');
  if (code === CJ_CODES.productNotFound) return new CjApiError(404, CJ_MESSAGES.notFound, code, 'SUPPLIER_NOT_FOUND');
  if (code === CJ_CODES.variantNotFound) return new CjApiError(404, CJ_MESSAGES.variantNotFound, code, 'SUPPLIER_NOT_FOUND');
  if (code === null || code === CJ_CODES.systemBusy) return new CjApiError(503, CJ_MESSAGES.unavailable, code, 'SUPPLIER_UNAVAILABLE');
  // Any other refusal (bad parameter, balance, logistic...): CJ's own words, which are about our request.
  const detail = (cjMessage ?? '').replace(/\s+/g, ' ').trim().slice(0, 200) || 'no reason given';
  return new CjApiError(502, `CJ refused the request (code ${code}): ${detail}`, code, 'SUPPLIER_REFUSED');
}

const isRetryable = (code: number | null) => code === null || code === CJ_CODES.tooManyRequests || code === CJ_CODES.systemBusy;

export interface CjClientOptions {
  apiKey: string;
  apiBase: string;
  tokens: TokenStore;
  /** CJ allows 1 request per second on free accounts (more on higher levels). */
  requestsPerSecond: number;
  log: FastifyBaseLogger;
  timeoutMs?: number;
  /** Retries after the first attempt on rate limits, 5xx, timeouts and CJ's "system busy". */
  maxRetries?: number;
  retryBaseMs?: number;
  /** One call's whole time, its retries included (default CJ_CALL_BUDGET_MS): a shopper waits on some of them. */
  callBudgetMs?: number;
  /** After a call found CJ unreachable (no answer at all), calls fail at once for this long (default CJ_UNREACHABLE_PAUSE_MS). */
  unreachablePauseMs?: number;
  /** Renew the access token when less than this is left (CJ's tokens live 15 days). */
  renewBeforeMs?: number;
  now?: () => number;
  sleep?: (ms: number) => Promise<void>;
  fetch?: typeof fetch;
}

/**
 * A call to CJ, its retries included, ends within this time. Checkout (the freight quote) and the
 * back office's supplier pages wait on these calls: a CJ that accepts connections and never answers
 * made them wait 4 x 10 s plus backoff.
 */
export const CJ_CALL_BUDGET_MS = 12_000;
/**
 * After a call found CJ unreachable (timeouts or network errors to its last attempt), the calls of
 * the next this-many milliseconds fail at once, as CJ being unavailable, instead of each waiting out
 * the budget: the next shoppers get the shop's own shipping rule at once, background work retries
 * later. Then one call tries CJ again. CJ answering with an error (rate limit, 5xx) does not count.
 */
export const CJ_UNREACHABLE_PAUSE_MS = 30_000;

/** Spaces requests so that this instance stays under CJ's per-second limit. */
export function createRateLimiter(requestsPerSecond: number, now: () => number, sleep: (ms: number) => Promise<void>) {
  const gap = 1000 / requestsPerSecond;
  let next = 0;
  return async () => {
    const t = now();
    const at = Math.max(t, next);
    next = at + gap;
    if (at > t) await sleep(at - t);
  };
}

export interface CjClient extends SupplierCatalogue {
  /** The access token, fetched or renewed as needed (exposed for tests and diagnostics only). */
  accessToken(): Promise<string>;
}

/**
 * CJ Dropshipping API 2.0 over HTTPS. Tokens come from the shared token store and are renewed with
 * the refresh token a day before they expire (a fresh login with the API key is the last resort:
 * CJ allows it once per 5 minutes). Requests are spaced by a client-side limiter, time out after
 * 10 s and are retried with backoff on CJ's rate-limit and busy codes, HTTP 429/5xx and network
 * errors, a call with its retries ending within CJ_CALL_BUDGET_MS; after CJ was unreachable, calls
 * fail at once for CJ_UNREACHABLE_PAUSE_MS. The key and tokens are never logged.
 */
export function createCjClient(opts: CjClientOptions): CjClient {
  const doFetch = opts.fetch ?? fetch;
  const base = opts.apiBase.replace(/\/$/, '');
  const now = opts.now ?? Date.now;
  const sleep = opts.sleep ?? ((ms: number) => new Promise<void>((r) => setTimeout(r, ms)));
  const timeoutMs = opts.timeoutMs ?? 10_000;
  const maxRetries = opts.maxRetries ?? 3;
  const retryBaseMs = opts.retryBaseMs ?? 500;
  const callBudgetMs = opts.callBudgetMs ?? CJ_CALL_BUDGET_MS;
  const unreachablePauseMs = opts.unreachablePauseMs ?? CJ_UNREACHABLE_PAUSE_MS;
  /** Until when calls fail at once (CJ was found unreachable); 0 = try. */
  let pausedUntil = 0;
  const renewBeforeMs = opts.renewBeforeMs ?? DAY_MS;
  const limit = createRateLimiter(opts.requestsPerSecond, now, sleep);
  const log = opts.log;
  let memory: { value: string; expiresAt: number } | null = null;
  let renewing: Promise<string> | null = null;

  type Attempt = { ok: true; envelope: z.infer<typeof cjEnvelopeSchema> } | { ok: false; code: number | null; message: string | null; retryable: boolean; unreachable?: boolean };

  /** One HTTP exchange, given at most `attemptMs`; never throws. */
  async function exchange(method: 'GET' | 'POST' | 'DELETE', path: string, query: Record<string, string> | undefined, body: unknown, token: string | null, attemptMs = timeoutMs): Promise<Attempt> {
    await limit();
    const url = new URL(`${base}/${path}`);
    for (const [k, v] of Object.entries(query ?? {})) if (v !== '') url.searchParams.set(k, v);
    const headers: Record<string, string> = { Accept: 'application/json' };
    if (token) headers['CJ-Access-Token'] = token;
    if (body !== undefined) headers['Content-Type'] = 'application/json';
    let res: Response;
    try {
      res = await doFetch(url, { method, headers, body: body === undefined ? undefined : JSON.stringify(body), signal: AbortSignal.timeout(attemptMs) });
    } catch (err) {
      log.warn({ path, reason: (err as Error).name }, 'CJ request failed (network or timeout)');
      return { ok: false, code: null, message: null, retryable: true, unreachable: true };
    }
    const json: unknown = await res.json().catch(() => null);
    const parsed = cjEnvelopeSchema.safeParse(json);
    if (!parsed.success) {
      log.warn({ path, status: res.status }, 'CJ answered without an envelope');
      const retryable = res.status === 429 || res.status >= 500;
      return { ok: false, code: res.status === 429 ? CJ_CODES.tooManyRequests : null, message: null, retryable };
    }
    const env = parsed.data;
    if (env.code === CJ_CODES.success && res.ok) return { ok: true, envelope: env };
    log.warn({ path, status: res.status, cjCode: env.code, requestId: env.requestId }, 'CJ refused a request');
    return { ok: false, code: env.code, message: env.message ?? null, retryable: isRetryable(env.code) || res.status >= 500 };
  }

  /**
   * An exchange retried with exponential backoff while the failure is transient, all within the
   * call budget; none at all while CJ is paused as unreachable.
   */
  async function send(
    method: 'GET' | 'POST' | 'DELETE', path: string, query: Record<string, string> | undefined, body: unknown, token: string | null, retries = maxRetries,
  ): Promise<Attempt> {
    if (now() < pausedUntil) {
      log.debug({ path }, 'CJ request not sent: CJ was unreachable moments ago');
      return { ok: false, code: null, message: null, retryable: false, unreachable: true };
    }
    const deadline = now() + callBudgetMs;
    for (let attempt = 0; ; attempt += 1) {
      const result = await exchange(method, path, query, body, token, Math.max(1, Math.min(timeoutMs, deadline - now())));
      const backoff = retryBaseMs * 2 ** attempt;
      if (result.ok || !result.retryable || attempt >= retries || now() + backoff >= deadline) {
        if (!result.ok && result.unreachable) {
          pausedUntil = now() + unreachablePauseMs;
          log.warn({ path, pauseMs: unreachablePauseMs }, 'CJ unreachable: supplier calls fail at once for a while');
        } else if (result.ok) {
          pausedUntil = 0;
        }
        return result;
      }
      await sleep(backoff);
    }
  }

  function tokenData(env: z.infer<typeof cjEnvelopeSchema>): CjTokenData {
    const parsed = cjTokenDataSchema.safeParse(env.data);
    if (!parsed.success) throw new CjApiError(503, CJ_MESSAGES.unavailable, null, 'SUPPLIER_UNAVAILABLE');
    return parsed.data;
  }

  const expiry = (date: string, fallbackMs: number) => {
    const t = Date.parse(date);
    return new Date(Number.isFinite(t) ? t : now() + fallbackMs);
  };

  async function renew(force: boolean): Promise<string> {
    const stored = await opts.tokens.tryLockRenewal(60_000) ? await opts.tokens.read() : null;
    if (!stored) {
      // Another instance renews: use the stored token while it is valid, else wait for the new one.
      const current = await opts.tokens.read();
      const valid = current?.accessToken && current.accessTokenExpiresAt && current.accessTokenExpiresAt.getTime() > now();
      if (valid && !force) return current.accessToken!;
      for (let waited = 0; waited < 15_000; waited += 250) {
        await sleep(250);
        const next = await opts.tokens.read();
        if (next?.accessToken && next.accessToken !== current?.accessToken && (next.accessTokenExpiresAt?.getTime() ?? 0) > now()) {
          memory = { value: next.accessToken, expiresAt: next.accessTokenExpiresAt!.getTime() };
          return next.accessToken;
        }
      }
      throw new CjApiError(503, CJ_MESSAGES.unavailable, null, 'SUPPLIER_UNAVAILABLE');
    }
    try {
      const at = new Date(now());
      if (stored.refreshToken && stored.refreshTokenExpiresAt && stored.refreshTokenExpiresAt.getTime() > now()) {
        const r = await send('POST', 'authentication/refreshAccessToken', undefined, { refreshToken: stored.refreshToken }, null);
        if (r.ok) {
          const d = tokenData(r.envelope);
          await opts.tokens.save({
            accessToken: d.accessToken, accessTokenExpiresAt: expiry(d.accessTokenExpiryDate, 15 * DAY_MS),
            refreshToken: d.refreshToken, refreshTokenExpiresAt: expiry(d.refreshTokenExpiryDate, 180 * DAY_MS),
          }, { login: false, at });
          log.info('CJ access token renewed with the refresh token');
          return d.accessToken;
        }
        // A transient failure while the current token still works: keep using it, renew later.
        const stillValid = stored.accessToken && stored.accessTokenExpiresAt && stored.accessTokenExpiresAt.getTime() > now();
        if (r.code !== CJ_CODES.invalidRefreshToken && !force && stillValid) {
          await opts.tokens.releaseRenewal();
          return stored.accessToken!;
        }
        if (r.code !== CJ_CODES.invalidRefreshToken && !CJ_AUTH_CODES.has(r.code ?? 0)) throw cjError(r.code, r.message);
      }
      // Last resort: log in with the API key (CJ allows this once per 5 minutes).
      if (stored.lastLoginAt && now() - stored.lastLoginAt.getTime() < LOGIN_INTERVAL_MS) {
        const wait = Math.ceil((LOGIN_INTERVAL_MS - (now() - stored.lastLoginAt.getTime())) / 1000);
        throw new CjApiError(503, `CJ allows a new login once every 5 minutes. Please try again in ${wait} s.`, null, 'SUPPLIER_LOGIN_THROTTLED');
      }
      await opts.tokens.recordLoginAttempt(at);
      // Not retried: CJ counts every login attempt against its once-per-5-minutes limit.
      const r = await send('POST', 'authentication/getAccessToken', undefined, { apiKey: opts.apiKey }, null, 0);
      if (!r.ok) throw cjError(r.code, r.message);
      const d = tokenData(r.envelope);
      await opts.tokens.save({
        accessToken: d.accessToken, accessTokenExpiresAt: expiry(d.accessTokenExpiryDate, 15 * DAY_MS),
        refreshToken: d.refreshToken, refreshTokenExpiresAt: expiry(d.refreshTokenExpiryDate, 180 * DAY_MS),
      }, { login: true, at });
      log.info('CJ access token obtained with the API key');
      return d.accessToken;
    } catch (err) {
      await opts.tokens.releaseRenewal().catch(() => undefined);
      throw err;
    }
  }

  /** The token to send: from memory, else the shared store, renewed when it is close to expiry. */
  async function accessToken(force = false): Promise<string> {
    if (!force && memory && memory.expiresAt - renewBeforeMs > now()) return memory.value;
    if (!force) {
      const stored = await opts.tokens.read();
      if (stored?.accessToken && stored.accessTokenExpiresAt && stored.accessTokenExpiresAt.getTime() - renewBeforeMs > now()) {
        memory = { value: stored.accessToken, expiresAt: stored.accessTokenExpiresAt.getTime() };
        return memory.value;
      }
    }
    renewing ??= renew(force).then(async (token) => {
      const stored = await opts.tokens.read();
      memory = { value: token, expiresAt: stored?.accessTokenExpiresAt?.getTime() ?? now() + DAY_MS };
      return token;
    }).finally(() => { renewing = null; });
    return renewing;
  }

  /** An authenticated call; a refused token is renewed once and the call replayed. */
  async function call(method: 'GET' | 'POST' | 'DELETE', path: string, query?: Record<string, string>, body?: unknown): Promise<unknown> {
    let token = await accessToken();
    for (let attempt = 0; ; attempt += 1) {
      const r = await send(method, path, query, body, token);
      if (r.ok) return r.envelope.data;
      if ((r.code === CJ_CODES.invalidToken || r.code === CJ_CODES.tokenMissing) && attempt === 0) {
        memory = null;
        token = await accessToken(true);
        continue;
      }
      throw cjError(r.code, r.message);
    }
  }

  function parse<T extends z.ZodType>(schema: T, data: unknown, path: string): z.output<T> {
    const parsed = schema.safeParse(data);
    if (!parsed.success) {
      log.warn({ path }, 'CJ answered an unexpected shape');
      throw new CjApiError(503, CJ_MESSAGES.unavailable, null, 'SUPPLIER_UNAVAILABLE');
    }
    return parsed.data;
  }

  return {
    source: 'cj',
    accessToken: () => accessToken(),
    async listProducts(input: ListProductsInput) {
      const query: Record<string, string> = { pageNum: String(input.pageNum), pageSize: String(input.pageSize) };
      if (input.keyword) query.productNameEn = input.keyword;
      if (input.categoryId) query.categoryId = input.categoryId;
      return parse(cjListDataSchema, await call('GET', 'product/list', query), 'product/list');
    },
    async getProduct(pid) {
      const data = await call('GET', 'product/query', { pid });
      if (data === null || data === undefined) throw cjError(CJ_CODES.productNotFound, null);
      return parse(cjProductDataSchema, data, 'product/query');
    },
    async getStock(vid) {
      return parse(cjStockDataSchema, await call('GET', 'product/stock/queryByVid', { vid }), 'product/stock/queryByVid');
    },
    async getCategories() {
      return parse(cjCategoryDataSchema, await call('GET', 'product/getCategory'), 'product/getCategory');
    },
    async createOrder(body: CjCreateOrderBody) {
      return parse(cjCreatedOrderSchema, await call('POST', 'shopping/order/createOrderV2', undefined, body), 'shopping/order/createOrderV2');
    },
    async getOrderDetail(orderId: string) {
      const data = await call('GET', 'shopping/order/getOrderDetail', { orderId });
      if (data === null || data === undefined) throw new CjApiError(404, CJ_MESSAGES.orderNotFound, null, 'SUPPLIER_NOT_FOUND');
      return parse(cjOrderDetailSchema, data, 'shopping/order/getOrderDetail');
    },
    async deleteOrder(orderId: string) {
      parse(cjDeletedOrderSchema, await call('DELETE', 'shopping/order/deleteOrder', { orderId }), 'shopping/order/deleteOrder');
    },
    async freightCalculate(body: CjFreightBody) {
      return parse(cjFreightDataSchema, await call('POST', 'logistic/freightCalculate', undefined, body), 'logistic/freightCalculate');
    },
  };
}
