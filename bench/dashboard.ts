/**
 * Dashboard summary latency: GET /api/orders/summary (default 30 days, and 90 days) with 10 concurrent
 * administrators for a bounded time, on
 *   - PostgreSQL: 200,000 orders and ~600,000 order lines over a year (goal p95 <= 50 ms),
 *   - PGlite:      20,000 orders and  ~60,000 order lines over a year (goal p95 <= 150 ms),
 * plus the ceiling (lib/ceiling.ts: a bare Fastify route answering a prepared 12-product page) under
 * the same load in the same run; figures are also printed as ratios to it.
 * The app runs in this process (buildApp) and the load comes from this process too (127.0.0.1 only).
 *
 *   node --import tsx bench/dashboard.ts [--seconds=10] [--targets=postgres,pglite] [--pg-orders=200000] [--pglite-orders=20000]
 *   env: BENCH_DATABASE_URL (default $TEST_DATABASE_URL or postgres://postgres@127.0.0.1:5432/postgres)
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { sql } from 'drizzle-orm';
import { buildApp } from '../server/src/app.ts';
import { loadConfig } from '../server/src/config.ts';
import { openDatabase, type Database } from '../server/src/db/client.ts';
import { migrate } from '../server/src/db/migrate.ts';
import { createScratchDatabase } from '../server/src/db/scratch.ts';
import { users } from '../server/src/db/schema.ts';
import { ACCESS_COOKIE, startSession } from '../server/src/lib/auth.ts';
import { newId } from '../server/src/lib/ids.ts';
import { CeilingServer, latencyRatio, rpsRatio } from './lib/ceiling.ts';

function flag(name: string, fallback: string): string {
  return process.argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3) ?? fallback;
}
const SECONDS = Math.min(60, Math.max(1, Number(flag('seconds', '10'))));
const CONCURRENCY = 10;
const TARGETS = flag('targets', 'postgres,pglite').split(',');
const PG_ORDERS = Number(flag('pg-orders', '200000'));
const PGLITE_ORDERS = Number(flag('pglite-orders', '20000'));
const BASE_URL = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

/** Customers, products and a year of orders with three lines each; the rollup triggers fire as in production. */
async function generate(database: Database, numOrders: number): Promise<number> {
  const t0 = performance.now();
  const db = database.db;
  await db.execute(sql.raw(`
    INSERT INTO users (id, name, email, password_hash, created_at)
    SELECT lpad(to_hex(1000000000 + u), 24, '0'), 'Bench User ' || u, 'bench' || u || '@bench.local', 'not-used', now() - (random() * 400 || ' days')::interval
    FROM generate_series(1, 5000) u`));
  await db.execute(sql.raw(`
    INSERT INTO products (id, name, slug, price, image, category, brand, count_in_stock, description)
    SELECT lpad(to_hex(2000000000 + p), 24, '0'), 'Bench Product ' || p, 'bench-product-' || p, round((5 + random() * 200)::numeric, 2),
           '/images/bench.jpg', 'Category ' || (p % 20), 'Bench', 100, 'A benchmark product'
    FROM generate_series(1, 2000) p`));
  // In chunks, so one statement never holds hundreds of thousands of trigger events at once.
  const chunk = 50_000;
  for (let start = 1; start <= numOrders; start += chunk) {
    const end = Math.min(numOrders, start + chunk - 1);
    await db.execute(sql.raw(`
      INSERT INTO orders (id, user_id, shipping_address, payment_method, items_price, shipping_price, tax_price, total_price,
                          is_paid, paid_at, payment_provider, payment_id, stock_released_at, created_at, updated_at)
      SELECT lpad(to_hex(3000000000 + g), 24, '0'), lpad(to_hex(1000000000 + 1 + g % 5000), 24, '0'),
             '{"fullName":"Bench","address":"1 Road","city":"Town","postalCode":"1","country":"USA"}'::jsonb, 'PayPal',
             total, 0, 0, total, paid, CASE WHEN paid THEN ts END, CASE WHEN paid THEN 'demo' END, CASE WHEN paid THEN 'bench-' || g END,
             CASE WHEN NOT paid AND expired THEN ts + interval '30 minutes' END, ts, ts
      FROM (SELECT g, now() - (random() * 365 || ' days')::interval AS ts, round((10 + random() * 300)::numeric, 2) AS total,
                   random() < 0.8 AS paid, random() < 0.7 AS expired
            FROM generate_series(${start}, ${end}) g) s`));
    await db.execute(sql.raw(`
      INSERT INTO order_items (id, order_id, product_id, name, slug, image, price, quantity, position)
      SELECT lpad(to_hex(4000000000 + g * 3 + k), 24, '0'), lpad(to_hex(3000000000 + g), 24, '0'),
             lpad(to_hex(2000000000 + 1 + (g * 7 + k) % 2000), 24, '0'), 'Bench Product', 'bench-product', '/images/bench.jpg', 10, 1, k
      FROM generate_series(${start}, ${end}) g, generate_series(0, 2) k`));
  }
  await db.execute(sql.raw('ANALYZE'));
  return performance.now() - t0;
}

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? NaN;

