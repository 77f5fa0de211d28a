/**
 * Machine-independent cost of the catalogue routes (issue 12): the real app (buildApp) over a
 * generated catalogue, each scenario's URLs sent one at a time with `Cache-Control: no-cache`
 * (app.inject, no sockets, no load generator, no queueing), reporting per request:
 *   - SQL statements sent,
 *   - CPU time of this process (the server's JavaScript, and PGlite's wasm when on PGlite),
 *   - CPU time of the PostgreSQL backend serving the one pooled connection (read from
 *     /proc/<pid>/stat, so only when PostgreSQL runs on this machine),
 *   - wall time.
 * CPU time barely moves with other work on the machine, unlike req/s and p99.
 *
 *   node --import tsx bench/catalogue/cpu-per-request.ts [--products=100000] [--rounds=20]
 *        [--scenarios=text,typo,filter,deep,slug,home,session,ssr-home,ssr-search,ssr-product] [--pglite] [--unprepared]
 *        [--ssr] [--split]
 *   --unprepared: parameterised queries are not kept as prepared statements (openDatabase option).
 *   --ssr: also the server-rendered storefront pages (home, search, product) as HTML, uncached: needs
 *     the web build with its server bundle (`npm run build -w web`: web/dist and web/dist-ssr).
 *   --split: one more round per scenario under the V8 profiler, printing where the Node CPU went
 *     (routing, database driver, query building, validation + serialisation, rendering, ...).
 *   --profile-dir=DIR (with --split): also writes that round's V8 profile as DIR/<scenario>.cpuprofile
 *     (open it in Chrome DevTools), to see the functions behind the split.
 *   --split-rounds=N: the profiled rounds per scenario (default 1; more samples for one-URL scenarios).
 * The first row is the floor: a bare Fastify route answering a prepared 6 KB JSON body, through the
 * same app.inject, in the same process and run.
 *   env: BENCH_DATABASE_URL (a scratch database is created and dropped there), unless --pglite.
 */
import { readFileSync, mkdtempSync, mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { buildApp } from '../../server/src/app.ts';
import { loadConfig } from '../../server/src/config.ts';
import { openDatabase } from '../../server/src/db/client.ts';
import { migrate } from '../../server/src/db/migrate.ts';
import { createScratchDatabase } from '../../server/src/db/scratch.ts';
import Fastify from 'fastify';
import { existsSync } from 'node:fs';
import { formatSplit, profileSplit } from '../lib/cpu-split.ts';
import { generateProducts } from './generate.ts';
import { catalogueScenarios, ssrScenarios } from './scenarios.ts';

const flag = (name: string) => process.argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);
const PGLITE = process.argv.includes('--pglite');
const PRODUCTS = Number(flag('products') ?? (PGLITE ? 10_000 : 100_000));
const ROUNDS = Number(flag('rounds') ?? 20);
const UNPREPARED = process.argv.includes('--unprepared');
const PICK = flag('scenarios')?.split(',');
const SSR = process.argv.includes('--ssr');
const SPLIT = process.argv.includes('--split');
const PROFILE_DIR = flag('profile-dir');
const SPLIT_ROUNDS = Number(flag('split-rounds') ?? 1);
const WEB_DIST = path.resolve(import.meta.dirname, '../../web/dist');

/** utime + stime of a process, in ms (clock ticks of 10 ms). */
function procCpuMs(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
  return (Number(fields[11]) + Number(fields[12])) * 10;
}
const selfCpuMs = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};

