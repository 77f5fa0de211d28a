/**
 * Checkout under load on PostgreSQL: N concurrent buyers (default 20) each repeat
 * "add 1-3 products to the cart -> POST /api/orders -> PUT /api/orders/{id}/pay {demo: true}"
 * for a fixed time (default 60 s) against the real server (server/src/main.ts in its own process)
 * on a scratch database that is created and dropped here.
 *
 * Prints orders/s, latency percentiles of POST orders (and of pay and add-to-cart), refusals, and a
 * final check per product: stock now + units sold (in orders still holding stock) == starting stock.
 * Then the ceiling (lib/ceiling.ts: a bare Fastify route answering a prepared 12-product page, as
 * many connections as buyers): orders/s and request rates are printed as a share of its req/s, and
 * latencies as a multiple of its p99.
 *
 *   node --import tsx bench/checkout.ts [--duration=60] [--buyers=20] [--catalogue=N] [--json=<file>]
 *   --catalogue=N adds N more products to the catalogue (not bought; the growth benchmark's cost curve);
 *   --json writes the figures to a file as well.
 *   --workers=N runs the shop as N processes (WEB_CONCURRENCY=N, node:cluster; server/src/cluster.ts),
 *   which needs Redis: BENCH_REDIS_URL (default $TEST_REDIS_URL). Default 1: one process, no Redis.
 *   env: BENCH_DATABASE_URL (default $TEST_DATABASE_URL or postgres://postgres@127.0.0.1:5432/postgres),
 *        CHECKOUT_DURATION_SECONDS, CHECKOUT_BUYERS, CHECKOUT_WORKERS, BENCH_SERVER_NODE_ARGS (extra node flags for the server)
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { and, eq, inArray, isNull, sum } from 'drizzle-orm';
import { createScratchDatabase } from '../server/src/db/scratch.ts';
import { openDatabase, type Database } from '../server/src/db/client.ts';
import { migrate } from '../server/src/db/migrate.ts';
import { addresses, orderItems, orders, products, users } from '../server/src/db/schema.ts';
import { ACCESS_COOKIE, startSession } from '../server/src/lib/auth.ts';
import { newId } from '../server/src/lib/ids.ts';
import { createTokenSigner } from '../server/src/lib/tokens.ts';
import { generateProducts } from './catalogue/generate.ts';
import { describeCeiling, latencyRatio, measureCeiling, rpsRatio, type Ceiling } from './lib/ceiling.ts';
import { freePort } from '../server/src/test/ports.ts';

const root = path.resolve(import.meta.dirname, '..');

function arg(name: string, envName: string, fallback: number): number {
  const flag = process.argv.find((a) => a.startsWith(`--${name}=`));
  const raw = flag ? flag.slice(name.length + 3) : process.env[envName];
  const n = raw === undefined ? fallback : Number(raw);
  if (!Number.isFinite(n) || n <= 0) throw new Error(`--${name} must be a positive number (got ${raw})`);
  return n;
}

const DURATION_S = arg('duration', 'CHECKOUT_DURATION_SECONDS', 60);
const BUYERS = Math.floor(arg('buyers', 'CHECKOUT_BUYERS', 20));
const WORKERS = Math.floor(arg('workers', 'CHECKOUT_WORKERS', 1));
const REDIS_URL = WORKERS > 1 ? (process.env.BENCH_REDIS_URL ?? process.env.TEST_REDIS_URL ?? '') : '';
if (WORKERS > 1 && !REDIS_URL) throw new Error('--workers above 1 needs Redis (the shop refuses WEB_CONCURRENCY without it): set BENCH_REDIS_URL');
const CATALOGUE = (() => {
  const raw = process.argv.find((a) => a.startsWith('--catalogue='))?.slice('--catalogue='.length);
  const n = raw === undefined ? 0 : Number(raw);
  if (!Number.isInteger(n) || n < 0 || n > 2_000_000) throw new Error(`--catalogue must be a whole number from 0 to 2000000 (got ${raw})`);
  return n;
})();
const JSON_OUT = process.argv.find((a) => a.startsWith('--json='))?.slice('--json='.length);
const BASE_URL = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const JWT_SECRET = randomBytes(32).toString('hex');
/** Most products are plentiful; a few are scarce, so buyers also race for the last units. */
const PLENTIFUL = { count: 40, stock: 1_000_000 };
const SCARCE = { count: 5, stock: 100 };



interface Buyer { cookie: string; addressId: string }