/** CONCURRENCY clients each sending one request after the other for SECONDS; latency of every answer. */
async function load(base: string, paths: string[], cookie: string, seconds = SECONDS) {
  const latencies: number[] = [];
  let failed = 0;
  const until = performance.now() + seconds * 1000;
  let i = 0;
  await Promise.all(Array.from({ length: CONCURRENCY }, async () => {
    while (performance.now() < until) {
      const p = paths[i++ % paths.length]!;
      const t0 = performance.now();
      const res = await fetch(`${base}${p}`, { headers: { cookie } });
      await res.arrayBuffer();
      latencies.push(performance.now() - t0);
      if (!res.ok) failed += 1;
    }
  }));
  latencies.sort((a, b) => a - b);
  return { requests: latencies.length, rps: latencies.length / seconds, p50: percentile(latencies, 50), p95: percentile(latencies, 95), p99: percentile(latencies, 99), failed };
}

async function runTarget(kind: 'postgres' | 'pglite') {
  const numOrders = kind === 'postgres' ? PG_ORDERS : PGLITE_ORDERS;
  const goal = kind === 'postgres' ? 50 : 150;
  const scratch = kind === 'postgres' ? await createScratchDatabase(BASE_URL, 'shop_bench_dash') : null;
  const database = scratch ? await openDatabase({ databaseUrl: scratch.url, poolSize: 10 }) : await openDatabase({ pgliteDir: 'memory://' });
  try {
    await migrate(database);
    const generateMs = await generate(database, numOrders);
    const dataDir = mkdtempSync(path.join(tmpdir(), 'shop-bench-dash-'));
    const config = loadConfig({
      NODE_ENV: 'test', DATA_DIR: dataDir, JWT_SECRET: 'bench-secret-bench-secret-bench-secret-1', LOG_LEVEL: 'silent',
      WEB_DIST_DIR: path.join(dataDir, 'no-web'), SEED_DEMO_DATA: 'false', JOBS_POLL_MS: '0',
    });
    const app = await buildApp({ config, database, logger: false });
    await app.ready();
    const adminId = newId();
    await database.db.insert(users).values({ id: adminId, name: 'Bench Admin', email: 'admin@bench.local', passwordHash: 'not-used', isAdmin: true });
    const session = await startSession(database.db, { signer: app.ctx.signer, refreshTokenTtlDays: 1 }, adminId);
    const cookie = `${ACCESS_COOKIE}=${session.accessToken}`;
    await app.listen({ host: '127.0.0.1', port: 0 });
    const { port } = app.server.address() as { port: number };
    const base = `http://127.0.0.1:${port}`;
    const check = await fetch(`${base}/api/orders/summary`, { headers: { cookie } });
    const body = (await check.json()) as { orders: Array<{ numOrders: number }> };
    if (!check.ok) throw new Error(`summary answered ${check.status}`);
    const today = new Date().toISOString().slice(0, 10);
    const ninety = new Date(Date.now() - 89 * 86_400_000).toISOString().slice(0, 10);
    await load(base, ['/api/orders/summary'], cookie); // warm-up
    const summary = await load(base, ['/api/orders/summary', `/api/orders/summary?from=${ninety}&to=${today}`], cookie);
    await app.close();
    const ceilingServer = await CeilingServer.start();
    // The same client as the summary's (fetch, CONCURRENCY at a time), so the ratio compares like with like.
    const ceiling = await ceilingServer.measure({
      connections: CONCURRENCY, seconds: SECONDS, how: `fetch, ${CONCURRENCY} concurrent clients`,
      load: async (url, seconds) => load(url.replace(/\/ceiling$/, ''), ['/ceiling'], '', seconds),
    }).finally(() => ceilingServer.stop());
    const f = (n: number) => n.toFixed(1).padStart(7);
    console.info(`\n${kind}: ${numOrders.toLocaleString('en-US')} orders, ${(numOrders * 3).toLocaleString('en-US')} lines over a year (generated in ${(generateMs / 1000).toFixed(1)} s); ${body.orders[0]?.numOrders ?? 0} paid orders in the last 30 days`);
    console.info(`  ${CONCURRENCY} concurrent admins, ${SECONDS} s each         req/s     p50 ms   p95 ms   p99 ms  failed`);
    console.info(`  GET /api/orders/summary (30 + 90 days) ${f(summary.rps)}  ${f(summary.p50)}  ${f(summary.p95)}  ${f(summary.p99)}  ${summary.failed}`);
    console.info(`  ceiling (bare Fastify, 12-product page) ${f(ceiling.rps)}  ${f(ceiling.p50)}  ${'-'.padStart(7)}  ${f(ceiling.p99)}  ${ceiling.failed}`);
    console.info(`  summary vs ceiling: ${rpsRatio(summary.rps, ceiling)} req/s, p99 ${latencyRatio(summary.p99, ceiling)}`);
    console.info(`  goal p95 <= ${goal} ms: ${summary.p95 <= goal ? 'MET' : 'NOT MET'} (${summary.p95.toFixed(1)} ms)`);
  } finally {
    await database.close();
    await scratch?.drop();
  }
}

for (const target of TARGETS) {
  if (target !== 'postgres' && target !== 'pglite') throw new Error(`unknown target ${target}`);
  await runTarget(target);
}