async function main() {
  if (SSR && !existsSync(path.join(`${WEB_DIST}-ssr`, 'entry-server.js'))) throw new Error('--ssr needs the web build: npm run build -w web');
  const baseUrl = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
  const scratch = PGLITE ? undefined : await createScratchDatabase(baseUrl, 'shop_bench_cpu');
  const dataDir = mkdtempSync(path.join(tmpdir(), 'shop-cpu-'));
  const config = loadConfig({
    NODE_ENV: 'production', PUBLIC_URL: 'http://127.0.0.1', JWT_SECRET: 'bench-secret-bench-secret-bench-secret-0001',
    DATA_DIR: dataDir, SEED_DEMO_DATA: 'false', LOG_LEVEL: 'warn', WEB_DIST_DIR: SSR ? WEB_DIST : path.join(dataDir, 'no-web'),
    ...(scratch ? { DATABASE_URL: scratch.url } : {}),
  });
  const database = await openDatabase({ databaseUrl: config.databaseUrl, pgliteDir: 'memory://', poolSize: 1, preparedStatements: !UNPREPARED });
  try {
    await migrate(database);
    await generateProducts(database, PRODUCTS);
    const slugs = (await database.query<{ slug: string }>(`SELECT slug FROM products ORDER BY id LIMIT 1000 OFFSET ${Math.floor(PRODUCTS / 3)}`)).map((r) => r.slug);
    const backend = database.kind === 'postgres' ? Number((await database.query<{ pid: number }>('select pg_backend_pid() as pid'))[0]?.pid) : 0;
    let statements = 0;
    const client = (database.db as unknown as { $client: { query: (...a: unknown[]) => unknown } }).$client;
    const original = client.query.bind(client);
    client.query = (...args: unknown[]) => {
      statements += 1;
      return original(...args);
    };
    const app = await buildApp({ config, database });
    console.info(`${database.kind}, ${PRODUCTS.toLocaleString('en-US')} products, ${ROUNDS} rounds per scenario, one request at a time (no-cache)${UNPREPARED ? ', unprepared' : ''}`);
    console.info(`${'scenario'.padEnd(30)}${'requests'.padStart(9)}${'stmts/req'.padStart(11)}${'node CPU ms'.padStart(13)}${'PG CPU ms'.padStart(11)}${'wall ms'.padStart(9)}`);
    // The floor: a bare Fastify route with a prepared body of a search page's size, same inject.
    const bare = Fastify({ logger: false });
    const bareBody = JSON.stringify({ products: Array.from({ length: 12 }, (_, i) => ({ i, name: `Product ${i}`, description: 'x'.repeat(400) })) });
    bare.get('/bare', async (_request, reply) => reply.type('application/json; charset=utf-8').send(bareBody));
    await bare.ready();
    const scenarios = [
      { name: 'bare Fastify route (floor)', key: 'bare', paths: ['/bare'], app: bare, html: false },
      ...catalogueScenarios(PRODUCTS, slugs).map((sc) => ({ ...sc, app, html: false })),
      { name: 'home grid (GET /api/products)', key: 'home', paths: ['/api/products'], app, html: false },
      // What every anonymous page asked once it had loaded, until the page said its request had no session cookie.
      { name: 'who is signed in, anonymous', key: 'session', paths: ['/api/users/current'], app, html: false },
      ...(SSR ? ssrScenarios(slugs).map((sc) => ({ ...sc, app, html: true })) : []),
    ];
    for (const s of scenarios) {
      if (PICK && !PICK.includes(s.key) && s.key !== 'bare') continue;
      const paths = s.paths.slice(0, 200);
      const send = (url: string) => s.app.inject({ method: 'GET', url, headers: { 'cache-control': 'no-cache', ...(s.html ? { accept: 'text/html' } : {}) } });
      // Warm-up round: counts and checkpoints are cached for seconds, as in the benchmark.
      for (const url of paths) await send(url);
      // Per round: counts and checkpoints expire every few seconds and are recomputed inside some
      // rounds; "steady" averages the rounds that sent no more statements than the fewest seen.
      const rounds: Array<{ stmts: number; cpu: number; pg: number; wall: number }> = [];
      for (let r = 0; r < ROUNDS; r += 1) {
        statements = 0;
        const cpu0 = selfCpuMs();
        const pg0 = backend ? procCpuMs(backend) : 0;
        const t0 = performance.now();
        for (const url of paths) {
          const res = await send(url);
          if (res.statusCode !== 200) throw new Error(`${url}: ${res.statusCode}`);
          // A server-rendered page, not the client shell it falls back to.
          if (s.html && !res.body.includes('id="ssr-data"')) throw new Error(`${url}: not server-rendered`);
        }
        rounds.push({ stmts: statements, cpu: selfCpuMs() - cpu0, pg: backend ? procCpuMs(backend) - pg0 : NaN, wall: performance.now() - t0 });
      }
      const fewest = Math.min(...rounds.map((r) => r.stmts));
      const report = (label: string, rs: typeof rounds) => {
        const n = rs.length * paths.length;
        const sum = (k: 'stmts' | 'cpu' | 'pg' | 'wall') => rs.reduce((a, r) => a + r[k], 0) / n;
        console.info(`${label.padEnd(30)}${String(n).padStart(9)}${sum('stmts').toFixed(2).padStart(11)}${sum('cpu').toFixed(3).padStart(13)}${sum('pg').toFixed(3).padStart(11)}${sum('wall').toFixed(3).padStart(9)}`);
      };
      report(s.name, rounds);
      report(`  steady (${rounds.filter((r) => r.stmts === fewest).length} rounds)`, rounds.filter((r) => r.stmts === fewest));
      if (SPLIT) {
        const { split, totalMs, profile } = await profileSplit(async () => { for (let r = 0; r < SPLIT_ROUNDS; r += 1) for (const url of paths) await send(url); });
        if (PROFILE_DIR) {
          mkdirSync(PROFILE_DIR, { recursive: true });
          writeFileSync(path.join(PROFILE_DIR, `${s.key}.cpuprofile`), JSON.stringify(profile));
        }
        console.info(`  where the node CPU went: ${formatSplit(split, totalMs)}`);
      }
    }
    await bare.close();
    await app.close();
  } finally {
    await database.close();
    await scratch?.drop();
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exitCode = 1;
});
