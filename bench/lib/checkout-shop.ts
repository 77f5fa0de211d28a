/**
 * The shop side of the checkout benchmarks (checkout.ts, checkout-replay.ts): the seed (products,
 * buyers with a session and a saved address), the real server in its own process, the buyers'
 * loop (add 1-3 products to the cart -> POST /api/orders -> PUT /api/orders/{id}/pay {demo: true})
 * and the CPU time of the shop's processes and of the PostgreSQL backends on the database.
 *
 * Every seeded id is fixed (benchId): the pgbench replay of checkout-replay.ts names the same
 * buyers, sessions, addresses and products from pgbench's own variables.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import type { Database } from '../../server/src/db/client.ts';
import { addresses, products, refreshTokens, sessions, users } from '../../server/src/db/schema.ts';
import { ACCESS_COOKIE } from '../../server/src/lib/auth.ts';
import { newId } from '../../server/src/lib/ids.ts';
import { hashToken, newOpaqueToken, createTokenSigner } from '../../server/src/lib/tokens.ts';

const root = path.resolve(import.meta.dirname, '../..');

/** Most products are plentiful; a few are scarce, so buyers also race for the last units. */
export const PLENTIFUL = { count: 40, stock: 1_000_000 };
export const SCARCE = { count: 5, stock: 100 };
export const PRODUCT_COUNT = PLENTIFUL.count + SCARCE.count;

/**
 * The seeded rows' ids: one hex digit for the kind, then the index in 23 hex digits (a valid
 * 24-character id). In SQL: `'<kind>' || lpad(to_hex(i), 23, '0')`.
 */
export const ID_KIND = { user: 'a', session: 'b', address: 'c', product: 'd' } as const;
export const benchId = (kind: keyof typeof ID_KIND, i: number) => `${ID_KIND[kind]}${i.toString(16).padStart(23, '0')}`;

export interface Buyer { userId: string; cookie: string; addressId: string }
export interface Seeded { buyers: Buyer[]; productIds: string[]; startStock: Map<string, number> }

export async function seedCheckout(database: Database, opts: { buyers: number; jwtSecret: string }): Promise<Seeded> {
  const db = database.db;
  const productRows = [
    ...Array.from({ length: PLENTIFUL.count }, (_, i) => ({ i, stock: PLENTIFUL.stock })),
    ...Array.from({ length: SCARCE.count }, (_, i) => ({ i: PLENTIFUL.count + i, stock: SCARCE.stock })),
  ].map(({ i, stock }) => ({
    id: benchId('product', i),
    name: `Bench Product ${i}`,
    slug: `bench-product-${i}`,
    price: Math.round((5 + (i * 7.31) % 200) * 100) / 100,
    isOnSale: i % 3 === 0,
    saleDiscount: i % 3 === 0 ? 15 : 0,
    image: `/images/bench-${i}.jpg`,
    category: `Category ${i % 6}`,
    brand: 'Bench',
    description: 'A product for the checkout benchmark',
    countInStock: stock,
  }));
  await db.insert(products).values(productRows);

  const signer = createTokenSigner(opts.jwtSecret, 3600);
  const buyers: Buyer[] = [];
  for (let i = 0; i < opts.buyers; i += 1) {
    const userId = benchId('user', i);
    const sessionId = benchId('session', i);
    const addressId = benchId('address', i);
    // Sessions are made directly (as startSession does): the benchmark measures checkout, not sign-in (argon2 is slow by design).
    await db.insert(users).values({ id: userId, name: `Buyer ${i}`, email: `buyer${i}@bench.local`, passwordHash: 'not-used' });
    const expiresAt = new Date(Date.now() + 86_400_000);
    await db.insert(sessions).values({ id: sessionId, userId, expiresAt });
    await db.insert(refreshTokens).values({ id: newId(), sessionId, tokenHash: hashToken(newOpaqueToken()), expiresAt });
    await db.insert(addresses).values({
      id: addressId, userId, fullName: `Buyer ${i}`, address: `${i} Bench Street`, city: 'Loadville',
      postalCode: `9${String(i).padStart(4, '0')}`, country: 'USA', isDefault: true,
    });
    buyers.push({ userId, cookie: `${ACCESS_COOKIE}=${await signer.sign({ sub: userId, sid: sessionId })}`, addressId });
  }
  return { buyers, productIds: productRows.map((p) => p.id), startStock: new Map(productRows.map((p) => [p.id, p.countInStock])) };
}

