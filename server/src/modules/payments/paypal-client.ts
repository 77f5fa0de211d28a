import { ORDER_MESSAGES } from '@shop/contracts';
import { z } from 'zod';
import { AppError } from '../../lib/errors.ts';

const amountSchema = z.object({ currency_code: z.string(), value: z.string() });
const captureSchema = z.looseObject({
  id: z.string(),
  status: z.string(),
  amount: amountSchema,
  custom_id: z.string().optional(),
  update_time: z.string().optional(),
});
const purchaseUnitSchema = z.looseObject({
  reference_id: z.string().optional(),
  custom_id: z.string().optional(),
  amount: amountSchema.optional(),
  payments: z.looseObject({ captures: z.array(captureSchema).optional() }).optional(),
});
export const paypalOrderSchema = z.looseObject({
  id: z.string(),
  status: z.string(),
  purchase_units: z.array(purchaseUnitSchema).optional(),
  payer: z.looseObject({ email_address: z.string().optional() }).optional(),
  update_time: z.string().optional(),
});
export type PayPalOrder = z.infer<typeof paypalOrderSchema>;
export type PayPalCapture = z.infer<typeof captureSchema>;

/** A Payments v2 refund: status COMPLETED, PENDING (PayPal completes it later), FAILED or CANCELLED. */
export const paypalRefundSchema = z.looseObject({
  id: z.string(),
  status: z.string(),
  amount: amountSchema.optional(),
  custom_id: z.string().optional(),
  status_details: z.looseObject({ reason: z.string().optional() }).optional(),
});
export type PayPalRefund = z.infer<typeof paypalRefundSchema>;

export interface RefundCaptureInput {
  /** Exactly 2 decimals, e.g. '9.99'. */
  amount: string;
  currency: 'USD';
  /** Shown to the buyer (PayPal keeps at most 255 characters). */
  noteToPayer?: string;
  /** Our refund id, for reconciliation in PayPal's reports. */
  customId?: string;
  /** PayPal-Request-Id: the same id answers the same refund (PayPal keeps refund request ids 45 days). */
  requestId: string;
}

const tokenSchema = z.object({ access_token: z.string(), expires_in: z.number() });
const errorBodySchema = z.looseObject({
  name: z.string().optional(),
  details: z.array(z.looseObject({ issue: z.string().optional() })).optional(),
});

export interface PayPalClientOptions {
  clientId: string;
  clientSecret: string;
  apiBase: string;
  timeoutMs?: number;
  fetch?: typeof fetch;
}

/** A PayPal API answer other than success; `issue` is PayPal's first details[].issue. */
export class PayPalApiError extends Error {
  constructor(public readonly status: number, public readonly issue: string | undefined, public readonly errorName: string | undefined) {
    super(`PayPal API error ${status}${issue ? ` (${issue})` : ''}`);
    this.name = 'PayPalApiError';
  }
}

/** Shown to the caller when PayPal cannot be reached or answers nonsense; details stay in the log. */
export const paypalUnreachable = () => new AppError(502, ORDER_MESSAGES.paypalError, 'PAYPAL_UNAVAILABLE');

export interface CreatePayPalOrderInput {
  /** Our order id: sent as custom_id and reference_id. */
  orderId: string;
  /** Exactly 2 decimals, e.g. '19.99'. */
  amount: string;
  currency: 'USD';
  description?: string;
  /** PayPal-Request-Id: retries with the same id create one PayPal order. */
  requestId: string;
}

export interface PayPalClient {
  createOrder(input: CreatePayPalOrderInput): Promise<{ id: string; status: string }>;
  /** null when PayPal does not know the id. */
  getOrder(paypalOrderId: string): Promise<PayPalOrder | null>;
  captureOrder(paypalOrderId: string, requestId: string): Promise<PayPalOrder>;
  /** POST /v2/payments/captures/{capture_id}/refund. A refusal is a PayPalApiError (422 and details[].issue). */
  refundCapture(captureId: string, input: RefundCaptureInput): Promise<PayPalRefund>;
  /** GET /v2/payments/refunds/{refund_id}; null when PayPal does not know it. */
  getRefund(refundId: string): Promise<PayPalRefund | null>;
}

/**
 * PayPal Orders v2 and Payments v2 (refunds) over REST. The OAuth client-credentials token is cached until shortly before it
 * expires (one request in flight at a time) and refreshed once on a 401.
 */
