import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A local stand-in for PayPal's REST API (OAuth2 client credentials, Orders v2 and Payments v2
 * refunds), speaking the same paths, headers and JSON shapes: POST /v1/oauth2/token, POST
 * /v2/checkout/orders, POST /v2/checkout/orders/{id}/capture, GET /v2/checkout/orders/{id}, POST
 * /v2/payments/captures/{capture_id}/refund (PayPal-Request-Id answers the same refund again; 422
 * REFUND_AMOUNT_EXCEEDED, CAPTURE_FULLY_REFUNDED...), GET /v2/payments/refunds/{id} and GET
 * /v2/payments/captures/{id}. Buyer approval, which happens in PayPal's own pages, is simulated with
 * `approve(id)`.
 */

export interface MockAmount { currency_code: string; value: string }

export interface MockCapture {
  id: string;
  status: 'COMPLETED' | 'DECLINED' | 'PENDING' | 'PARTIALLY_REFUNDED' | 'REFUNDED';
  amount: MockAmount;
  final_capture: boolean;
  custom_id?: string;
  seller_protection: { status: string; dispute_categories: string[] };
  create_time: string;
  update_time: string;
  links: Array<{ href: string; rel: string; method: string }>;
}

export interface MockRefund {
  id: string;
  status: 'COMPLETED' | 'PENDING' | 'FAILED' | 'CANCELLED';
  amount: MockAmount;
  note_to_payer?: string;
  custom_id?: string;
  seller_payable_breakdown: { gross_amount: MockAmount; net_amount: MockAmount; total_refunded_amount: MockAmount };
  create_time: string;
  update_time: string;
  links: Array<{ href: string; rel: string; method: string }>;
  /** Not part of PayPal's payload: the capture refunded. */
  captureId: string;
}

export interface MockOrder {
  id: string;
  intent: 'CAPTURE';
  status: 'CREATED' | 'APPROVED' | 'COMPLETED';
  purchase_units: Array<{
    reference_id: string;
    custom_id?: string;
    description?: string;
    amount: MockAmount;
    payee: { email_address: string; merchant_id: string };
    payments?: { captures: MockCapture[] };
  }>;
  payer?: { name: { given_name: string; surname: string }; email_address: string; payer_id: string };
  create_time: string;
  update_time: string;
  /** Not part of PayPal's payload: which client created it. */
  clientId: string;
}

export interface RecordedRequest {
  method: string;
  path: string;
  headers: IncomingMessage['headers'];
  body: string;
}

export interface PayPalMock {
  url: string;
  clientId: string;
  clientSecret: string;
  orders: Map<string, MockOrder>;
  requests: RecordedRequest[];
  /** The buyer approves the order on PayPal's pages. */
  approve(id: string, payerEmail?: string): void;
  /** Makes the next capture answer with this capture status (e.g. 'DECLINED'). */
  failNextCapture(issue: 'INSTRUMENT_DECLINED'): void;
  /** Refunds made, by refund id. */
  refunds: Map<string, MockRefund>;
  /** The next refund request is refused with this issue (422 UNPROCESSABLE_ENTITY, details[].issue). */
  failNextRefund(issue: string): void;
  /** The next refund is made, then the connection is cut before the answer (the caller never hears). */
  loseNextRefundAnswer(): void;
  /** Refunds made from now on answer this status (default COMPLETED; PENDING as for an eCheck). */
  setRefundStatus(status: 'COMPLETED' | 'PENDING'): void;
  /** Holds the next refund request until `release()`; `arrived` resolves when it comes in. */
  holdNextRefund(): { arrived: Promise<void>; release: () => void };
  /** Holds the next capture request until `release()` (the moment between a pay call's checks and its capture). */
  holdNextCapture(): { arrived: Promise<void>; release: () => void };
  /** Expires every token handed out so far (the next API call gets 401). */
  revokeTokens(): void;
  tokenRequests(): number;
  close(): Promise<void>;
}

const now = () => new Date().toISOString().replace(/\.\d{3}Z$/, 'Z');

function newHold() {
  let arrive!: () => void;
  let release!: () => void;
  const arrived = new Promise<void>((r) => { arrive = r; });
  const wait = new Promise<void>((r) => { release = r; });
  return { hold: { arrive, wait }, handle: { arrived, release } };
}
const newPayPalId = () => randomBytes(9).toString('hex').toUpperCase().slice(0, 17);

