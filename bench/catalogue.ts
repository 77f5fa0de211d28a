/**
 * Catalogue read benchmark: the real server (buildApp, in a child process) over a generated
 * catalogue, loaded with autocannon from this process, 127.0.0.1 only, for a bounded time.
 *
 * Targets: PostgreSQL with 100,000 products (a scratch database created and dropped here) and
 * in-memory PGlite with 10,000. Scenarios: text search, category + price + sort, a deep page,
 * product by slug, each over a rotating set of URLs. Each scenario runs twice: as shoppers send it
 * (the server's few-seconds micro-cache answers repeats) and with `Cache-Control: no-cache` (every
 * page read from the database; result counts stay cached). Then the ceiling (lib/ceiling.ts: a bare
 * Fastify route answering a prepared 12-product page, same connections, same duration), after each
 * scenario. Prints req/s, p50, p99, each as a ratio to the ceiling, failures and the server's peak RSS.
 *
 *   node --import tsx bench/catalogue.ts [--duration=10] [--connections=20] [--targets=postgres,pglite]
 *        [--pg-products=100000] [--pglite-products=10000] [--json=<file>]
 *        [--scenarios=text,typo,filter,deep,slug,ssr-home,ssr-search,ssr-product] [--uncached-only] [--workers=1] [--ssr]
 *   --scenarios picks some scenarios (default: all); --uncached-only skips the as-sent (micro-cached)
 *   run of each scenario, so a before/after comparison of the database path stays short.
 *   --workers=N (PostgreSQL only): the server as N node:cluster processes sharing the port, as
 *   WEB_CONCURRENCY=N runs it (each with its own pool; rate limits in Redis: BENCH_REDIS_URL,
 *   default $TEST_REDIS_URL or redis://127.0.0.1:6379/9). 1 (the default) is the single-process server.
 *   --ssr: also the server-rendered storefront pages (home, search, product) as HTML; the shop serves
 *   the web build (`npm run build -w web` first: web/dist and web/dist-ssr). The as-sent run is the
 *   anonymous page micro-cache; no-cache renders every page.
 *   env: BENCH_DATABASE_URL (default $TEST_DATABASE_URL or postgres://postgres@127.0.0.1:5432/postgres)
 */
import { existsSync, writeFileSync } from 'node:fs';
import { loadavg, availableParallelism, cpus } from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import { createScratchDatabase } from '../server/src/db/scratch.ts';
import { catalogueScenarios, ssrScenarios, type Scenario } from './catalogue/scenarios.ts';
import { ServerProcess } from './catalogue/server-process.ts';
import { CeilingServer, latencyRatio, rpsRatio, type Ceiling } from './lib/ceiling.ts';

function flag(name: string): string | undefined {
  const f = process.argv.find((a) => a.startsWith(`--${name}=`));
  return f?.slice(name.length + 3);
}
function numberFlag(name: string, fallback: number, max: number): number {
  const raw = flag(name);
  const n = raw === undefined ? fallback : Number(raw);
  if (!Number.isFinite(n) || n <= 0 || n > max) throw new Error(`--${name} must be a number from 1 to ${max} (got ${raw})`);
  return n;
}

const DURATION = numberFlag('duration', 10, 120);
const CONNECTIONS = Math.floor(numberFlag('connections', 20, 200));
const TARGETS = (flag('targets') ?? 'postgres,pglite').split(',').map((s) => s.trim()).filter(Boolean);
const PG_PRODUCTS = Math.floor(numberFlag('pg-products', 100_000, 2_000_000));
const PGLITE_PRODUCTS = Math.floor(numberFlag('pglite-products', 10_000, 200_000));
const SCENARIOS = flag('scenarios')?.split(',').map((s) => s.trim()).filter(Boolean);
const UNCACHED_ONLY = process.argv.includes('--uncached-only');
const WORKERS = Math.floor(numberFlag('workers', 1, 16));
const REDIS_URL = process.env.BENCH_REDIS_URL ?? process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379/9';
const BASE_URL = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const WARMUP_SECONDS = 2;
const SSR = process.argv.includes('--ssr');
const WEB_DIST = path.resolve(import.meta.dirname, '../web/dist');

interface Stats { reqs: number; p50: number; p99: number; failed: number; bytes: number; rssMb: number }
interface Row { name: string; target?: string; cached: Stats; db: Stats; ceiling: Ceiling }

function scenarios(products: number, slugs: string[]): Scenario[] {
  return [...catalogueScenarios(products, slugs), ...(SSR ? ssrScenarios(slugs) : [])].filter((s) => !SCENARIOS || SCENARIOS.includes(s.key));
}

function shuffle<T>(xs: T[]): T[] {
  const a = [...xs];
  for (let i = a.length - 1; i > 0; i -= 1) {
    const j = Math.floor(Math.random() * (i + 1));
    [a[i], a[j]] = [a[j] as T, a[i] as T];
  }
  return a;
}

