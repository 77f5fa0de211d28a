/**
 * Catalogue read benchmark: the real server (buildApp, in a child process) over a generated
 * catalogue, loaded with autocannon from this process, 127.0.0.1 only, for a bounded time.
 *
 * Targets: PostgreSQL with 100,000 products (a scratch database created and dropped here) and
 * in-memory PGlite with 10,000. Scenarios: text search, category + price + sort, a deep page,
 * product by slug; each followed by a static JSON route of the same response size on the same
 * server (the ceiling: what the HTTP stack alone can do on this machine). Prints req/s, p50, p99,
 * non-2xx and the server's RSS.
 *
 *   node --import tsx bench/catalogue.ts [--duration=10] [--connections=20] [--targets=postgres,pglite]
 *        [--pg-products=100000] [--pglite-products=10000]
 *   env: BENCH_DATABASE_URL (default $TEST_DATABASE_URL or postgres://postgres@127.0.0.1:5432/postgres)
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { loadavg, availableParallelism, cpus } from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import pg from 'pg';
import { ADJECTIVES, CATEGORIES, NOUNS } from './catalogue/generate.ts';

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
const BASE_URL = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const WARMUP_SECONDS = 2;

interface Scenario { name: string; target?: string; paths: string[] }
interface Row { name: string; reqs: number; p50: number; p99: number; non2xx: number; errors: number; bytes: number; rssMb: number; ceiling?: number; target?: string }

/** A rotating list of URLs per scenario, so caches see realistic variety rather than one URL. */
function scenarios(products: number, slugs: string[]): Scenario[] {
  const words = [
    'wireless', 'headphones', 'leather wallet', 'smart watch', 'ceramic mug', 'portable speaker', 'tent', 'blender',
    'organic', 'guitar', 'bamboo desk', 'vintage camera', 'ergonomic chair', 'waterproof jacket', 'drone', 'rechargeable',
    ...ADJECTIVES.slice(0, 8).map((a, i) => `${a.toLowerCase()} ${NOUNS[(i * 7) % NOUNS.length]?.toLowerCase()}`),
  ];
  const text = words.flatMap((w) => [1, 2].map((page) => `/api/products/search?query=${encodeURIComponent(w)}&page=${page}`));
  const filter: string[] = [];
  for (const category of CATEGORIES) {
    for (const price of ['1-50', '51-200', '201-1000']) {
      for (const order of ['lowest', 'highest', 'toprated', 'newest']) {
        filter.push(`/api/products/search?category=${encodeURIComponent(category)}&price=${price}&order=${order}`);
      }
    }
  }
  const lastPage = Math.ceil(products / 12);
  const deepFrom = Math.floor(lastPage * 0.4);
  const deep = Array.from({ length: 200 }, (_, i) => `/api/products/search?page=${deepFrom + i}&order=${i % 2 ? 'newest' : 'lowest'}`);
  const bySlug = slugs.map((s) => `/api/products/slug/${s}`);
  return [
    { name: 'text search', target: 'text', paths: text },
    { name: 'category+price+sort', target: 'filter', paths: filter },
    { name: `deep page (~${deepFrom})`, paths: deep },
    { name: 'product by slug', paths: bySlug },
  ];
}

function shuffle<T>(xs: T[]): T[] {
  const a = [...xs];
  for (let i = a.length - 1; i > 0; i -= 1) {
    const j = Math.floor(Math.random() * (i + 1));
    [a[i], a[j]] = [a[j] as T, a[i] as T];
  }
  return a;
}

async function load(port: number, paths: string[], seconds: number): Promise<autocannon.Result> {
  const order = shuffle(paths);
  let next = 0;
  return autocannon({
    url: `http://127.0.0.1:${port}`,
    connections: CONNECTIONS,
    duration: seconds,
    requests: [{ method: 'GET', setupRequest: (req) => ({ ...req, path: order[next++ % order.length] as string }) }],
  });
}