export function startShop(opts: { dbUrl: string; port: number; jwtSecret: string; workers?: number; redisUrl?: string; env?: Record<string, string> }): ChildProcess {
  // e.g. BENCH_SERVER_NODE_ARGS='--cpu-prof --cpu-prof-dir=/tmp/prof' to profile the server
  const extra = (process.env.BENCH_SERVER_NODE_ARGS ?? '').split(' ').filter(Boolean);
  return spawn(process.execPath, [...extra, '--import', 'tsx', 'src/main.ts'], {
    // BENCH_SHOP_DIR: another copy of server/ to measure (e.g. an earlier commit's, for a before/after in the same conditions).
    cwd: process.env.BENCH_SHOP_DIR ?? path.join(root, 'server'),
    env: {
      ...process.env,
      NODE_ENV: 'production',
      HOST: '127.0.0.1',
      PORT: String(opts.port),
      PUBLIC_URL: `http://127.0.0.1:${opts.port}`,
      DATABASE_URL: opts.dbUrl,
      DATABASE_POOL_SIZE: '20',
      REDIS_URL: opts.redisUrl ?? '',
      WEB_CONCURRENCY: String(opts.workers ?? 1),
      JWT_SECRET: opts.jwtSecret,
      SEED_DEMO_DATA: 'false',
      ALLOW_DEMO_PAYMENTS: 'true',
      PAYPAL_CLIENT_ID: '',
      PAYPAL_CLIENT_SECRET: '',
      LOG_LEVEL: 'warn',
      DATA_DIR: path.join(root, 'bench/.tmp/checkout-data'),
      WEB_DIST_DIR: path.join(root, 'bench/.tmp/no-web-build'),
      ...opts.env,
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
}

export async function waitReady(base: string, child: ChildProcess): Promise<void> {
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`server exited early with code ${child.exitCode}`);
    try {
      const res = await fetch(`${base}/api/ready`);
      if (res.ok) return;
    } catch { /* not listening yet */ }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error('server did not become ready within 60 s');
}

export async function stopShop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  child.kill('SIGTERM');
  await new Promise((r) => child.once('exit', r));
}

/**
 * CPU time (user + system, ms) of a process from /proc (Linux; clock ticks of 10 ms), 0 when it is
 * gone. CPU per order is far less sensitive than orders/s to other work on a shared machine.
 */
export function procCpuMs(pid: number): number {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch { return 0; }
}
/** The process and its descendants (the cluster primary and its workers). */
export function processTree(pid: number): number[] {
  const out = [pid];
  try {
    for (const tid of readdirSync(`/proc/${pid}/task`)) {
      const children = readFileSync(`/proc/${pid}/task/${tid}/children`, 'utf8').trim();
      for (const c of children ? children.split(' ') : []) out.push(...processTree(Number(c)));
    }
  } catch { /* gone */ }
  return out;
}
export type CpuSnap = Map<number, number>;
export const snapCpu = (pids: number[]): CpuSnap => new Map(pids.map((pid) => [pid, procCpuMs(pid)]));
/** The PostgreSQL backends on the database `database` is connected to (local server only), but its own. */
export async function backendPids(database: Database): Promise<number[]> {
  const rows = await database.query<{ pid: number }>('select pid from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()');
  return rows.map((r) => r.pid);
}
/** CPU ms spent since `before` by the processes of `after` (a process new since then counts from 0). */
export const cpuSpent = (before: CpuSnap, after: CpuSnap) =>
  [...after].reduce((acc, [pid, ms]) => acc + ms - (before.get(pid) ?? 0), 0);

export interface Stats {
  placed: number; paid: number; outOfStock: number; addRefused: number; errors: number;
  placeMs: number[]; payMs: number[]; addMs: number[]; errorSamples: string[];
}
export const newStats = (): Stats => ({ placed: 0, paid: 0, outOfStock: 0, addRefused: 0, errors: 0, placeMs: [], payMs: [], addMs: [], errorSamples: [] });

const agents = new WeakMap<Buyer, http.Agent>();

/**
 * One request of a buyer, on the buyer's own kept-alive connection (node:http: a buyer is a
 * browser tab, one request at a time). Lighter than fetch (undici), whose CPU on this machine is
 * the shop's CPU too.
 */
function send(base: string, buyer: Buyer, method: string, url: string, body?: unknown): Promise<{ status: number; json: Record<string, unknown> | null }> {
  let agent = agents.get(buyer);
  if (!agent) agents.set(buyer, (agent = new http.Agent({ keepAlive: true, maxSockets: 1 })));
  const payload = body === undefined ? undefined : JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const req = http.request(`${base}${url}`, {
      method, agent,
      headers: { cookie: buyer.cookie, ...(payload === undefined ? {} : { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) }) },
    }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        let json: Record<string, unknown> | null = null;
        try { json = JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown>; } catch { /* not JSON */ }
        resolve({ status: res.statusCode ?? 0, json });
      });
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(payload);
  });
}

