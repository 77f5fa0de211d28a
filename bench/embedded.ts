/**
 * The embedded default, as `npm start` runs it: the compiled server (`node server/dist/main.js`) on
 * PGlite in a fresh data directory, with the demo data, the web build and server rendering, in
 * production mode. This script builds nothing: run `npm run build` first.
 *
 * 1. Memory at idle. The shop starts on a fresh data directory (initdb, migrations and the demo seed
 *    run in the start's short-lived child, as on a first `npm start`), then a second time on the same
 *    directory (a restart). After each start a few page views, as a browser makes them: home, a
 *    product, a search and the cart, each page's HTML, its scripts, styles and images, and the API
 *    reads the app makes on it; then `--settle` seconds of quiet (V8 collects what the views left).
 *    Printed: resident set size (VmRSS) then, its split (anonymous / file-backed), the peak (VmHWM),
 *    and from /metrics V8's heap and the external memory (PGlite's WebAssembly memory is in it).
 * 2. Speed, on the second start. The ceiling (lib/ceiling.ts: a bare Fastify route answering a
 *    prepared 12-product JSON page, in its own process) and the shop's uncached API answers, loaded
 *    alike (autocannon, --connections), alternated pair by pair and the order of each pair swapped
 *    every round: search (text queries of the demo catalogue, pages 1-2), list (category listings
 *    in every order, and the plain listing's pages) and one product (by slug, every demo product).
 *    "Uncached": every request carries `Cache-Control: no-cache`, which makes the shop read the
 *    page from the database instead of its few-seconds response cache (products/cached-response.ts);
 *    the URLs rotate as well. What stays cached is what stays cached for every request in
 *    production: a search's result count and matcher choice (10 s), the category list.
 *    Each figure is printed as req/s and as a ratio to the ceiling of its own pair; the verdict is
 *    the median ratio over the rounds.
 *
 * Makes no timing assertions. 127.0.0.1 only. Linux only (/proc).
 *
 *   node --import tsx bench/embedded.ts [--rounds=2] [--seconds=10] [--connections=20] [--settle=20]
 *        [--skip-fresh] [--scenarios=search,list,product]
 *   --rounds=0: the memory figures only.
 *   env: BENCH_SERVER_NODE_ARGS (extra node flags for the shop, e.g. "--max-semi-space-size=2")
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import autocannon from 'autocannon';
import { freePort } from '../server/src/test/ports.ts';
import { CeilingServer, describeCeiling, type Ceiling } from './lib/ceiling.ts';
import { procMb } from './lib/proc-memory.ts';

const root = path.resolve(import.meta.dirname, '..');
const MAIN = path.join(root, 'server/dist/main.js');
const NEEDED = [MAIN, path.join(root, 'web/dist/index.html'), path.join(root, 'web/dist-ssr/entry-server.js')];
const rawArg = (name: string) => process.argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);
function numberArg(name: string, fallback: number, min: number, max: number): number {
  const raw = rawArg(name);
  const n = raw === undefined ? fallback : Number(raw);
  if (!Number.isFinite(n) || n < min || n > max) throw new Error(`--${name} must be a number from ${min} to ${max} (got ${raw})`);
  return n;
}
const ROUNDS = numberArg('rounds', 2, 0, 20);
const SECONDS = numberArg('seconds', 10, 1, 120);
const CONNECTIONS = numberArg('connections', 20, 1, 200);
const SETTLE_S = numberArg('settle', 20, 0, 600);
const SKIP_FRESH = process.argv.includes('--skip-fresh');
const SCENARIO_KEYS = ['search', 'list', 'product'] as const;
type ScenarioKey = (typeof SCENARIO_KEYS)[number];
const SCENARIOS = (rawArg('scenarios') ?? SCENARIO_KEYS.join(',')).split(',') as ScenarioKey[];
for (const s of SCENARIOS) if (!SCENARIO_KEYS.includes(s)) throw new Error(`--scenarios takes ${SCENARIO_KEYS.join(', ')} (got ${s})`);
const NODE_ARGS = (process.env.BENCH_SERVER_NODE_ARGS ?? '').split(/\s+/).filter(Boolean);
const READY_TIMEOUT_MS = 120_000;
const SECRET = randomBytes(32).toString('hex');
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const loadavg = () => readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');

class Shop {
  private constructor(readonly child: ChildProcess, readonly base: string, readonly readyS: number) {}

  static async start(dataDir: string): Promise<Shop> {
    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    const t0 = performance.now();
    const child = spawn(process.execPath, [...NODE_ARGS, MAIN], {
      cwd: path.join(root, 'server'),
      env: {
        ...process.env, NODE_ENV: 'production', HOST: '127.0.0.1', PORT: String(port), PUBLIC_URL: base,
        JWT_SECRET: SECRET, SEED_DEMO_DATA: 'true', ADMIN_EMAIL: 'admin@embedded.local', ADMIN_PASSWORD: 'embedded-password-123',
        LOG_LEVEL: 'error', METRICS_ACCESS: 'public', SHUTDOWN_DRAIN_SECONDS: '0', WEB_CONCURRENCY: '1', REDIS_URL: '',
        DATABASE_URL: '', DATA_DIR: dataDir,
        PAYPAL_CLIENT_ID: '', PAYPAL_CLIENT_SECRET: '', CJ_API_KEY: '', SMTP_URL: '',
      },
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    for (;;) {
      if (child.exitCode !== null || child.signalCode !== null) throw new Error(`the shop exited (${child.exitCode ?? child.signalCode}) before it was ready`);
      if (performance.now() - t0 > READY_TIMEOUT_MS) {
        child.kill('SIGKILL');
        throw new Error(`the shop was not ready after ${READY_TIMEOUT_MS / 1000} s`);
      }
      try {
        if ((await fetch(`${base}/api/ready`, { signal: AbortSignal.timeout(2_000) })).status === 200) break;
      } catch { /* not listening yet */ }
      await sleep(25);
    }
    return new Shop(child, base, (performance.now() - t0) / 1000);
  }

  mb(field: string) {
    return procMb(this.child.pid!, field);
  }

  /** V8 heap used / total and external memory in MB, from the shop's Prometheus metrics. */
  async heap(): Promise<{ used: number; total: number; external: number } | null> {
    try {
      const text = await (await fetch(`${this.base}/metrics`, { signal: AbortSignal.timeout(5_000) })).text();
      const metric = (name: string) => Number(new RegExp(`^${name} (\\S+)`, 'm').exec(text)?.[1] ?? NaN) / 1024 / 1024;
      return { used: metric('nodejs_heap_size_used_bytes'), total: metric('nodejs_heap_size_total_bytes'), external: metric('nodejs_external_memory_bytes') };
    } catch {
      return null;
    }
  }

  async stop(): Promise<void> {
    const child = this.child;
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((r) => child.once('exit', r));
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
    await exited;
    clearTimeout(timer);
  }
}

