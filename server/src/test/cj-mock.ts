import { randomBytes, randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { CjCategoryData, CjProductData } from '../modules/supplier/cj-types.ts';
import { offlineCatalogue, toListProduct } from '../modules/supplier/offline-catalogue.ts';

/**
 * A local stand-in for CJ Dropshipping's API 2.0, speaking the same protocol: base path
 * /api2.0/v1, JSON bodies, the `CJ-Access-Token` header, the envelope
 * `{ code, result, message, data, requestId }` (HTTP 200 with CJ's own codes), and CJ's rules:
 * getAccessToken once per 5 minutes, tokens with expiry dates, refreshAccessToken, product/list
 * paging (pageSize <= 200), product/query, product/stock/queryByVid, product/getCategory,
 * shopping/order/createOrderV2 (the same orderNumber is the same order), getOrderDetail and
 * deleteOrder (refused once the order is SHIPPED or DELIVERED). Its catalogue is a copy
 * of the first products of the offline catalogue.
 */

export interface CjRecordedRequest {
  method: string;
  path: string;
  query: Record<string, string>;
  headers: IncomingMessage['headers'];
  body: string;
}

export interface CjMockOrder {
  orderId: string;
  orderNumber: string;
  body: Record<string, unknown>;
  /** What getOrderDetail answers (tests move an order along: SHIPPED with a tracking number...). */
  orderStatus: string;
  trackNumber: string | null;
  logisticName: string | null;
}

interface Failure { code: number; message: string; httpStatus: number; rawBody?: string }

export interface CjMock {
  /** The API base to configure (CJ_API_BASE), ending in /api2.0/v1. */
  url: string;
  apiKey: string;
  requests: CjRecordedRequest[];
  /** Requests to a path such as 'authentication/getAccessToken'. */
  count(path: string): number;
  orders: Map<string, CjMockOrder>;
  products: Map<string, CjProductData>;
  stock: Map<string, number>;
  /** The next `times` requests to `path` fail with this CJ code (or HTTP status with a non-JSON body). */
  failNext(path: string, failure: { code?: number; message?: string; httpStatus?: number; rawBody?: string }, times?: number): void;
  /** Holds the next request to `path` until `release()`; `arrived` resolves when it comes in. */
  hold(path: string): { arrived: Promise<void>; release: () => void };
  /** Access tokens handed out so far stop working (as after a logout on CJ's side). */
  revokeAccessTokens(): void;
  /** Lifetime of tokens handed out from now on. */
  setTokenLifetime(accessMs: number, refreshMs?: number): void;
  removeProduct(pid: string): void;
  /** Shipping price logistic/freightCalculate answers per unit (null: it answers an error). */
  freightPerUnit: number | null;
  close(): Promise<void>;
}

const PREFIX = '/api2.0/v1/';
const DAY = 86_400_000;

/** CJ's dates look like 2021-08-18T09:16:33+08:00. */
function cjDate(ms: number): string {
  const d = new Date(ms + 8 * 3_600_000);
  return `${d.toISOString().slice(0, 19)}+08:00`;
}

export async function startCjMock(opts: { apiKey?: string; products?: number; now?: () => number } = {}): Promise<CjMock> {
  const clock = opts.now ?? Date.now;
  const apiKey = opts.apiKey ?? `CJ${randomBytes(3).toString('hex')}@api@${randomBytes(16).toString('hex')}`;
  const source = offlineCatalogue();
  const products = new Map<string, CjProductData>(
    source.products.slice(0, opts.products ?? 45).map((p) => [p.pid, structuredClone(p)]),
  );
  const stock = new Map<string, number>();
  for (const p of products.values()) for (const v of p.variants) stock.set(v.vid, source.stock.get(v.vid) ?? 100);
  const categories: CjCategoryData = source.categories;
  const accessTokens = new Map<string, number>();
  const refreshTokens = new Map<string, number>();
  const orders = new Map<string, CjMockOrder>();
  const requests: CjRecordedRequest[] = [];
  const failures = new Map<string, Failure[]>();
  const holds = new Map<string, Array<{ arrive: () => void; wait: Promise<void> }>>();
  let lastLogin = 0;
  let accessLifetime = 15 * DAY;
  let refreshLifetime = 180 * DAY;
  let orderCounter = 0;

  const envelope = (code: number, message: string, data: unknown) =>
    ({ code, result: code === 200, message, data, requestId: randomUUID() });
  const send = (res: ServerResponse, code: number, message: string, data: unknown = null) => {
    res.writeHead(200, { 'Content-Type': 'application/json;charset=UTF-8' });
    res.end(JSON.stringify(envelope(code, message, data)));
  };
  const ok = (res: ServerResponse, data: unknown) => send(res, 200, 'Success', data);

  function issueTokens() {
    const now = clock();
    const accessToken = randomBytes(16).toString('hex');
    const refreshToken = randomBytes(16).toString('hex');
    accessTokens.set(accessToken, now + accessLifetime);
    refreshTokens.set(refreshToken, now + refreshLifetime);
    return {
      openId: 123456789,
      accessToken,
      accessTokenExpiryDate: cjDate(now + accessLifetime),
      refreshToken,
      refreshTokenExpiryDate: cjDate(now + refreshLifetime),
      createDate: cjDate(now),
    };
  }

  async function readBody(req: IncomingMessage): Promise<string> {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    return Buffer.concat(chunks).toString('utf8');
  }

  function parseJson(body: string): Record<string, unknown> | null {
    try {
      const v: unknown = JSON.parse(body);
      return v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : null;
    } catch {
      return null;
    }
  }

  async function handle(req: IncomingMessage, res: ServerResponse) {
    const body = await readBody(req);
    const url = new URL(req.url ?? '/', 'http://localhost');
    const query = Object.fromEntries(url.searchParams.entries());
    if (!url.pathname.startsWith(PREFIX)) return send(res, 1600101, 'Interface not found');
    const path = url.pathname.slice(PREFIX.length);
    requests.push({ method: req.method ?? 'GET', path, query, headers: req.headers, body });

    const queued = holds.get(path)?.shift();
    if (queued) {
      queued.arrive();
      await queued.wait;
    }
    const failure = failures.get(path)?.shift();
    if (failure) {
      if (failure.rawBody !== undefined) {
        res.writeHead(failure.httpStatus, { 'Content-Type': 'text/html' });
        return res.end(failure.rawBody);
      }
      return send(res, failure.code, failure.message);
    }

    if (path === 'authentication/getAccessToken' && req.method === 'POST') {
      const input = parseJson(body);
      if (!input) return send(res, 1600300, 'The request parameter is not in a correct JSON format');
      if (clock() - lastLogin < 5 * 60_000) return send(res, 1600200, 'Too Many Requests, QPS limit is 1 time/300seconds');
      lastLogin = clock();
      if (input.apiKey !== apiKey) return send(res, 1600001, 'Invalid API key or access token.');
      return ok(res, issueTokens());
    }
    if (path === 'authentication/refreshAccessToken' && req.method === 'POST') {
      const input = parseJson(body);
      const expires = typeof input?.refreshToken === 'string' ? refreshTokens.get(input.refreshToken) : undefined;
      if (!expires || expires < clock()) return send(res, 1600003, 'Invalid Refresh token');
      refreshTokens.delete(input!.refreshToken as string);
      return ok(res, issueTokens());
    }

    const token = req.headers['cj-access-token'];
    if (typeof token !== 'string' || !token) return send(res, 1600002, 'access token cannot be empty');
    const tokenExpiry = accessTokens.get(token);
    if (!tokenExpiry || tokenExpiry < clock()) return send(res, 1600001, 'Invalid API key or access token.');

    if (path === 'product/list' && req.method === 'GET') {
      const pageNum = Number(query.pageNum ?? 1);
      const pageSize = Number(query.pageSize ?? 20);
      if (!Number.isInteger(pageNum) || pageNum < 1 || !Number.isInteger(pageSize) || pageSize < 1 || pageSize > 200) {
        return send(res, 1600300, 'pageSize max 200');
      }
      const name = (query.productNameEn ?? '').toLowerCase();
      const all = [...products.values()].filter((p) =>
        (!query.categoryId || p.categoryId === query.categoryId) && (!name || p.productNameEn.toLowerCase().includes(name)));
      const start = (pageNum - 1) * pageSize;
      return ok(res, { pageNum, pageSize, total: all.length, list: all.slice(start, start + pageSize).map(toListProduct) });
    }
    if (path === 'product/query' && req.method === 'GET') {
      if (!query.pid) return send(res, 1600300, 'pid is required');
      const p = products.get(query.pid);
      if (!p) return send(res, 1602001, 'Product not found');
      return ok(res, p);
    }
    if (path === 'product/stock/queryByVid' && req.method === 'GET') {
      const n = query.vid ? stock.get(query.vid) : undefined;
      if (n === undefined) return send(res, 1602000, 'Variant not found');
      return ok(res, [{ vid: query.vid, areaId: 2, areaEn: 'US Warehouse', countryCode: 'US', storageNum: n }]);
    }
    if (path === 'product/getCategory' && req.method === 'GET') return ok(res, categories);

    if (path === 'shopping/order/createOrderV2' && req.method === 'POST') {
      const input = parseJson(body);
      if (!input) return send(res, 1600300, 'The request parameter is not in a correct JSON format');
      const required = ['orderNumber', 'shippingZip', 'shippingCountryCode', 'shippingCountry', 'shippingCity', 'shippingAddress', 'shippingCustomerName', 'logisticName', 'fromCountryCode'];
      const missing = required.find((k) => typeof input[k] !== 'string' || !(input[k] as string).trim());
      if (missing) return send(res, 1600300, `${missing} can not be empty`);
      const lines = Array.isArray(input.products) ? (input.products as Array<{ vid?: unknown; quantity?: unknown }>) : [];
      if (!lines.length || lines.some((l) => typeof l.vid !== 'string' || !Number.isInteger(l.quantity) || (l.quantity as number) < 1)) {
        return send(res, 1600300, 'products can not be empty');
      }
      if (lines.some((l) => !stock.has(l.vid as string))) return send(res, 1602000, 'Variant not found');
      const orderNumber = input.orderNumber as string;
      let order = orders.get(orderNumber);
      if (!order) {
        orderCounter += 1;
        order = { orderId: `CJ${String(2_400_000_000 + orderCounter)}`, orderNumber, body: input, orderStatus: 'UNSHIPPED', trackNumber: null, logisticName: null };
        orders.set(orderNumber, order);
      }
      return ok(res, {
        orderId: order.orderId, orderNumber, shipmentOrderId: null, orderStatus: 'CREATED',
        postageAmount: 3.5, productAmount: 10, orderAmount: 13.5,
      });
    }
    if (path === 'shopping/order/getOrderDetail' && req.method === 'GET') {
      if (!query.orderId) return send(res, 1600300, 'orderId is required');
      const order = [...orders.values()].find((o) => o.orderId === query.orderId);
      if (!order) return send(res, 1600300, 'Order not found');
      return ok(res, {
        orderId: order.orderId, orderNum: order.orderNumber, cjOrderId: order.orderId, orderStatus: order.orderStatus,
        trackNumber: order.trackNumber, logisticName: order.logisticName, orderAmount: 13.5,
      });
    }
    if (path === 'shopping/order/deleteOrder' && req.method === 'DELETE') {
      // CJ withdraws an order it has not shipped. Its documentation gives no specific code for the
      // refusal; like its other refusals, it answers a non-200 code with a message.
      if (!query.orderId) return send(res, 1600300, 'orderId is required');
      const order = [...orders.values()].find((o) => o.orderId === query.orderId);
      if (!order || order.orderStatus === 'CANCELLED') return send(res, 1600300, 'Order not found');
      if (order.orderStatus === 'SHIPPED' || order.orderStatus === 'DELIVERED') return send(res, 1600300, 'The order has been shipped and cannot be deleted');
      order.orderStatus = 'CANCELLED';
      return ok(res, order.orderId);
    }
    if (path === 'logistic/freightCalculate' && req.method === 'POST') {
      const input = parseJson(body);
      if (!input || typeof input.startCountryCode !== 'string' || typeof input.endCountryCode !== 'string') return send(res, 1600100, 'Param error');
      const lines = Array.isArray(input.products) ? (input.products as Array<{ vid?: unknown; quantity?: unknown }>) : [];
      if (!lines.length || lines.some((l) => typeof l.vid !== 'string' || !stock.has(l.vid))) return send(res, 1600100, 'Param error');
      if (mock.freightPerUnit === null) return send(res, 1600000, 'System busy');
      const units = lines.reduce((n, l) => n + Number(l.quantity), 0);
      const price = Math.round(mock.freightPerUnit * units * 100) / 100;
      return ok(res, [
        { logisticAging: '2-5', logisticPrice: price, logisticPriceCn: price * 7, logisticName: 'USPS+' },
        { logisticAging: '7-12', logisticPrice: Math.round(price * 0.8 * 100) / 100, logisticPriceCn: price * 5, logisticName: 'CJPacket Ordinary' },
      ]);
    }
    return send(res, 1600101, 'Interface not found');
  }

  const server: Server = createServer((req, res) => {
    handle(req, res).catch(() => {
      if (!res.headersSent) res.writeHead(500, { 'Content-Type': 'text/plain' });
      res.end('Internal Server Error');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api2.0/v1`;

  const mock: CjMock = {
    url,
    apiKey,
    freightPerUnit: 3,
    requests,
    count: (path) => requests.filter((r) => r.path === path).length,
    orders,
    products,
    stock,
    failNext(path, f, times = 1) {
      const list = failures.get(path) ?? [];
      for (let i = 0; i < times; i += 1) {
        list.push({ code: f.code ?? 1600000, message: f.message ?? 'System busy', httpStatus: f.httpStatus ?? 200, rawBody: f.rawBody });
      }
      failures.set(path, list);
    },
    hold(path) {
      let arrive!: () => void;
      let release!: () => void;
      const arrived = new Promise<void>((r) => { arrive = r; });
      const wait = new Promise<void>((r) => { release = r; });
      const list = holds.get(path) ?? [];
      list.push({ arrive, wait });
      holds.set(path, list);
      return { arrived, release };
    },
    revokeAccessTokens() { accessTokens.clear(); },
    setTokenLifetime(accessMs, refreshMs = 180 * DAY) {
      accessLifetime = accessMs;
      refreshLifetime = refreshMs;
    },
    removeProduct(pid) {
      const p = products.get(pid);
      products.delete(pid);
      for (const v of p?.variants ?? []) stock.delete(v.vid);
    },
    close: () => new Promise<void>((resolve, reject) => {
      for (const list of holds.values()) list.length = 0;
      server.closeAllConnections();
      server.close((err) => (err ? reject(err) : resolve()));
    }),
  };
  return mock;
}