class ServerProcess {
  private rssWaiters = new Map<number, (rss: number) => void>();
  private nextId = 0;
  constructor(private readonly child: ChildProcess) {
    child.on('message', (msg: { type: string; id?: number; rss?: number }) => {
      if (msg.type === 'rss' && msg.id !== undefined) this.rssWaiters.get(msg.id)?.(msg.rss ?? 0);
    });
  }
  static async start(options: { databaseUrl?: string; products: number }): Promise<{ server: ServerProcess; port: number; generateMs: number; slugs: string[] }> {
    const child = spawn(process.execPath, ['--import', 'tsx', path.join(import.meta.dirname, 'catalogue/server.ts')], {
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
      env: { ...process.env, BENCH_SERVER_OPTIONS: JSON.stringify(options) },
    });
    const server = new ServerProcess(child);
    const ready = await new Promise<{ port: number; generateMs: number; samples: { slugs: string[] } }>((resolve, reject) => {
      child.once('exit', (code) => reject(new Error(`bench server exited with ${code}`)));
      child.on('message', (msg: { type: string }) => {
        if (msg.type === 'ready') resolve(msg as never);
      });
    });
    return { server, port: ready.port, generateMs: ready.generateMs, slugs: ready.samples.slugs };
  }
  rss(): Promise<number> {
    const id = this.nextId++;
    return new Promise((resolve) => {
      const timer = setTimeout(() => resolve(0), 2000);
      this.rssWaiters.set(id, (rss) => {
        clearTimeout(timer);
        this.rssWaiters.delete(id);
        resolve(rss);
      });
      this.child.send({ type: 'rss', id });
    });
  }
  setStatic(name: string, body: string) {
    this.child.send({ type: 'static', name, body });
  }
  async stop() {
    if (this.child.exitCode !== null) return;
    const exited = new Promise((r) => this.child.once('exit', r));
    this.child.disconnect();
    const timer = setTimeout(() => this.child.kill('SIGKILL'), 10_000);
    await exited;
    clearTimeout(timer);
  }
}

async function measure(server: ServerProcess, port: number, paths: string[]): Promise<Omit<Row, 'name'>> {
  await load(port, paths, WARMUP_SECONDS);
  let peak = 0;
  const poll = setInterval(() => {
    void server.rss().then((r) => { peak = Math.max(peak, r); });
  }, 250);
  const result = await load(port, paths, DURATION);
  clearInterval(poll);
  peak = Math.max(peak, await server.rss());
  return {
    reqs: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    non2xx: result.non2xx,
    errors: result.errors,
    bytes: result['2xx'] ? result.throughput.total / (result['2xx'] + result.non2xx) : 0,
    rssMb: peak / 1024 / 1024,
  };
}

async function runTarget(kind: 'postgres' | 'pglite'): Promise<{ title: string; rows: Row[] }> {
  let scratch: { url: string; drop: () => Promise<void> } | undefined;
  let server: ServerProcess | undefined;
  const products = kind === 'postgres' ? PG_PRODUCTS : PGLITE_PRODUCTS;
  try {
    if (kind === 'postgres') scratch = await createScratchDb();
    console.info(`\n== ${kind}: generating ${products.toLocaleString('en-US')} products...`);
    const started = await ServerProcess.start({ databaseUrl: scratch?.url, products });
    server = started.server;
    console.info(`   generated in ${(started.generateMs / 1000).toFixed(1)} s; server on 127.0.0.1:${started.port}; ${DURATION} s per scenario, ${CONNECTIONS} connections`);
    const rows: Row[] = [];
    for (const s of scenarios(products, started.slugs)) {
      const row = { name: s.name, target: s.target, ...(await measure(server, started.port, s.paths)) };
      // The ceiling: the same server answering a static JSON body of the same size.
      const sample = await fetch(`http://127.0.0.1:${started.port}${s.paths[0]}`).then((r) => r.text());
      const filler = Math.max(0, Math.round(row.bytes) - sample.length);
      const body = filler > 0 ? `${sample.slice(0, -1)},"pad":"${'x'.repeat(Math.max(0, filler - 9))}"}` : sample.slice(0, Math.max(2, Math.round(row.bytes)));
      server.setStatic('ceiling', body.endsWith('}') ? body : sample);
      const ceiling = await measure(server, started.port, ['/__bench/static/ceiling']);
      row.ceiling = ceiling.reqs;
      rows.push(row);
      printRow(row);
    }
    return { title: `${kind === 'postgres' ? 'PostgreSQL' : 'PGlite'}, ${products.toLocaleString('en-US')} products`, rows };
  } finally {
    await server?.stop();
    await scratch?.drop();
  }
}