async function get(url: string, headers: Record<string, string> = {}): Promise<{ status: number; text: string }> {
  const res = await fetch(url, { headers: { 'accept-encoding': 'gzip, br', ...headers }, signal: AbortSignal.timeout(30_000) });
  return { status: res.status, text: await res.text() };
}

/** What the demo catalogue holds, read through the API: every product's slug and the categories. */
async function catalogue(base: string): Promise<{ slugs: string[]; categories: string[] }> {
  const slugs: string[] = [];
  for (let page = 1; ; page += 1) {
    const body = JSON.parse((await get(`${base}/api/products/search?page=${page}`)).text) as { products: Array<{ slug: string }>; pages: number };
    slugs.push(...body.products.map((p) => p.slug));
    if (page >= body.pages) break;
  }
  const categories = JSON.parse((await get(`${base}/api/products/categories`)).text) as string[];
  if (slugs.length === 0 || categories.length === 0) throw new Error('the demo catalogue is empty: was the demo data seeded?');
  return { slugs, categories };
}

/**
 * A few page views as a browser makes them: each page's HTML, then every script, style sheet and
 * image it names (same origin), then the API reads the app makes on that page.
 */
async function pageViews(base: string, slug: string): Promise<number> {
  const pages: Array<{ path: string; api: string[] }> = [
    { path: '/', api: ['/api/products', '/api/products/categories'] },
    { path: `/product/${slug}`, api: [`/api/products/slug/${slug}`] },
    { path: '/search?query=headphones', api: ['/api/products/search?query=headphones&page=1', '/api/products/categories'] },
    { path: '/cart', api: ['/api/products/categories'] },
  ];
  let requests = 0;
  for (const page of pages) {
    const html = await get(`${base}${page.path}`, { accept: 'text/html' });
    if (html.status !== 200) throw new Error(`GET ${page.path}: ${html.status}`);
    const linked = new Set([...html.text.matchAll(/(?:src|href)="(\/(?:assets|uploads)\/[^"]+)"/g)].map((m) => m[1]!));
    for (const url of [...linked, ...page.api]) {
      const res = await get(`${base}${url}`);
      if (res.status !== 200) throw new Error(`GET ${url} (on ${page.path}): ${res.status}`);
    }
    requests += 1 + linked.size + page.api.length;
  }
  return requests;
}

interface Idle { label: string; readyS: number; requests: number; rss: number; anon: number; file: number; peak: number; heap: Awaited<ReturnType<Shop['heap']>> }

async function idleMemory(shop: Shop, label: string, slug: string): Promise<Idle> {
  const requests = await pageViews(shop.base, slug);
  await sleep(SETTLE_S * 1000);
  const idle: Idle = { label, readyS: shop.readyS, requests, rss: shop.mb('VmRSS'), anon: shop.mb('RssAnon'), file: shop.mb('RssFile'), peak: shop.mb('VmHWM'), heap: null };
  idle.heap = await shop.heap(); // after the RSS sample: serving /metrics allocates a little
  return idle;
}

const mb = (n: number) => `${n.toFixed(0)} MB`;
function describeIdle(i: Idle): string {
  const heap = i.heap ? `; V8 heap ${i.heap.used.toFixed(0)}/${i.heap.total.toFixed(0)} MB, external ${i.heap.external.toFixed(0)} MB` : '';
  return `${i.label.padEnd(26)} ready ${i.readyS.toFixed(2).padStart(5)} s | ${i.requests} requests of 4 page views, ${SETTLE_S} s quiet: RSS ${mb(i.rss)} `
    + `(anon ${mb(i.anon)}, file ${mb(i.file)}${heap}), peak ${mb(i.peak)}`;
}

/** The URLs of each scenario, rotated by autocannon's request list. */
function scenarioPaths(key: ScenarioKey, slugs: string[], categories: string[]): string[] {
  if (key === 'search') {
    const words = ['headphones', 'wireless', 'ceramic', 'notebook', 'backpack', 'laptop', 'mystery', 'cotton', 'plant', 'smartphone', 'ball', 'lamp'];
    return words.flatMap((w) => [1, 2].map((page) => `/api/products/search?query=${encodeURIComponent(w)}&page=${page}`));
  }
  if (key === 'list') {
    const orders = ['newest', 'lowest', 'highest', 'toprated'];
    return [
      ...categories.flatMap((c) => orders.map((o) => `/api/products/search?category=${encodeURIComponent(c)}&order=${o}`)),
      ...[1, 2, 3, 4, 5].flatMap((page) => orders.map((o) => `/api/products/search?page=${page}&order=${o}`)),
    ];
  }
  return slugs.map((s) => `/api/products/slug/${encodeURIComponent(s)}`);
}

interface Load { rps: number; p50: number; p99: number; failed: number }
async function load(base: string, paths: string[], seconds: number): Promise<Load> {
  const r = await autocannon({
    url: base,
    connections: CONNECTIONS,
    duration: seconds,
    requests: paths.map((p) => ({ method: 'GET' as const, path: p, headers: { 'cache-control': 'no-cache', 'accept-encoding': 'gzip' } })),
  });
  return { rps: r.requests.average, p50: r.latency.p50, p99: r.latency.p99, failed: r.non2xx + r.errors };
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
};
const fmt = (n: number) => Math.round(n).toLocaleString('en-US');

async function main() {
  const missing = NEEDED.filter((f) => !existsSync(f));
  if (missing.length) {
    console.error(`embedded: ${missing.map((f) => path.relative(root, f)).join(', ')} missing: run \`npm run build\` first (this benchmark builds nothing).`);
    process.exit(1);
  }
  console.info(`embedded: node server/dist/main.js${NODE_ARGS.length ? ` (node ${NODE_ARGS.join(' ')})` : ''}, PGlite, production, demo data; load ${loadavg()}`);
  const dataDir = mkdtempSync(path.join(tmpdir(), 'shop-embedded-'));
  let shop: Shop | undefined;
  let ceiling: CeilingServer | undefined;
  try {
    const idles: Idle[] = [];
    if (!SKIP_FRESH) {
      shop = await Shop.start(dataDir);
      const { slugs } = await catalogue(shop.base);
      idles.push(await idleMemory(shop, 'fresh data dir', slugs[0]!));
      console.info(describeIdle(idles.at(-1)!));
      await shop.stop();
    }
    shop = await Shop.start(dataDir);
    const { slugs, categories } = await catalogue(shop.base);
    idles.push(await idleMemory(shop, SKIP_FRESH ? 'fresh data dir' : 'second start', slugs[0]!));
    console.info(describeIdle(idles.at(-1)!));

    if (ROUNDS === 0) {
      console.info(`\nsummary (load ${loadavg()}):`);
      for (const i of idles) console.info(`  idle RSS, ${i.label}: ${mb(i.rss)} (goal <= 300 MB: ${i.rss <= 300 ? 'met' : 'NOT met'})`);
      return;
    }
    ceiling = await CeilingServer.start();
    const ceilingBase = ceiling.url.replace(/\/ceiling$/, '');
    const ratios = new Map<ScenarioKey, number[]>(SCENARIOS.map((s) => [s, []]));
    const shopRps = new Map<ScenarioKey, number[]>(SCENARIOS.map((s) => [s, []]));
    console.info(`\nuncached API answers (Cache-Control: no-cache) against the ceiling, autocannon ${CONNECTIONS} connections, ${SECONDS} s each after 1 s of warm-up; ${ROUNDS} rounds, the order of each pair swapped every round`);
    for (let round = 1; round <= ROUNDS; round += 1) {
      console.info(`round ${round} (load ${loadavg()})`);
      for (const key of SCENARIOS) {
        const paths = scenarioPaths(key, slugs, categories);
        const sides = [
          async () => {
            await load(ceilingBase, ['/ceiling'], 1);
            return load(ceilingBase, ['/ceiling'], SECONDS);
          },
          async () => {
            await load(shop!.base, paths, 1);
            return load(shop!.base, paths, SECONDS);
          },
        ];
        const order = round % 2 === 1 ? [0, 1] : [1, 0];
        const results: Load[] = [];
        for (const side of order) results[side] = await sides[side]!();
        const [c, s] = results as [Load, Load];
        const ratio = s.rps / c.rps;
        ratios.get(key)!.push(ratio);
        shopRps.get(key)!.push(s.rps);
        const failed = c.failed + s.failed;
        console.info(`  ${key.padEnd(8)} shop ${fmt(s.rps).padStart(6)} req/s (p50 ${s.p50} ms, p99 ${s.p99} ms) | ceiling ${fmt(c.rps).padStart(6)} req/s (p99 ${c.p99} ms) | ${ratio.toFixed(3)} of ceiling${failed ? ` | ${failed} FAILED` : ''}`);
      }
    }
    const after = { rss: shop.mb('VmRSS'), peak: shop.mb('VmHWM') };
    const ceilingOnce: Ceiling = await ceiling.measure({ connections: CONNECTIONS, seconds: 2 });
    console.info(`\n(for reference, the ${describeCeiling(ceilingOnce)})`);
    console.info(`\nsummary (load ${loadavg()}):`);
    for (const i of idles) console.info(`  idle RSS, ${i.label}: ${mb(i.rss)} (goal <= 300 MB: ${i.rss <= 300 ? 'met' : 'NOT met'})`);
    console.info(`  RSS after the load: ${mb(after.rss)}, peak ${mb(after.peak)}`);
    for (const key of SCENARIOS) {
      const r = median(ratios.get(key)!);
      console.info(`  ${key.padEnd(8)} median ${fmt(median(shopRps.get(key)!))} req/s, ${r.toFixed(3)} of the ceiling (rounds: ${ratios.get(key)!.map((x) => x.toFixed(3)).join(', ')}; goal >= 0.15: ${r >= 0.15 ? 'met' : 'NOT met'})`);
    }
  } finally {
    await ceiling?.stop();
    await shop?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

main().then(() => process.exit(process.exitCode ?? 0), (err: unknown) => { console.error(err); process.exit(1); });