/** One checkout of `picked` products; what it did goes into `stats`. */
export async function checkoutOnce(base: string, buyer: Buyer, picked: Iterable<string>, stats: Stats, quantity: () => number): Promise<void> {
  const request = async (method: string, url: string, body?: unknown) => {
    const t0 = performance.now();
    const res = await send(base, buyer, method, url, body);
    return { ...res, ms: performance.now() - t0 };
  };
  const fail = (what: string, r: { status: number; json: unknown }) => {
    stats.errors += 1;
    if (stats.errorSamples.length < 5) stats.errorSamples.push(`${what}: ${r.status} ${JSON.stringify(r.json)}`);
  };
  let inCart = 0;
  for (const productId of picked) {
    const r = await request('POST', '/api/cart/items', { productId, quantity: quantity() });
    stats.addMs.push(r.ms);
    if (r.status === 200) inCart += 1;
    else if (r.status === 400) stats.addRefused += 1; // the product sold out
    else fail('add to cart', r);
  }
  if (!inCart) return;
  const placed = await request('POST', '/api/orders', {
    addressId: buyer.addressId, paymentMethod: 'PayPal',
    // Ignored by the server: amounts always come from the database.
    itemsPrice: 0.01, totalPrice: 0.01,
  });
  stats.placeMs.push(placed.ms);
  if (placed.status === 400 && placed.json?.code === 'OUT_OF_STOCK') {
    stats.outOfStock += 1;
    await request('DELETE', '/api/cart');
    return;
  }
  if (placed.status !== 201) { fail('place order', placed); await request('DELETE', '/api/cart'); return; }
  stats.placed += 1;
  const paid = await request('PUT', `/api/orders/${String(placed.json?._id)}/pay`, { demo: true });
  stats.payMs.push(paid.ms);
  if (paid.status === 200 && paid.json?.message === 'Order is paid successfully') stats.paid += 1;
  else fail('pay', paid);
}

/** 1-3 different products at random, 1-2 units each, checked out again and again until `until` (Date.now()). */
export async function runBuyer(base: string, buyer: Buyer, productIds: string[], until: number, stats: Stats): Promise<void> {
  while (Date.now() < until) {
    const lines = 1 + Math.floor(Math.random() * 3);
    const picked = new Set<string>();
    while (picked.size < lines) picked.add(productIds[Math.floor(Math.random() * productIds.length)]!);
    await checkoutOnce(base, buyer, picked, stats, () => 1 + Math.floor(Math.random() * 2));
  }
}
