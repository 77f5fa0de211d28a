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
import type { ChildProcess } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { and, eq, inArray, isNull, sum } from 'drizzle-orm';
import { createScratchDatabase } from '../server/src/db/scratch.ts';
import { openDatabase, type Database } from '../server/src/db/client.ts';
import { migrate } from '../server/src/db/migrate.ts';
import { orderItems, orders, products } from '../server/src/db/schema.ts';
import { generateProducts } from './catalogue/generate.ts';
import { describeCeiling, latencyRatio, measureCeiling, rpsRatio, type Ceiling } from './lib/ceiling.ts';
import {
  SCARCE, backendPids, cpuSpent, newStats, processTree, runBuyer, seedCheckout, snapCpu, startShop, stopShop, waitReady,
} from './lib/checkout-shop.ts';
import { freePort } from '../server/src/test/ports.ts';

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
/** CPU ms per process id now: the shop's processes, and the PostgreSQL backends on the scratch database (local server only). */
async function cpuSnapshot(database: Database, child: ChildProcess) {
  return { shop: snapCpu(processTree(child.pid!)), pg: snapCpu(await backendPids(database)) };
}

const percentile = (sorted: number[], p: number) =>
  sorted.length ? sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]! : NaN;
const fmt = (ms: number) => (Number.isNaN(ms) ? '-' : `${ms.toFixed(1)} ms`);
function summary(label: string, samples: number[], ceiling: Ceiling) {
  const s = [...samples].sort((a, b) => a - b);
  const mean = s.reduce((a, b) => a + b, 0) / (s.length || 1);
  const p99 = percentile(s, 99);
  return `${label.padEnd(22)} n=${String(s.length).padStart(6)}  mean ${fmt(mean)}  p50 ${fmt(percentile(s, 50))}  p95 ${fmt(percentile(s, 95))}  p99 ${fmt(p99)} (${latencyRatio(p99, ceiling)})  max ${fmt(s[s.length - 1] ?? NaN)}`;
}

async function main() {
  console.info(`checkout benchmark: ${BUYERS} buyers for ${DURATION_S} s on PostgreSQL (${new URL(BASE_URL).host}), shop as ${WORKERS} process${WORKERS > 1 ? 'es (Redis)' : ''}`);
  const scratch = await createScratchDatabase(BASE_URL, 'shop_bench');
  let database: Database | undefined;
  let child: ChildProcess | undefined;
  try {
    database = await openDatabase({ databaseUrl: scratch.url, poolSize: 5 });
    await migrate(database);
    const { buyers, productIds, startStock } = await seedCheckout(database, { buyers: BUYERS, jwtSecret: JWT_SECRET });
    if (CATALOGUE > 0) {
      const t0 = performance.now();
      await generateProducts(database, CATALOGUE);
      console.info(`catalogue              + ${CATALOGUE.toLocaleString('en-US')} products (generated in ${((performance.now() - t0) / 1000).toFixed(1)} s)`);
    }
    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    child = startShop({ dbUrl: scratch.url, port, jwtSecret: JWT_SECRET, workers: WORKERS, redisUrl: REDIS_URL });
    await waitReady(base, child);

    const stats = newStats();
    const cpuBefore = await cpuSnapshot(database, child);
    const started = performance.now();
    const until = Date.now() + DURATION_S * 1000;
    await Promise.all(buyers.map((b) => runBuyer(base, b, productIds, until, stats)));
    const elapsed = (performance.now() - started) / 1000;
    const cpuAfter = await cpuSnapshot(database, child);
    const shopCpuMs = cpuSpent(cpuBefore.shop, cpuAfter.shop);
    const pgCpuMs = cpuSpent(cpuBefore.pg, cpuAfter.pg);

    await stopShop(child);
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
    if (child) await stopShop(child);
    await database?.close();
    await scratch.drop();
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