async function createScratchDb(): Promise<{ url: string; drop: () => Promise<void> }> {
  const name = `shop_bench_cat_${Date.now().toString(36)}_${randomBytes(3).toString('hex')}`;
  const admin = new pg.Client({ connectionString: BASE_URL });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(BASE_URL);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      const c = new pg.Client({ connectionString: BASE_URL });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await c.end();
    },
  };
}

const fmt = (n: number, digits = 0) => n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });
const HEADER = `   ${'scenario'.padEnd(22)}${'req/s'.padStart(9)}${'p50 ms'.padStart(9)}${'p99 ms'.padStart(9)}${'non-2xx'.padStart(9)}${'KB/resp'.padStart(9)}${'RSS MB'.padStart(9)}${'ceiling'.padStart(10)}${'of ceil.'.padStart(10)}`;
function printRow(r: Row) {
  console.info(
    `   ${r.name.padEnd(22)}${fmt(r.reqs).padStart(9)}${fmt(r.p50, 1).padStart(9)}${fmt(r.p99, 1).padStart(9)}${fmt(r.non2xx + r.errors).padStart(9)}${fmt(r.bytes / 1024, 1).padStart(9)}${fmt(r.rssMb).padStart(9)}${fmt(r.ceiling ?? 0).padStart(10)}${`${fmt(((r.reqs / (r.ceiling || 1)) * 100))}%`.padStart(10)}`,
  );
}

function verdicts(kind: string, rows: Row[]): string[] {
  const out: string[] = [];
  const text = rows.find((r) => r.target === 'text');
  const filter = rows.find((r) => r.target === 'filter');
  if (kind.startsWith('PostgreSQL')) {
    if (text) out.push(`text search >= 2,500 req/s and p99 <= 30 ms: ${text.reqs >= 2500 && text.p99 <= 30 ? 'met' : 'NOT met'} (${fmt(text.reqs)} req/s, p99 ${fmt(text.p99, 1)} ms)`);
    if (filter) out.push(`filter + sort >= 4,000 req/s: ${filter.reqs >= 4000 ? 'met' : 'NOT met'} (${fmt(filter.reqs)} req/s)`);
  } else {
    const worst = Math.max(...rows.map((r) => r.p99));
    out.push(`p99 <= 60 ms in every scenario: ${worst <= 60 ? 'met' : 'NOT met'} (worst p99 ${fmt(worst, 1)} ms)`);
  }
  if (rows.some((r) => r.non2xx + r.errors > 0)) out.push('WARNING: some requests failed (non-2xx or errors)');
  return out;
}

async function main() {
  console.info(`Catalogue benchmark: ${cpus()[0]?.model ?? 'cpu'} x${availableParallelism()}, load average ${loadavg().map((l) => l.toFixed(2)).join(' ')}, Node ${process.version}`);
  console.info(HEADER);
  const results: Array<{ title: string; rows: Row[] }> = [];
  for (const target of TARGETS) {
    if (target !== 'postgres' && target !== 'pglite') throw new Error(`unknown target ${target} (postgres, pglite)`);
    results.push(await runTarget(target));
  }
  console.info('\n== Summary');
  for (const { title, rows } of results) {
    console.info(`\n${title} (${CONNECTIONS} connections, ${DURATION} s per scenario; ceiling = static JSON of the same size on the same server)`);
    console.info(HEADER);
    rows.forEach(printRow);
    for (const v of verdicts(title, rows)) console.info(`   target: ${v}`);
  }
  console.info(`\nload average at the end: ${loadavg().map((l) => l.toFixed(2)).join(' ')} (other work on the machine lowers every figure)`);
}

main().catch((err: unknown) => {
  console.error(err);
  process.exitCode = 1;
});