async function load(port: number, paths: string[], seconds: number, headers: Record<string, string>): Promise<autocannon.Result> {
  const order = shuffle(paths);
  let next = 0;
  return autocannon({
    url: `http://127.0.0.1:${port}`,
    connections: CONNECTIONS,
    duration: seconds,
    headers,
    requests: [{ method: 'GET', setupRequest: (req) => ({ ...req, path: order[next++ % order.length] as string }) }],
  });
}

/** The as-sent run of a scenario under --uncached-only (printed as zeros, left out of the verdicts). */
const NOT_MEASURED: Stats = { reqs: 0, p50: 0, p99: 0, failed: 0, bytes: 0, rssMb: 0 };

async function measure(server: ServerProcess, port: number, paths: string[], headers: Record<string, string> = {}): Promise<Stats> {
  await load(port, paths, WARMUP_SECONDS, headers);
  let peak = 0;
  const poll = setInterval(() => {
    void server.rss().then((r) => { peak = Math.max(peak, r); });
  }, 250);
  const result = await load(port, paths, DURATION, headers);
  clearInterval(poll);
  peak = Math.max(peak, await server.rss());
  const responses = result['2xx'] + result.non2xx;
  return {
    reqs: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    failed: result.non2xx + result.errors,
    bytes: responses ? result.throughput.total / responses : 0,
    rssMb: peak / 1024 / 1024,
  };
}

async function runTarget(kind: 'postgres' | 'pglite'): Promise<{ title: string; rows: Row[] }> {
  let scratch: { url: string; drop: () => Promise<void> } | undefined;
  let server: ServerProcess | undefined;
  const ceilingServer = await CeilingServer.start();
  const products = kind === 'postgres' ? PG_PRODUCTS : PGLITE_PRODUCTS;
  try {
    if (kind === 'postgres') scratch = await createScratchDatabase(BASE_URL, 'shop_bench_cat');
    console.info(`\n== ${kind}: generating ${products.toLocaleString('en-US')} products...`);
    const workers = kind === 'postgres' ? WORKERS : 1;
    if (workers !== WORKERS) console.info(`   --workers=${WORKERS} ignored: PGlite is opened by one process only`);
    const started = await ServerProcess.start({ databaseUrl: scratch?.url, products, ...(workers > 1 ? { workers, redisUrl: REDIS_URL } : {}), ...(SSR ? { webDist: WEB_DIST } : {}) });
    server = started.server;
    console.info(`   generated in ${(started.generateMs / 1000).toFixed(1)} s; server on 127.0.0.1:${started.port} (${workers} process${workers > 1 ? 'es, node:cluster' : ''}); ${DURATION} s per run, ${CONNECTIONS} connections`);
    console.info(HEADER);
    const rows: Row[] = [];
    for (const s of scenarios(products, started.slugs)) {
      const cached = UNCACHED_ONLY ? NOT_MEASURED : await measure(server, started.port, s.paths, { ...s.headers });
      const db = await measure(server, started.port, s.paths, { ...s.headers, 'cache-control': 'no-cache' });
      const ceiling = await ceilingServer.measure({ connections: CONNECTIONS, seconds: DURATION });
      const row: Row = { name: s.name, target: s.target, cached, db, ceiling };
      rows.push(row);
      printRow(row);
    }
    return { title: `${kind === 'postgres' ? 'PostgreSQL' : 'PGlite'}, ${products.toLocaleString('en-US')} products${workers > 1 ? `, ${workers} server processes` : ''}`, rows };
  } finally {
    await server?.stop();
    await ceilingServer.stop();
    await scratch?.drop();
  }
}


const fmt = (n: number, digits = 0) => n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });
const cols = (st: Stats) => `${fmt(st.reqs).padStart(8)}${fmt(st.p50, 0).padStart(6)}${fmt(st.p99, 0).padStart(6)}`;
const ratio = (st: Stats, c: Ceiling) => `${fmt(st.reqs / c.rps, 2).padStart(6)}${fmt(st.p99 / Math.max(0.1, c.p99), 1).padStart(6)}`;
const HEADER = `   ${''.padEnd(22)}${'cached (as sent)'.padStart(20)}  ${'no-cache (database)'.padStart(20)}  ${'ceiling'.padStart(20)}  ${'cached/ceil.'.padStart(12)}  ${'no-cache/ceil.'.padStart(12)}\n`
  + `   ${'scenario'.padEnd(22)}${'req/s'.padStart(8)}${'p50'.padStart(6)}${'p99'.padStart(6)}  ${'req/s'.padStart(8)}${'p50'.padStart(6)}${'p99'.padStart(6)}  ${'req/s'.padStart(8)}${'p50'.padStart(6)}${'p99'.padStart(6)}  ${'req/s'.padStart(6)}${'p99'.padStart(6)}  ${'req/s'.padStart(6)}${'p99'.padStart(6)}${'KB'.padStart(6)}${'RSS MB'.padStart(8)}${'failed'.padStart(8)}`;