async function seed(database: Database): Promise<{ buyers: Buyer[]; productIds: string[]; startStock: Map<string, number> }> {
  const db = database.db;
  const productRows = [
    ...Array.from({ length: PLENTIFUL.count }, (_, i) => ({ i, stock: PLENTIFUL.stock })),
    ...Array.from({ length: SCARCE.count }, (_, i) => ({ i: PLENTIFUL.count + i, stock: SCARCE.stock })),
  ].map(({ i, stock }) => ({
    id: newId(),
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

  const signer = createTokenSigner(JWT_SECRET, 3600);
  const buyers: Buyer[] = [];
  for (let i = 0; i < BUYERS; i += 1) {
    const id = newId();
    // Sessions are created directly: the benchmark measures checkout, not sign-in (argon2 is slow by design).
    await db.insert(users).values({ id, name: `Buyer ${i}`, email: `buyer${i}@bench.local`, passwordHash: 'not-used' });
    const session = await startSession(db, { signer, refreshTokenTtlDays: 1 }, id);
    const addressId = newId();
    await db.insert(addresses).values({
      id: addressId, userId: id, fullName: `Buyer ${i}`, address: `${i} Bench Street`, city: 'Loadville',
      postalCode: `9${String(i).padStart(4, '0')}`, country: 'USA', isDefault: true,
    });
    buyers.push({ cookie: `${ACCESS_COOKIE}=${session.accessToken}`, addressId });
  }
  return { buyers, productIds: productRows.map((p) => p.id), startStock: new Map(productRows.map((p) => [p.id, p.countInStock])) };
}

function startServer(dbUrl: string, port: number): ChildProcess {
  // e.g. BENCH_SERVER_NODE_ARGS='--cpu-prof --cpu-prof-dir=/tmp/prof' to profile the server
  const extra = (process.env.BENCH_SERVER_NODE_ARGS ?? '').split(' ').filter(Boolean);
  const child = spawn(process.execPath, [...extra, '--import', 'tsx', 'src/main.ts'], {
    cwd: path.join(root, 'server'),
    env: {
      ...process.env,
      NODE_ENV: 'production',
      HOST: '127.0.0.1',
      PORT: String(port),
      PUBLIC_URL: `http://127.0.0.1:${port}`,
      DATABASE_URL: dbUrl,
      DATABASE_POOL_SIZE: '20',
      REDIS_URL: REDIS_URL,
      WEB_CONCURRENCY: String(WORKERS),
      JWT_SECRET,
      SEED_DEMO_DATA: 'false',
      ALLOW_DEMO_PAYMENTS: 'true',
      PAYPAL_CLIENT_ID: '',
      PAYPAL_CLIENT_SECRET: '',
      LOG_LEVEL: 'warn',
      DATA_DIR: path.join(root, 'bench/.tmp/checkout-data'),
      WEB_DIST_DIR: path.join(root, 'bench/.tmp/no-web-build'),
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  return child;
}

async function waitReady(base: string, child: ChildProcess): Promise<void> {
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

/**
 * CPU time (user + system, ms) of a process from /proc (Linux; clock ticks of 10 ms), 0 when it is
 * gone. CPU per order is far less sensitive than orders/s to other work on a shared machine.
 */
function procCpuMs(pid: number): number {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch { return 0; }
}
/** The process and its descendants (the cluster primary and its workers). */
function processTree(pid: number): number[] {
  const out = [pid];
  try {
    for (const tid of readdirSync(`/proc/${pid}/task`)) {
      const children = readFileSync(`/proc/${pid}/task/${tid}/children`, 'utf8').trim();
      for (const c of children ? children.split(' ') : []) out.push(...processTree(Number(c)));
    }
  } catch { /* gone */ }
  return out;
}
/** CPU ms per process id now: the shop's processes, and the PostgreSQL backends on the scratch database (local server only). */
async function cpuSnapshot(database: Database, child: ChildProcess): Promise<{ shop: Map<number, number>; pg: Map<number, number> }> {
  const backends = await database.query<{ pid: number }>('select pid from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()');
  const snap = (pids: number[]) => new Map(pids.map((pid) => [pid, procCpuMs(pid)]));
  return { shop: snap(processTree(child.pid!)), pg: snap(backends.map((b) => b.pid)) };
}
const cpuSpent = (before: Map<number, number>, after: Map<number, number>) =>
  [...after].reduce((acc, [pid, ms]) => acc + ms - (before.get(pid) ?? 0), 0);

const percentile = (sorted: number[], p: number) =>
  sorted.length ? sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]! : NaN;
const fmt = (ms: number) => (Number.isNaN(ms) ? '-' : `${ms.toFixed(1)} ms`);
function summary(label: string, samples: number[], ceiling: Ceiling) {
  const s = [...samples].sort((a, b) => a - b);
  const mean = s.reduce((a, b) => a + b, 0) / (s.length || 1);
  const p99 = percentile(s, 99);
  return `${label.padEnd(22)} n=${String(s.length).padStart(6)}  mean ${fmt(mean)}  p50 ${fmt(percentile(s, 50))}  p95 ${fmt(percentile(s, 95))}  p99 ${fmt(p99)} (${latencyRatio(p99, ceiling)})  max ${fmt(s[s.length - 1] ?? NaN)}`;
}

interface Stats {
  placed: number; paid: number; outOfStock: number; addRefused: number; errors: number;
  placeMs: number[]; payMs: number[]; addMs: number[]; errorSamples: string[];
}

async function runBuyer(base: string, buyer: Buyer, productIds: string[], until: number, stats: Stats) {
  const headers = { cookie: buyer.cookie, 'content-type': 'application/json' };
  const request = async (method: string, url: string, body?: unknown) => {
    const t0 = performance.now();
    const res = await fetch(`${base}${url}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
    const json = (await res.json().catch(() => null)) as Record<string, unknown> | null;
    return { status: res.status, json, ms: performance.now() - t0 };
  };
  const fail = (what: string, r: { status: number; json: unknown }) => {
    stats.errors += 1;
    if (stats.errorSamples.length < 5) stats.errorSamples.push(`${what}: ${r.status} ${JSON.stringify(r.json)}`);
  };
  while (Date.now() < until) {
    const lines = 1 + Math.floor(Math.random() * 3);
    const picked = new Set<string>();
    while (picked.size < lines) picked.add(productIds[Math.floor(Math.random() * productIds.length)]!);
    let inCart = 0;
    for (const productId of picked) {
      const r = await request('POST', '/api/cart/items', { productId, quantity: 1 + Math.floor(Math.random() * 2) });
      stats.addMs.push(r.ms);
      if (r.status === 200) inCart += 1;
      else if (r.status === 400) stats.addRefused += 1; // the product sold out
      else fail('add to cart', r);
    }
    if (!inCart) continue;
    const placed = await request('POST', '/api/orders', {
      addressId: buyer.addressId, paymentMethod: 'PayPal',
      // Ignored by the server: amounts always come from the database.
      itemsPrice: 0.01, totalPrice: 0.01,
    });
    stats.placeMs.push(placed.ms);
    if (placed.status === 400 && placed.json?.code === 'OUT_OF_STOCK') {
      stats.outOfStock += 1;
      await request('DELETE', '/api/cart');
      continue;
    }
    if (placed.status !== 201) { fail('place order', placed); await request('DELETE', '/api/cart'); continue; }
    stats.placed += 1;
    const paid = await request('PUT', `/api/orders/${String(placed.json?._id)}/pay`, { demo: true });
    stats.payMs.push(paid.ms);
    if (paid.status === 200 && paid.json?.message === 'Order is paid successfully') stats.paid += 1;
    else fail('pay', paid);
  }
}

async function main() {
  console.info(`checkout benchmark: ${BUYERS} buyers for ${DURATION_S} s on PostgreSQL (${new URL(BASE_URL).host}), shop as ${WORKERS} process${WORKERS > 1 ? 'es (Redis)' : ''}`);
  const scratch = await createScratchDatabase(BASE_URL, 'shop_bench');
  let database: Database | undefined;
  let child: ChildProcess | undefined;
  try {
    database = await openDatabase({ databaseUrl: scratch.url, poolSize: 5 });
    await migrate(database);
    const { buyers, productIds, startStock } = await seed(database);
    if (CATALOGUE > 0) {
      const t0 = performance.now();
      await generateProducts(database, CATALOGUE);
      console.info(`catalogue              + ${CATALOGUE.toLocaleString('en-US')} products (generated in ${((performance.now() - t0) / 1000).toFixed(1)} s)`);
    }
    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    child = startServer(scratch.url, port);
    await waitReady(base, child);

    const stats: Stats = { placed: 0, paid: 0, outOfStock: 0, addRefused: 0, errors: 0, placeMs: [], payMs: [], addMs: [], errorSamples: [] };
    const cpuBefore = await cpuSnapshot(database, child);
    const started = performance.now();
    const until = Date.now() + DURATION_S * 1000;
    await Promise.all(buyers.map((b) => runBuyer(base, b, productIds, until, stats)));
    const elapsed = (performance.now() - started) / 1000;
    const cpuAfter = await cpuSnapshot(database, child);
    const shopCpuMs = cpuSpent(cpuBefore.shop, cpuAfter.shop);
    const pgCpuMs = cpuSpent(cpuBefore.pg, cpuAfter.pg);

    child.kill('SIGTERM');
    await new Promise((r) => child!.once('exit', r));
    child = undefined;
    const ceiling = await measureCeiling({ connections: BUYERS, seconds: Math.min(10, DURATION_S) });

    // Stock + units sold (lines of orders still holding their stock) must equal the starting stock.
    const db = database.db;
    const now = await db.select({ id: products.id, stock: products.countInStock }).from(products).where(inArray(products.id, productIds));
    const sold = await db.select({ productId: orderItems.productId, units: sum(orderItems.quantity).mapWith(Number) })
      .from(orderItems).innerJoin(orders, eq(orders.id, orderItems.orderId))
      .where(isNull(orders.stockReleasedAt)).groupBy(orderItems.productId);
    const soldBy = new Map(sold.map((s) => [s.productId, s.units]));
    let mismatches = 0;
    let unitsSold = 0;
    let startTotal = 0;
    let nowTotal = 0;
    for (const p of now) {
      const units = soldBy.get(p.id) ?? 0;
      const start = startStock.get(p.id) ?? 0;
      unitsSold += units;
      startTotal += start;
      nowTotal += p.stock;
      if (p.stock + units !== start) {
        mismatches += 1;
        console.error(`  MISMATCH ${p.id}: stock ${p.stock} + sold ${units} != start ${start}`);
      }
    }
    const [paidRows] = await db.select({ n: sum(orders.totalPrice).mapWith(Number) }).from(orders).where(and(eq(orders.isPaid, true)));
    const scarceLeft = now.filter((p) => startStock.get(p.id) === SCARCE.stock).map((p) => p.stock);

    console.info('');
    console.info(`duration               ${elapsed.toFixed(1)} s, ${BUYERS} concurrent buyers, ${WORKERS} shop process${WORKERS > 1 ? 'es' : ''}`);
    const requests = stats.addMs.length + stats.placeMs.length + stats.payMs.length;
    console.info(`orders placed          ${stats.placed}  (${(stats.placed / elapsed).toFixed(1)} orders/s, ${rpsRatio(stats.placed / elapsed, ceiling)} req/s)`);
    console.info(`orders paid (demo)     ${stats.paid}  (${(stats.paid / elapsed).toFixed(1)} orders/s placed and paid)`);
    console.info(`requests (cart, order, pay) ${(requests / elapsed).toFixed(1)} req/s (${rpsRatio(requests / elapsed, ceiling)})`);
    console.info(`CPU per order placed   shop ${(shopCpuMs / stats.placed).toFixed(2)} ms, PostgreSQL backends ${(pgCpuMs / stats.placed).toFixed(2)} ms (shop ${(shopCpuMs / 1000 / elapsed).toFixed(2)} cores, PostgreSQL ${(pgCpuMs / 1000 / elapsed).toFixed(2)} cores busy)`);
    console.info(`refused out of stock   ${stats.outOfStock} orders, ${stats.addRefused} add-to-cart (scarce products left: ${scarceLeft.join(', ')})`);
    console.info(`errors                 ${stats.errors}${stats.errorSamples.length ? `  e.g. ${stats.errorSamples.join(' | ')}` : ''}`);
    console.info(summary('POST /api/orders', stats.placeMs, ceiling));
    console.info(summary('PUT /api/orders/:id/pay', stats.payMs, ceiling));
    console.info(summary('POST /api/cart/items', stats.addMs, ceiling));
    console.info(describeCeiling(ceiling));
    console.info(`revenue (paid, USD)    ${(paidRows?.n ?? 0).toFixed(2)}`);
    console.info(`stock check            start ${startTotal} = now ${nowTotal} + sold ${unitsSold}: ${mismatches === 0 && startTotal === nowTotal + unitsSold ? 'OK' : `FAILED (${mismatches} products)`}`);
    if (JSON_OUT) {
      const p99 = (xs: number[]) => percentile([...xs].sort((a, b) => a - b), 99);
      writeFileSync(JSON_OUT, JSON.stringify({
        catalogue: CATALOGUE + productIds.length, buyers: BUYERS, workers: WORKERS, seconds: elapsed, ordersPerSecond: stats.placed / elapsed,
        shopCpuMsPerOrder: shopCpuMs / stats.placed, pgCpuMsPerOrder: pgCpuMs / stats.placed,
        placeP99: p99(stats.placeMs), payP99: p99(stats.payMs), addP99: p99(stats.addMs), errors: stats.errors, stockOk: mismatches === 0,
        ceiling,
      }, null, 2));
    }
    if (mismatches || stats.errors) process.exitCode = 1;
  } finally {
    if (child) {
      child.kill('SIGTERM');
      await new Promise((r) => child!.once('exit', r));
    }
    await database?.close();
    await scratch.drop();
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