export async function startPayPalMock(opts: { clientId?: string; clientSecret?: string } = {}): Promise<PayPalMock> {
  const clientId = opts.clientId ?? `mock-client-${randomBytes(4).toString('hex')}`;
  const clientSecret = opts.clientSecret ?? `mock-secret-${randomBytes(8).toString('hex')}`;
  const orders = new Map<string, MockOrder>();
  const tokens = new Map<string, { expiresAt: number }>();
  const idempotent = new Map<string, { status: number; body: unknown }>();
  const requests: RecordedRequest[] = [];
  let tokenCount = 0;
  let nextCaptureIssue: string | null = null;
  const refunds = new Map<string, MockRefund>();
  let nextRefundIssue: string | null = null;
  let loseNextRefund = false;
  let refundStatus: 'COMPLETED' | 'PENDING' = 'COMPLETED';
  let refundHold: { arrive: () => void; wait: Promise<void> } | null = null;
  let captureHold: { arrive: () => void; wait: Promise<void> } | null = null;
  let url = '';

  const debugId = () => randomBytes(6).toString('hex');
  const send = (res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) => {
    res.writeHead(status, { 'Content-Type': 'application/json', 'PayPal-Debug-Id': debugId(), ...headers });
    res.end(body === undefined ? '' : JSON.stringify(body));
  };
  const apiError = (res: ServerResponse, status: number, name: string, issue: string, description: string) =>
    send(res, status, {
      name,
      message: name === 'RESOURCE_NOT_FOUND' ? 'The specified resource does not exist.' : 'The requested action could not be performed, semantically incorrect, or failed business validation.',
      debug_id: debugId(),
      details: [{ issue, description }],
      links: [{ href: `https://developer.paypal.com/docs/api/orders/v2/#error-${issue}`, rel: 'information_link', method: 'GET' }],
    });
  const orderLinks = (id: string) => [
    { href: `${url}/v2/checkout/orders/${id}`, rel: 'self', method: 'GET' },
    { href: `https://www.sandbox.paypal.com/checkoutnow?token=${id}`, rel: 'approve', method: 'GET' },
    { href: `${url}/v2/checkout/orders/${id}/capture`, rel: 'capture', method: 'POST' },
  ];
  const representation = (o: MockOrder) => {
    const { clientId: _c, ...rest } = o;
    return { ...rest, links: orderLinks(o.id) };
  };

  function authorizedBearer(req: IncomingMessage): boolean {
    const m = /^Bearer (.+)$/.exec(req.headers.authorization ?? '');
    const t = m?.[1] ? tokens.get(m[1]) : undefined;
    return !!t && t.expiresAt > Date.now();
  }

  async function readBody(req: IncomingMessage): Promise<string> {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    return Buffer.concat(chunks).toString('utf8');
  }

  function withIdempotency(req: IncomingMessage, res: ServerResponse, scope: string, fn: () => { status: number; body: unknown } | null) {
    const rid = req.headers['paypal-request-id'];
    const key = typeof rid === 'string' ? `${scope}:${rid}` : null;
    if (key && idempotent.has(key)) {
      const prev = idempotent.get(key)!;
      return send(res, prev.status, prev.body);
    }
    const result = fn();
    if (!result) return;
    if (key && result.status < 300) idempotent.set(key, result);
    return send(res, result.status, result.body);
  }

  const toCents = (v: string) => Math.round(Number(v) * 100);
  const centsText = (c: number) => (c / 100).toFixed(2);
  function findCapture(id: string): { capture: MockCapture; order: MockOrder } | undefined {
    for (const order of orders.values()) {
      for (const unit of order.purchase_units) {
        const capture = unit.payments?.captures.find((c) => c.id === id);
        if (capture) return { capture, order };
      }
    }
    return undefined;
  }
  const refundedCents = (captureId: string) => [...refunds.values()]
    .filter((r) => r.captureId === captureId && (r.status === 'COMPLETED' || r.status === 'PENDING'))
    .reduce((n, r) => n + toCents(r.amount.value), 0);
  const refundRepresentation = (r: MockRefund) => {
    const { captureId: _c, ...rest } = r;
    return rest;
  };

  /** Payments v2: captures and refunds. */
  async function payments(req: IncomingMessage, res: ServerResponse, path: string, body: string) {
    if (!authorizedBearer(req)) {
      return send(res, 401, { error: 'invalid_token', error_description: 'Token signature verification failed' });
    }
    const notFound = () => apiError(res, 404, 'RESOURCE_NOT_FOUND', 'INVALID_RESOURCE_ID', 'Specified resource ID does not exist. Please check the resource ID and try again.');
    const refundGet = /^\/v2\/payments\/refunds\/([^/]+)$/.exec(path);
    if (refundGet && req.method === 'GET') {
      const r = refunds.get(decodeURIComponent(refundGet[1]!));
      return r ? send(res, 200, refundRepresentation(r)) : notFound();
    }
    const captureGet = /^\/v2\/payments\/captures\/([^/]+)$/.exec(path);
    if (captureGet && req.method === 'GET') {
      const found = findCapture(decodeURIComponent(captureGet[1]!));
      return found ? send(res, 200, found.capture) : notFound();
    }
    const refundPost = /^\/v2\/payments\/captures\/([^/]+)\/refund$/.exec(path);
    if (!refundPost || req.method !== 'POST') {
      return send(res, 405, { name: 'METHOD_NOT_SUPPORTED', message: 'The server does not implement the requested HTTP method.', debug_id: debugId() });
    }
    if (refundHold) {
      const hold = refundHold;
      refundHold = null;
      hold.arrive();
      await hold.wait;
    }
    const captureId = decodeURIComponent(refundPost[1]!);
    const rid = req.headers['paypal-request-id'];
    const key = typeof rid === 'string' ? `refund:${captureId}:${rid}` : null;
    if (key && idempotent.has(key)) {
      const prev = idempotent.get(key)!;
      return send(res, prev.status, prev.body);
    }
    const found = findCapture(captureId);
    if (!found) return notFound();
    let input: { amount?: MockAmount; note_to_payer?: string; custom_id?: string };
    try { input = (body ? JSON.parse(body) : {}) as typeof input; } catch { input = {}; }
    const capturedCents = toCents(found.capture.amount.value);
    const left = capturedCents - refundedCents(captureId);
    if (left <= 0) return apiError(res, 422, 'UNPROCESSABLE_ENTITY', 'CAPTURE_FULLY_REFUNDED', 'The capture has already been fully refunded');
    if (input.amount && !/^\d+(\.\d{1,2})?$/.test(input.amount.value)) {
      return apiError(res, 422, 'UNPROCESSABLE_ENTITY', 'DECIMAL_PRECISION', 'If the currency supports decimals, only two decimal place precision is supported.');
    }
    if (input.amount && input.amount.currency_code !== found.capture.amount.currency_code) {
      return apiError(res, 422, 'UNPROCESSABLE_ENTITY', 'REFUND_CAPTURE_CURRENCY_MISMATCH', 'Refund must be in the same currency as the capture.');
    }
    const cents = input.amount ? toCents(input.amount.value) : left;
    if (cents <= 0) return apiError(res, 422, 'UNPROCESSABLE_ENTITY', 'CANNOT_BE_ZERO_OR_NEGATIVE', 'Must be greater than zero.');
    if (cents > left) return apiError(res, 422, 'UNPROCESSABLE_ENTITY', 'REFUND_AMOUNT_EXCEEDED', 'The refund amount must be less than or equal to the capture amount that has not yet been refunded.');
    if (nextRefundIssue) {
      const issue = nextRefundIssue;
      nextRefundIssue = null;
      return apiError(res, 422, 'UNPROCESSABLE_ENTITY', issue, 'The refund could not be processed.');
    }
    const t = now();
    const id = newPayPalId();
    const currency = found.capture.amount.currency_code;
    const refund: MockRefund = {
      id, status: refundStatus, amount: { currency_code: currency, value: centsText(cents) },
      ...(input.note_to_payer ? { note_to_payer: input.note_to_payer } : {}),
      ...(input.custom_id ? { custom_id: input.custom_id } : {}),
      seller_payable_breakdown: {
        gross_amount: { currency_code: currency, value: centsText(cents) },
        net_amount: { currency_code: currency, value: centsText(cents) },
        total_refunded_amount: { currency_code: currency, value: centsText(refundedCents(captureId) + cents) },
      },
      create_time: t, update_time: t,
      links: [
        { href: `${url}/v2/payments/refunds/${id}`, rel: 'self', method: 'GET' },
        { href: `${url}/v2/payments/captures/${captureId}`, rel: 'up', method: 'GET' },
      ],
      captureId,
    };
    refunds.set(id, refund);
    (found.capture as { status: string }).status = refundedCents(captureId) >= capturedCents ? 'REFUNDED' : 'PARTIALLY_REFUNDED';
    const representationWanted = String(req.headers.prefer ?? '').includes('return=representation');
    const answer = { status: 201, body: representationWanted ? refundRepresentation(refund) : { id, status: refund.status, links: refund.links } };
    if (key) idempotent.set(key, answer);
    if (loseNextRefund) {
      loseNextRefund = false;
      res.destroy(); // made, but the caller never hears
      return;
    }
    return send(res, answer.status, answer.body);
  }

  const server: Server = createServer((req, res) => {
    void (async () => {
      const body = await readBody(req);
      const path = (req.url ?? '/').split('?')[0]!;
      requests.push({ method: req.method ?? 'GET', path, headers: req.headers, body });

      if (req.method === 'POST' && path === '/v1/oauth2/token') {
        const expected = `Basic ${Buffer.from(`${clientId}:${clientSecret}`).toString('base64')}`;
        if (req.headers.authorization !== expected) {
          return send(res, 401, { error: 'invalid_client', error_description: 'Client Authentication failed' });
        }
        if (!String(req.headers['content-type']).startsWith('application/x-www-form-urlencoded')
          || new URLSearchParams(body).get('grant_type') !== 'client_credentials') {
          return send(res, 400, { error: 'unsupported_grant_type', error_description: 'Grant Type is NULL' });
        }
        tokenCount += 1;
        const accessToken = `A21AA${randomBytes(24).toString('base64url')}`;
        tokens.set(accessToken, { expiresAt: Date.now() + 32_400_000 });
        return send(res, 200, {
          scope: 'https://uri.paypal.com/services/payments/payment https://uri.paypal.com/services/payments/refund',
          access_token: accessToken,
          token_type: 'Bearer',
          app_id: 'APP-80W284485P519543T',
          expires_in: 32400,
          nonce: `${now()}${randomBytes(8).toString('hex')}`,
        });
      }

      if (path.startsWith('/v2/payments/')) return payments(req, res, path, body);
      if (!path.startsWith('/v2/checkout/orders')) {
        return send(res, 404, { name: 'RESOURCE_NOT_FOUND', message: 'Not found', debug_id: debugId() });
      }
      if (!authorizedBearer(req)) {
        return send(res, 401, { error: 'invalid_token', error_description: 'Token signature verification failed' });
      }
      const representationWanted = String(req.headers.prefer ?? '').includes('return=representation');

      if (req.method === 'POST' && path === '/v2/checkout/orders') {
        return withIdempotency(req, res, 'create', () => {
          let input: { intent?: string; purchase_units?: Array<{ reference_id?: string; custom_id?: string; description?: string; amount?: MockAmount }> };
          try { input = JSON.parse(body) as typeof input; } catch { input = {}; }
          const units = input.purchase_units ?? [];
          const bad = input.intent !== 'CAPTURE' || units.length === 0
            || units.some((u) => !u.amount || !/^\d+(\.\d{2})?$/.test(u.amount.value) || !u.amount.currency_code);
          if (bad) {
            apiError(res, 422, 'UNPROCESSABLE_ENTITY', 'INVALID_PARAMETER_VALUE', 'The value of a field is invalid.');
            return null;
          }
          const id = newPayPalId();
          const t = now();
          const order: MockOrder = {
            id, intent: 'CAPTURE', status: 'CREATED', create_time: t, update_time: t, clientId,
            purchase_units: units.map((u, i) => ({
              reference_id: u.reference_id ?? (i === 0 ? 'default' : String(i)),
              ...(u.custom_id ? { custom_id: u.custom_id } : {}),
              ...(u.description ? { description: u.description } : {}),
              amount: { currency_code: u.amount!.currency_code, value: u.amount!.value },
              payee: { email_address: 'merchant@example.com', merchant_id: 'MOCKMERCHANT01' },
            })),
          };
          orders.set(id, order);
          return { status: 201, body: representationWanted ? representation(order) : { id, status: order.status, links: orderLinks(id) } };
        });
      }

      const m = /^\/v2\/checkout\/orders\/([^/]+)(\/capture)?$/.exec(path);
      const order = m ? orders.get(decodeURIComponent(m[1]!)) : undefined;
      if (!m || !order) {
        return apiError(res, 404, 'RESOURCE_NOT_FOUND', 'INVALID_RESOURCE_ID', 'Specified resource ID does not exist. Please check the resource ID and try again.');
      }
      if (req.method === 'GET' && !m[2]) return send(res, 200, representation(order));

      if (req.method === 'POST' && m[2]) {
        if (captureHold) {
          const hold = captureHold;
          captureHold = null;
          hold.arrive();
          await hold.wait;
        }
        return withIdempotency(req, res, `capture:${order.id}`, () => {
          if (order.status === 'COMPLETED') {
            apiError(res, 422, 'UNPROCESSABLE_ENTITY', 'ORDER_ALREADY_CAPTURED', 'Order already captured. If \'intent=CAPTURE\' only one capture per order is allowed.');
            return null;
          }
          if (order.status !== 'APPROVED') {
            apiError(res, 422, 'UNPROCESSABLE_ENTITY', 'ORDER_NOT_APPROVED', 'Payer has not yet approved the Order for payment.');
            return null;
          }
          if (nextCaptureIssue) {
            const issue = nextCaptureIssue;
            nextCaptureIssue = null;
            apiError(res, 422, 'UNPROCESSABLE_ENTITY', issue, 'The instrument presented was either declined by the processor or bank.');
            return null;
          }
          const t = now();
          order.status = 'COMPLETED';
          order.update_time = t;
          for (const unit of order.purchase_units) {
            const captureId = newPayPalId();
            unit.payments = {
              captures: [{
                id: captureId, status: 'COMPLETED', amount: { ...unit.amount }, final_capture: true,
                ...(unit.custom_id ? { custom_id: unit.custom_id } : {}),
                seller_protection: { status: 'ELIGIBLE', dispute_categories: ['ITEM_NOT_RECEIVED', 'UNAUTHORIZED_TRANSACTION'] },
                create_time: t, update_time: t,
                links: [{ href: `${url}/v2/payments/captures/${captureId}`, rel: 'self', method: 'GET' }],
              }],
            };
          }
          const full = representation(order);
          return {
            status: 201,
            body: representationWanted
              ? full
              : {
                id: order.id, status: order.status, payer: order.payer,
                purchase_units: order.purchase_units.map((u) => ({ reference_id: u.reference_id, payments: u.payments })),
                links: full.links,
              },
          };
        });
      }
      return send(res, 405, { name: 'METHOD_NOT_SUPPORTED', message: 'The server does not implement the requested HTTP method.', debug_id: debugId() });
    })().catch(() => send(res, 500, { name: 'INTERNAL_SERVER_ERROR', message: 'An internal server error occurred.', debug_id: debugId() }));
  });

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return {
    url,
    clientId,
    clientSecret,
    orders,
    requests,
    approve(id, payerEmail = 'buyer@example.com') {
      const o = orders.get(id);
      if (!o) throw new Error(`PayPal mock: unknown order ${id}`);
      if (o.status !== 'CREATED') return;
      o.status = 'APPROVED';
      o.update_time = now();
      o.payer = { name: { given_name: 'Test', surname: 'Buyer' }, email_address: payerEmail, payer_id: 'MOCKPAYER001' };
    },
    failNextCapture(issue) { nextCaptureIssue = issue; },
    refunds,
    failNextRefund(issue) { nextRefundIssue = issue; },
    loseNextRefundAnswer() { loseNextRefund = true; },
    setRefundStatus(status) { refundStatus = status; },
    holdNextRefund() {
      const { hold, handle } = newHold();
      refundHold = hold;
      return handle;
    },
    holdNextCapture() {
      const { hold, handle } = newHold();
      captureHold = hold;
      return handle;
    },
    revokeTokens() { tokens.clear(); },
    tokenRequests: () => tokenCount,
    close: () => new Promise<void>((resolve, reject) => {
      server.closeAllConnections();
      server.close((err) => (err ? reject(err) : resolve()));
    }),
  };
}
