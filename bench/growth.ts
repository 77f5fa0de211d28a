/**
 * Growth: how search and checkout latency change as the catalogue grows, on PostgreSQL — the cost
 * curve a shop owner should expect. For each size (default 10,000 / 100,000 / 1,000,000 products) it
 * runs, each in its own process:
 *   - bench/catalogue.ts --targets=postgres --pg-products=N (uncached text search, filter + sort,
 *     deep page, product by slug: req/s and p99, with the ceiling of the same run), and
 *   - bench/checkout.ts --catalogue=N (orders/s and POST /api/orders p99 with N other products),
 * then prints one table with every figure and its ratio to the first size.
 *
 *   node --import tsx bench/growth.ts [--sizes=10000,100000,1000000] [--duration=5] [--checkout-seconds=15]
 *   env: BENCH_DATABASE_URL (default $TEST_DATABASE_URL or postgres://postgres@127.0.0.1:5432/postgres)
 *
 * 1,000,000 products take a few minutes to generate (twice: once per benchmark). Not part of npm test.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';

function flag(name: string): string | undefined {
  return process.argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);
}
const SIZES = (flag('sizes') ?? '10000,100000,1000000').split(',').map((s) => Number(s.trim()));
if (SIZES.some((n) => !Number.isInteger(n) || n < 100 || n > 2_000_000)) throw new Error('--sizes: whole numbers from 100 to 2000000');
const DURATION = Number(flag('duration') ?? '5');
const CHECKOUT_SECONDS = Number(flag('checkout-seconds') ?? '15');
if (!(DURATION > 0 && DURATION <= 60) || !(CHECKOUT_SECONDS > 0 && CHECKOUT_SECONDS <= 120)) throw new Error('--duration 1..60, --checkout-seconds 1..120');

interface Stats { reqs: number; p99: number }
interface CatalogueJson { results: Array<{ title: string; rows: Array<{ name: string; db: Stats; ceiling: { rps: number; p99: number } }> }> }
interface CheckoutJson { ordersPerSecond: number; placeP99: number; payP99: number; errors: number; stockOk: boolean }
interface Point { size: number; search: Record<string, Stats>; ceilingRps: number; checkout: CheckoutJson | null }

function run(script: string, args: string[]): boolean {
  const r = spawnSync(process.execPath, ['--import', 'tsx', path.join(import.meta.dirname, script), ...args], { stdio: ['ignore', 'inherit', 'inherit'] });
  return r.status === 0;
}

const work = mkdtempSync(path.join(tmpdir(), 'shop-growth-'));
const points: Point[] = [];
try {
  for (const size of SIZES) {
    console.info(`\n######## ${size.toLocaleString('en-US')} products (load average ${loadavg().map((l) => l.toFixed(2)).join(' ')})`);
    const catFile = path.join(work, `catalogue-${size}.json`);
    const coFile = path.join(work, `checkout-${size}.json`);
    const catOk = run('catalogue.ts', ['--targets=postgres', `--pg-products=${size}`, `--duration=${DURATION}`, `--json=${catFile}`]);
    const coOk = run('checkout.ts', [`--catalogue=${size}`, `--duration=${CHECKOUT_SECONDS}`, `--json=${coFile}`]);
    const cat = catOk ? (JSON.parse(readFileSync(catFile, 'utf8')) as CatalogueJson) : null;
    const rows = cat?.results[0]?.rows ?? [];
    points.push({
      size,
      search: Object.fromEntries(rows.map((r) => [r.name.replace(/ \(.*\)$/, ''), r.db])),
      ceilingRps: rows.length ? rows.reduce((n, r) => n + r.ceiling.rps, 0) / rows.length : NaN,
      checkout: coOk ? (JSON.parse(readFileSync(coFile, 'utf8')) as CheckoutJson) : null,
    });
  }
} finally {
  rmSync(work, { recursive: true, force: true });
}

const fmt = (n: number | undefined, digits = 0) => (n === undefined || Number.isNaN(n) ? '-' : n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits }));
const first = points[0];
const vsFirst = (now: number | undefined, then: number | undefined) => (now && then ? `×${(now / then).toFixed(2)}` : '');
console.info('\n== Growth on PostgreSQL (uncached reads; p99 in ms; ×: against the first size)');
const scenarios = ['text search', 'category+price+sort', 'deep page', 'product by slug'];
const header = ['products'.padStart(10), ...scenarios.map((s) => `${s} req/s, p99`.padStart(34)), 'ceiling req/s'.padStart(14), 'checkout orders/s, POST p99, pay p99'.padStart(44)];
console.info(header.join(''));
for (const p of points) {
  const cells = scenarios.map((s) => {
    const st = p.search[s];
    return `${fmt(st?.reqs)}, ${fmt(st?.p99)} ${vsFirst(st?.p99, first?.search[s]?.p99)}`.padStart(34);
  });
  const co = p.checkout;
  const checkout = co ? `${fmt(co.ordersPerSecond, 1)}, ${fmt(co.placeP99)} ${vsFirst(co.placeP99, first?.checkout?.placeP99)}, ${fmt(co.payP99)}${co.errors || !co.stockOk ? ' (ERRORS)' : ''}` : 'failed';
  console.info([fmt(p.size).padStart(10), ...cells, fmt(p.ceilingRps).padStart(14), checkout.padStart(44)].join(''));
}
console.info(`load average at the end: ${loadavg().map((l) => l.toFixed(2)).join(' ')}`);
if (points.some((p) => !p.checkout || !Object.keys(p.search).length)) process.exitCode = 1;