function printRow(r: Row) {
  const rss = Math.max(r.cached.rssMb, r.db.rssMb);
  const failed = r.cached.failed + r.db.failed + r.ceiling.failed;
  const c = r.ceiling;
  console.info(`   ${r.name.padEnd(22)}${cols(r.cached)}  ${cols(r.db)}  ${fmt(c.rps).padStart(8)}${fmt(c.p50, 0).padStart(6)}${fmt(c.p99, 0).padStart(6)}  ${ratio(r.cached, c)}  ${ratio(r.db, c)}${fmt(r.db.bytes / 1024, 1).padStart(6)}${fmt(rss).padStart(8)}${fmt(failed).padStart(8)}`);
}

function verdicts(kind: string, rows: Row[]): string[] {
  const out: string[] = [];
  const text = rows.find((r) => r.target === 'text');
  const filter = rows.find((r) => r.target === 'filter');
  const met = (ok: boolean) => (ok ? 'met' : 'NOT met');
  for (const r of rows.filter((x) => x.target)) {
    out.push(`${r.name} (no-cache) >= 0.2 of the ceiling: ${met(r.db.reqs / r.ceiling.rps >= 0.2)} (${rpsRatio(r.db.reqs, r.ceiling)}, p99 ${latencyRatio(r.db.p99, r.ceiling)})`);
  }
  // Issue 12's goals, uncached (the micro-cache must not hide the work); cached figures for reference.
  if (kind.startsWith('PostgreSQL')) {
    if (text) {
      const runs: Array<[string, Stats]> = [['no-cache', text.db]];
      if (!UNCACHED_ONLY) runs.push(['cached', text.cached]);
      for (const [label, st] of runs) {
        out.push(`text search >= 2,500 req/s, p99 <= 20 ms (${label}): ${met(st.reqs >= 2500 && st.p99 <= 20)} (${fmt(st.reqs)} req/s, p99 ${fmt(st.p99)} ms)`);
      }
    }
    if (filter) out.push(`filter + sort >= 3,000 req/s (no-cache): ${met(filter.db.reqs >= 3000)} (${fmt(filter.db.reqs)} req/s)`);
    const deep = rows.find((r) => r.name.startsWith('deep page'));
    if (deep) out.push(`deep page >= 1,500 req/s (no-cache): ${met(deep.db.reqs >= 1500)} (${fmt(deep.db.reqs)} req/s)`);
    const slug = rows.find((r) => r.name === 'product by slug');
    if (slug) out.push(`product by slug >= 5,000 req/s (no-cache): ${met(slug.db.reqs >= 5000)} (${fmt(slug.db.reqs)} req/s)`);
  } else {
    const runs: Array<[string, (r: Row) => Stats]> = [['no-cache', (r) => r.db]];
    if (!UNCACHED_ONLY) runs.push(['cached', (r) => r.cached]);
    for (const [label, pick] of runs) {
      const worst = Math.max(...rows.map((r) => pick(r).p99));
      out.push(`p99 <= 40 ms in every scenario (${label}): ${met(worst <= 40)} (worst p99 ${fmt(worst)} ms)`);
    }
  }
  if (rows.some((r) => r.cached.failed + r.db.failed + r.ceiling.failed > 0)) out.push('WARNING: some requests failed (non-2xx or errors)');
  return out;
}

async function main() {
  if (SSR && !existsSync(path.join(`${WEB_DIST}-ssr`, 'entry-server.js'))) throw new Error('--ssr needs the web build: npm run build -w web');
  console.info(`Catalogue benchmark: ${cpus()[0]?.model ?? 'cpu'} x${availableParallelism()}, load average ${loadavg().map((l) => l.toFixed(2)).join(' ')}, Node ${process.version}`);
  const results: Array<{ title: string; rows: Row[] }> = [];
  for (const target of TARGETS) {
    if (target !== 'postgres' && target !== 'pglite') throw new Error(`unknown target ${target} (postgres, pglite)`);
    results.push(await runTarget(target));
  }
  console.info('\n== Summary');
  for (const { title, rows } of results) {
    console.info(`\n${title} (${CONNECTIONS} connections, ${DURATION} s per run; latencies in ms; ceiling = bare Fastify route, prepared 12-product page, same load; ratios: req/s ÷ ceiling req/s, p99 ÷ ceiling p99)`);
    console.info(HEADER);
    rows.forEach(printRow);
    for (const v of verdicts(title, rows)) console.info(`   target: ${v}`);
  }
  console.info(`\nload average at the end: ${loadavg().map((l) => l.toFixed(2)).join(' ')} (other work on the machine lowers every figure)`);
  const jsonOut = flag('json');
  if (jsonOut) writeFileSync(jsonOut, JSON.stringify({ connections: CONNECTIONS, duration: DURATION, results }, null, 2));
}

main().catch((err: unknown) => {
  console.error(err);
  process.exitCode = 1;
});