export function createPayPalClient(opts: PayPalClientOptions): PayPalClient {
  const doFetch = opts.fetch ?? fetch;
  const base = opts.apiBase.replace(/\/$/, '');
  const timeoutMs = opts.timeoutMs ?? 15_000;
  let token: { value: string; expiresAt: number } | null = null;
  let pending: Promise<string> | null = null;

  async function send(url: string, init: RequestInit): Promise<Response> {
    try {
      return await doFetch(url, { ...init, signal: AbortSignal.timeout(timeoutMs) });
    } catch {
      throw paypalUnreachable();
    }
  }

  async function fetchToken(): Promise<string> {
    const basic = Buffer.from(`${opts.clientId}:${opts.clientSecret}`).toString('base64');
    const res = await send(`${base}/v1/oauth2/token`, {
      method: 'POST',
      headers: { Authorization: `Basic ${basic}`, 'Content-Type': 'application/x-www-form-urlencoded', Accept: 'application/json' },
      body: 'grant_type=client_credentials',
    });
    if (!res.ok) throw paypalUnreachable();
    const parsed = tokenSchema.safeParse(await res.json().catch(() => null));
    if (!parsed.success) throw paypalUnreachable();
    // Renew a minute early so a token never expires mid-request.
    token = { value: parsed.data.access_token, expiresAt: Date.now() + Math.max(0, parsed.data.expires_in - 60) * 1000 };
    return token.value;
  }

  async function accessToken(): Promise<string> {
    if (token && token.expiresAt > Date.now()) return token.value;
    pending ??= fetchToken().finally(() => { pending = null; });
    return pending;
  }

  async function call(method: 'GET' | 'POST', path: string, body?: unknown, requestId?: string): Promise<unknown> {
    for (let attempt = 0; ; attempt += 1) {
      const headers: Record<string, string> = {
        Authorization: `Bearer ${await accessToken()}`,
        Accept: 'application/json',
        Prefer: 'return=representation',
      };
      if (body !== undefined) headers['Content-Type'] = 'application/json';
      if (requestId) headers['PayPal-Request-Id'] = requestId;
      const res = await send(`${base}${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
      if (res.status === 401 && attempt === 0) {
        token = null;
        continue;
      }
      const json: unknown = await res.json().catch(() => null);
      if (res.ok) return json;
      if (res.status >= 500 || res.status === 401 || res.status === 429) throw paypalUnreachable();
      const err = errorBodySchema.safeParse(json);
      throw new PayPalApiError(res.status, err.success ? err.data.details?.[0]?.issue : undefined, err.success ? err.data.name : undefined);
    }
  }

  function parseRefund(json: unknown): PayPalRefund {
    const parsed = paypalRefundSchema.safeParse(json);
    if (!parsed.success) throw paypalUnreachable();
    return parsed.data;
  }

  function parseOrder(json: unknown): PayPalOrder {
    const parsed = paypalOrderSchema.safeParse(json);
    if (!parsed.success) throw paypalUnreachable();
    return parsed.data;
  }

  return {
    async createOrder(input) {
      const json = await call('POST', '/v2/checkout/orders', {
        intent: 'CAPTURE',
        purchase_units: [{
          reference_id: input.orderId,
          custom_id: input.orderId,
          description: input.description,
          amount: { currency_code: input.currency, value: input.amount },
        }],
      }, input.requestId);
      const order = parseOrder(json);
      return { id: order.id, status: order.status };
    },
    async getOrder(paypalOrderId) {
      try {
        return parseOrder(await call('GET', `/v2/checkout/orders/${encodeURIComponent(paypalOrderId)}`));
      } catch (err) {
        if (err instanceof PayPalApiError && err.status === 404) return null;
        throw err;
      }
    },
    async captureOrder(paypalOrderId, requestId) {
      return parseOrder(await call('POST', `/v2/checkout/orders/${encodeURIComponent(paypalOrderId)}/capture`, {}, requestId));
    },
    async refundCapture(captureId, input) {
      const json = await call('POST', `/v2/payments/captures/${encodeURIComponent(captureId)}/refund`, {
        amount: { value: input.amount, currency_code: input.currency },
        ...(input.noteToPayer ? { note_to_payer: input.noteToPayer.slice(0, 255) } : {}),
        ...(input.customId ? { custom_id: input.customId } : {}),
      }, input.requestId);
      return parseRefund(json);
    },
    async getRefund(refundId) {
      try {
        return parseRefund(await call('GET', `/v2/payments/refunds/${encodeURIComponent(refundId)}`));
      } catch (err) {
        if (err instanceof PayPalApiError && err.status === 404) return null;
        throw err;
      }
    },
  };
}
