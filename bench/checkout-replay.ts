/**
 * Checkout against its own SQL (issue 35 item 4): the real checkout (checkout.ts's buyers: add 1-3
 * products to the cart -> POST /api/orders -> PUT /api/orders/{id}/pay {demo: true}, through the
 * real server) and a pgbench replay of the statements that checkout runs, side by side in one run on
 * the same database, with the same number of concurrent buyers, sides alternated, >= 2 rounds each.
 *
 * 1. Capture. The shop is started behind lib/pg-capture.ts (a proxy that records each statement as
 *    sent on the wire, with its parameters and its connection) and one buyer checks out 1, 2 and 3
 *    products (1 unit each), each time waiting for the lead jobs its cart adds wrote. Kept per
 *    checkout: every statement whose parameters name the buyer or an id that the checkout's own
 *    statements named (one step), BEGIN/COMMIT around kept statements on their connection, and the
 *    lead jobs' own work (the lead upsert, the job's outcome update).
 *    Left out: the job runner's polls and claims (periodic schedules, expired leases, the claim),
 *    shared by all the jobs of a round and paced by the clock; so the replayed outcome updates find
 *    no claimed row (a lighter replay than the shop's work: the ratio errs against the shop).
 * 2. Scripts. One pgbench script per line count, the statements in order with their transaction
 *    boundaries. Each `$n` becomes the same value as an expression: the buyer's ids from pgbench's
 *    :client_id (the seeded ids are fixed, lib/checkout-shop.ts benchId), the products from \set
 *    variables (distinct per checkout), every other id (order, lines, jobs, lease) a fresh \set
 *    random id, timestamps now() plus the offset captured; cast to the type PostgreSQL gave the
 *    parameter (pg_prepared_statements), so the plans are the shop's. Run as prepared statements
 *    (-M prepared), as the shop runs them; the three scripts weighted 1:1:1 as the buyers pick 1-3.
 * 3. Rounds. Before each side: stock back to the start, carts emptied, the job queue drained. The
 *    shop: N buyers for D seconds, and until the lead jobs their adds queued are done (orders placed
 *    per second of that time: the replay runs those jobs' statements inline). The replay: pgbench with N clients,
 *    2 threads, D seconds (checkouts per second = its transactions per second; the orders it wrote
 *    are counted as a check). CPU of each side's processes (the shop or pgbench, the PostgreSQL
 *    backends, this process's buyers) per checkout.
 *
 *   node --import tsx bench/checkout-replay.ts [--duration=15] [--buyers=20] [--rounds=2] [--workers=1]
 *   --workers=N: the measured shop as N node:cluster processes (WEB_CONCURRENCY), with Redis
 *   (BENCH_REDIS_URL, default $TEST_REDIS_URL); the capture is always one process.
 *   env: BENCH_DATABASE_URL (default $TEST_DATABASE_URL), local PostgreSQL (CPU from /proc), pgbench on PATH;
 *        BENCH_SHOP_DIR: another copy of server/ to measure (before/after: e.g. `git archive <commit> server | tar -x -C /tmp/base`
 *        and a node_modules link beside it), BENCH_SERVER_NODE_ARGS: extra node flags for the shop.
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { createScratchDatabase } from '../server/src/db/scratch.ts';
import { openDatabase, type Database } from '../server/src/db/client.ts';
import { migrate } from '../server/src/db/migrate.ts';
import { freePort } from '../server/src/test/ports.ts';
import {
  ID_KIND, PRODUCT_COUNT, backendPids, checkoutOnce, newStats, procCpuMs, processTree, runBuyer, seedCheckout, startShop,
  stopShop, waitReady, type Seeded,
} from './lib/checkout-shop.ts';
import { startPgCapture, type CapturedStatement } from './lib/pg-capture.ts';

function arg(name: string, fallback: number): number {
  const raw = process.argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);
  const n = raw === undefined ? fallback : Number(raw);
  if (!Number.isInteger(n) || n <= 0) throw new Error(`--${name} must be a positive whole number (got ${raw})`);
  return n;
}
const DURATION_S = arg('duration', 15);
const BUYERS = arg('buyers', 20);
const ROUNDS = Math.max(2, arg('rounds', 2));
/** The shop as N node:cluster processes (WEB_CONCURRENCY; needs Redis: BENCH_REDIS_URL, default $TEST_REDIS_URL). */
const WORKERS = arg('workers', 1);
const REDIS_URL = WORKERS > 1 ? (process.env.BENCH_REDIS_URL ?? process.env.TEST_REDIS_URL ?? '') : '';
if (WORKERS > 1 && !REDIS_URL) throw new Error('--workers above 1 needs Redis (the shop refuses WEB_CONCURRENCY without it): set BENCH_REDIS_URL');
const BASE_URL = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const JWT_SECRET = randomBytes(32).toString('hex');
const OUT_DIR = path.join(import.meta.dirname, '.tmp/checkout-replay');
/** The products the captured checkouts pick (plentiful ones). */
const CAPTURE_PICKS = [3, 17, 29];

const load = () => loadavg().map((l) => l.toFixed(2)).join(' ');
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};

// ---------------------------------------------------------------------------------------------
// Capture

const TOKEN = /[0-9a-f]{24}/g;
const ISO = /\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z/g;
const tokensOf = (s: CapturedStatement) => (s.params ?? []).flatMap((p) => (p ? p.match(TOKEN) ?? [] : []));
/** The job runner's claim: a select then an update by ids (e81b2ac), or one update (now). */
const isClaim = (s: CapturedStatement) =>
  /^\s*select "id" from "jobs"/.test(s.text) || (/^\s*update "jobs"/.test(s.text) && s.params?.[0] === 'running');

/**
 * The statements of one checkout among everything the proxy saw from `from` on: those naming the
 * buyer or, transitively, an id one of them named, and BEGIN/COMMIT around them on their connection.
 */
function keepCheckout(all: CapturedStatement[], userId: string): CapturedStatement[] {
  // The buyer's statements, then those naming an id one of them named (order, lines, lead jobs):
  // one step only, as a round's lease token also names the periodic jobs claimed with them.
  const own = all.filter((s) => s.params?.includes(userId) || tokensOf(s).includes(userId));
  const known = new Set(own.flatMap(tokensOf));
  // The runner's claim is left out (shared by the up to 5 jobs of a round, and in a replay it would
  // take other clients' jobs): the jobs' outcome updates then find no claimed row, a lighter replay.
  const kept = new Set(all.filter((s) => s.params && !isClaim(s) && tokensOf(s).some((t) => known.has(t))));
  // A transaction's BEGIN and COMMIT (simple queries) go with the kept statements between them.
  const out: CapturedStatement[] = [];
  const open = new Map<number, CapturedStatement[]>();
  for (const s of all) {
    if (s.params === null && /^\s*begin\b/i.test(s.text)) { open.set(s.connection, [s]); continue; }
    // Tokens decide; a statement without parameters outside a transaction is nobody's checkout.
    const tx = open.get(s.connection);
    if (s.params === null && /^\s*(commit|rollback)\b/i.test(s.text)) {
      open.delete(s.connection);
      if (!tx) continue;
      // A transaction all of whose statements are kept is kept whole; otherwise (a poll's) only its kept statements.
      const inner = tx.slice(1);
      if (inner.length && inner.every((x) => kept.has(x))) out.push(...tx, s);
      else out.push(...inner.filter((x) => kept.has(x)));
      continue;
    }
    if (tx) tx.push(s);
    else if (kept.has(s)) out.push(s);
  }
  return out.sort((a, b) => a.at - b.at);
}

async function capture(database: Database, scratchUrl: string, seeded: Seeded): Promise<Array<{ products: string[]; statements: CapturedStatement[] }>> {
  const url = new URL(scratchUrl);
  const proxy = await startPgCapture({ host: url.hostname, port: Number(url.port || 5432) });
  url.host = `127.0.0.1:${proxy.port}`;
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const child = startShop({ dbUrl: url.toString(), port, jwtSecret: JWT_SECRET });
  const buyer = seeded.buyers[0]!;
  const out: Array<{ products: string[]; statements: CapturedStatement[] }> = [];
  try {
    await waitReady(base, child);
    const stats = newStats();
    await checkoutOnce(base, buyer, [seeded.productIds[1]!, seeded.productIds[2]!], stats, () => 1); // warm up
    await drainJobs(database);
    for (let lines = 1; lines <= 3; lines += 1) {
      const products = CAPTURE_PICKS.slice(0, lines).map((i) => seeded.productIds[i]!);
      const from = proxy.statements.length;
      await checkoutOnce(base, buyer, products, stats, () => 1);
      await drainJobs(database);
      out.push({ products, statements: keepCheckout(proxy.statements.slice(from), buyer.userId) });
    }
    if (stats.errors || stats.placed !== 4) throw new Error(`the captured checkouts failed: ${stats.errorSamples.join(' | ')}`);
  } finally {
    await stopShop(child);
    await proxy.close();
  }
  return out;
}

/** Waits until no job is pending or running (the lead jobs of the cart adds), at most `maxMs`. */
async function drainJobs(database: Database, maxMs = 20_000): Promise<void> {
  const deadline = Date.now() + maxMs;
  for (;;) {
    const [row] = await database.query<{ n: number }>(`select count(*)::int as n from jobs where status in ('pending', 'running') and run_at <= now() and dedupe_key not like 'period:%'`);
    if (!row?.n) return;
    if (Date.now() > deadline) throw new Error(`${row.n} jobs still queued after ${maxMs / 1000} s`);
    await sleep(100);
  }
}

// ---------------------------------------------------------------------------------------------
// pgbench scripts

/** A string literal; a colon is written chr(58) (pgbench would read `:name` as a variable). */
const quote = (s: string) => s.split(':').map((part) => `'${part.replace(/'/g, "''")}'`).join(' || chr(58) || ');
/** The text of an instant `ms` milliseconds from now(), as JavaScript's toISOString writes it. */
const isoFromNow = (ms: number) =>
  `replace(to_char((now() + interval '${ms} milliseconds') at time zone 'UTC', 'YYYY-MM-DD"T"HH24"@"MI"@"SS.MS"Z"'), '@', chr(58))`;

/** SQL for a seeded id of the buyer this pgbench client plays (client_id = buyer index). */
const buyerId = (kind: keyof typeof ID_KIND) => `('${ID_KIND[kind]}' || lpad(to_hex(:client_id::int), 23, '0'))`;

function pgbenchScript(
  checkout: { products: string[]; statements: CapturedStatement[] },
  types: Map<string, string[]>,
  seeded: Seeded,
): string {
  const buyer = seeded.buyers[0]!;
  const fixed = new Map<string, string>([
    [buyer.userId, buyerId('user')],
    [`b${buyer.userId.slice(1)}`, buyerId('session')],
    [buyer.addressId, buyerId('address')],
  ]);
  checkout.products.forEach((id, i) => fixed.set(id, `('${ID_KIND.product}' || lpad(to_hex(:p${i}::int), 23, '0'))`));
  const fresh = new Map<string, string>();
  const idExpr = (token: string) => {
    const known = fixed.get(token);
    if (known) return known;
    let v = fresh.get(token);
    if (!v) {
      v = `f${fresh.size}`;
      fresh.set(token, v);
    }
    return `lpad(to_hex(:${v}::bigint), 24, '0')`;
  };
  const lines: string[] = [];
  for (const s of checkout.statements) {
    if (s.params === null) {
      lines.push(`${s.text.trim()};`);
      continue;
    }
    const paramTypes = types.get(s.text) ?? [];
    // How far an instant in the parameters was from when the statement was sent (performance.now() on this clock).
    const offsetMs = (iso: string) => Math.round(Date.parse(iso) - (performance.timeOrigin + s.at));
    const expr = (value: string | null, i: number) => {
      const type = paramTypes[i] ?? 'text';
      if (value === null) return `NULL::${type}`;
      // An ISO timestamp alone: now() plus the offset it had from the statement; within a string: as text.
      if (new RegExp(`^${ISO.source}$`).test(value)) {
        return `(now() + interval '${offsetMs(value)} milliseconds')::${type}`;
      }
      const pieces: string[] = [];
      let last = 0;
      const re = new RegExp(`${TOKEN.source}|${ISO.source}`, 'g');
      for (let m = re.exec(value); m; m = re.exec(value)) {
        if (m.index > last) pieces.push(quote(value.slice(last, m.index)));
        pieces.push(m[0].length === 24 && !m[0].includes('-')
          ? idExpr(m[0])
          : isoFromNow(offsetMs(m[0])));
        last = m.index + m[0].length;
      }
      if (last < value.length || pieces.length === 0) pieces.push(quote(value.slice(last)));
      return `(${pieces.join(' || ')})::${type}`;
    };
    const text = s.text.replace(/\$(\d+)/g, (_, n: string) => expr(s.params![Number(n) - 1] ?? null, Number(n) - 1));
    if (text.includes(';')) throw new Error(`a statement with a semicolon cannot go in a pgbench script: ${text.slice(0, 200)}`);
    lines.push(`${text.trim()};`);
  }
  // Distinct products per checkout, as the buyers pick them: p1 and p2 in two separate halves after p0.
  const n = PRODUCT_COUNT;
  const sets = [
    `\\set p0 random(0, ${n - 1})`,
    `\\set p1 (:p0 + random(1, ${Math.floor((n - 1) / 2)})) % ${n}`,
    `\\set p2 (:p0 + random(${Math.floor((n - 1) / 2) + 1}, ${n - 1})) % ${n}`,
  ].slice(0, checkout.products.length);
  for (const v of fresh.values()) sets.push(`\\set ${v} random(1, 4611686018427387903)`);
  return `-- checkout of ${checkout.products.length} product(s): ${checkout.statements.length} statements, captured from the shop (bench/checkout-replay.ts)\n${sets.join('\n')}\n${lines.join('\n')}\n`;
}

/** The parameter types PostgreSQL infers for each statement text (what the shop's prepared statements have). */
async function parameterTypes(database: Database, statements: CapturedStatement[]): Promise<Map<string, string[]>> {
  const out = new Map<string, string[]>();
  await database.rawTransaction(async (tx) => {
    for (const s of statements) {
      if (s.params === null || out.has(s.text)) continue;
      await tx.exec(`prepare bench_types as ${s.text}`);
      const [row] = await tx.query<{ types: string }>(`select parameter_types::text[]::text as types from pg_prepared_statements where name = 'bench_types'`);
      out.set(s.text, (row?.types ?? '{}').replace(/^\{|\}$/g, '').split(',').filter(Boolean).map((t) => t.replace(/^"|"$/g, ''))
        // "character" alone would be char(1): the shop's parameters are char(n), i.e. bpchar.
        .map((t) => (t === 'character' ? 'bpchar' : t)));
      await tx.exec('deallocate bench_types');
    }
  });
  return out;
}

// ---------------------------------------------------------------------------------------------
// Rounds

/** CPU ms of a changing set of processes: sampled every 200 ms, each process's last reading kept. */
function cpuTracker(pids: () => Promise<number[]>) {
  const first = new Map<number, number>();
  const last = new Map<number, number>();
  const sample = async () => {
    for (const pid of await pids()) {
      const ms = procCpuMs(pid);
      if (!first.has(pid)) first.set(pid, ms);
      if (ms > 0) last.set(pid, ms);
    }
  };
  let timer: NodeJS.Timeout | undefined;
  return {
    async start() { await sample(); timer = setInterval(() => void sample().catch(() => undefined), 200); },
    async stop() {
      clearInterval(timer);
      await sample().catch(() => undefined);
      return [...last].reduce((acc, [pid, ms]) => acc + ms - (first.get(pid) ?? 0), 0);
    },
  };
}

async function resetShop(database: Database, seeded: Seeded) {
  const ids = [...seeded.startStock.keys()];
  await database.query(`update products p set count_in_stock = s.stock from unnest($1::char(24)[], $2::int[]) s(id, stock) where p.id = s.id`, [ids, ids.map((id) => seeded.startStock.get(id)!)]);
  await database.query('delete from cart_items');
  await drainJobs(database);
}

interface Side { perSecond: number; ordersPerSecond: number; cpuMs: { app: number; pg: number; client: number }; checkouts: number; note: string }

async function realSide(database: Database, base: string, shopPid: number, seeded: Seeded): Promise<Side> {
  const stats = newStats();
  const app = cpuTracker(async () => processTree(shopPid));
  const pg = cpuTracker(() => backendPids(database));
  await app.start();
  await pg.start();
  const client0 = process.cpuUsage();
  const started = performance.now();
  const until = Date.now() + DURATION_S * 1000;
  await Promise.all(seeded.buyers.map((b) => runBuyer(base, b, seeded.productIds, until, stats)));
  const window = (performance.now() - started) / 1000;
  const client = process.cpuUsage(client0);
  // The replay runs each checkout's lead jobs inline; the shop runs them in the background. The
  // jobs it has not done when the buyers stop count as its work: the side ends when they are done.
  const [left] = await database.query<{ n: number }>(`select count(*)::int as n from jobs where status in ('pending', 'running') and dedupe_key not like 'period:%'`);
  await drainJobs(database, 120_000);
  const elapsed = (performance.now() - started) / 1000;
  const cpu = { app: await app.stop(), pg: await pg.stop(), client: (client.user + client.system) / 1000 };
  if (stats.errors) throw new Error(`shop errors: ${stats.errorSamples.join(' | ')}`);
  return {
    perSecond: stats.placed / elapsed, ordersPerSecond: stats.placed / elapsed, cpuMs: cpu, checkouts: stats.placed,
    note: `${stats.placed} orders placed and ${stats.paid} paid in ${window.toFixed(1)} s, ${stats.outOfStock} refused out of stock, ${left!.n} jobs left then, done ${(elapsed - window).toFixed(1)} s later`,
  };
}

async function replaySide(database: Database, scratchUrl: string, scripts: string[]): Promise<Side> {
  const url = new URL(scratchUrl);
  const [before] = await database.query<{ n: number }>('select count(*)::int as n from orders');
  const args = [
    '-n', '-M', 'prepared', '-c', String(BUYERS), '-j', '2', '-T', String(DURATION_S),
    '-h', url.hostname, '-p', url.port || '5432', '-U', decodeURIComponent(url.username || 'postgres'),
    ...scripts.flatMap((s) => ['-f', `${s}@1`]), url.pathname.slice(1),
  ];
  const child = spawn('pgbench', args, { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, PGPASSWORD: decodeURIComponent(url.password) } });
  let out = '';
  child.stdout.on('data', (d: Buffer) => { out += d.toString(); });
  child.stderr.on('data', (d: Buffer) => { out += d.toString(); });
  const app = cpuTracker(async () => [child.pid!]);
  const pg = cpuTracker(() => backendPids(database));
  await app.start();
  await pg.start();
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  const cpu = { app: await app.stop(), pg: await pg.stop(), client: 0 };
  const tps = Number(/tps = ([\d.]+) \(without initial connection time\)/.exec(out)?.[1]);
  const done = Number(/number of transactions actually processed: (\d+)/.exec(out)?.[1]);
  const failed = Number(/number of failed transactions: (\d+)/.exec(out)?.[1] ?? 0);
  if (code !== 0 || !Number.isFinite(tps) || failed > 0) throw new Error(`pgbench failed (exit ${code}):\n${out}`);
  const [after] = await database.query<{ n: number }>('select count(*)::int as n from orders');
  const orders = after!.n - before!.n;
  return {
    perSecond: tps, ordersPerSecond: (orders / done) * tps, cpuMs: cpu, checkouts: done,
    note: `${done} checkouts replayed, ${orders} orders written`,
  };
}

const perCheckout = (s: Side) =>
  `CPU per checkout: ${s.cpuMs.client ? `shop ${(s.cpuMs.app / s.checkouts).toFixed(2)} ms + buyers ${(s.cpuMs.client / s.checkouts).toFixed(2)} ms` : `pgbench ${(s.cpuMs.app / s.checkouts).toFixed(2)} ms`}, PostgreSQL ${(s.cpuMs.pg / s.checkouts).toFixed(2)} ms`;

async function main() {
  console.info(`checkout vs its own SQL: ${BUYERS} buyers / pgbench clients, shop as ${WORKERS} process${WORKERS > 1 ? 'es' : ''}, ${ROUNDS} rounds of ${DURATION_S} s per side, PostgreSQL ${new URL(BASE_URL).host}; load average ${load()}`);
  const scratch = await createScratchDatabase(BASE_URL, 'shop_bench');
  let database: Database | undefined;
  let shop: ReturnType<typeof startShop> | undefined;
  try {
    database = await openDatabase({ databaseUrl: scratch.url, poolSize: 3 });
    await migrate(database);
    const seeded = await seedCheckout(database, { buyers: BUYERS, jwtSecret: JWT_SECRET });

    const captured = await capture(database, scratch.url, seeded);
    const types = await parameterTypes(database, captured.flatMap((c) => c.statements));
    mkdirSync(OUT_DIR, { recursive: true });
    const scripts = captured.map((c, i) => {
      const file = path.join(OUT_DIR, `checkout-${i + 1}.sql`);
      writeFileSync(file, pgbenchScript(c, types, seeded));
      return file;
    });
    for (const [i, c] of captured.entries()) {
      console.info(`captured checkout of ${i + 1} product(s): ${c.statements.length} statements (${c.statements.filter((s) => s.params === null).map((s) => s.text.trim().toUpperCase()).join(', ')}), script ${path.relative(process.cwd(), scripts[i]!)}`);
    }

    // The shop runs only during its own rounds (its job runner would otherwise work beside pgbench).
    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    const startWarm = async () => {
      const child = startShop({ dbUrl: scratch.url, port, jwtSecret: JWT_SECRET, workers: WORKERS, redisUrl: REDIS_URL });
      await waitReady(base, child);
      // Warm up (prepared statements, JIT) before a measured round; then back to the start.
      await Promise.all(seeded.buyers.map((b) => runBuyer(base, b, seeded.productIds, Date.now() + 2_000, newStats())));
      await drainJobs(database!, 120_000);
      return child;
    };

    const real: Side[] = [];
    const replay: Side[] = [];
    for (let round = 1; round <= ROUNDS; round += 1) {
      const order = round % 2 ? ['shop', 'replay'] as const : ['replay', 'shop'] as const;
      for (const side of order) {
        if (side === 'shop') shop ??= await startWarm();
        else if (shop) {
          await stopShop(shop);
          shop = undefined;
        }
        await resetShop(database, seeded);
        const result = side === 'shop' ? await realSide(database, base, shop!.pid!, seeded) : await replaySide(database, scratch.url, scripts);
        // The replay's lead jobs: their work (the lead upsert) was replayed inline; what its claims left is put away.
        if (side === 'replay') await database.query(`update jobs set status = 'done', locked_until = null, lease_token = null where kind = 'leads.activity' and status in ('pending', 'running')`);
        (side === 'shop' ? real : replay).push(result);
        console.info(`round ${round} ${side === 'shop' ? 'shop   ' : 'pgbench'} ${result.perSecond.toFixed(1).padStart(7)} checkouts/s  (${result.note}; ${perCheckout(result)}; load ${load()})`);
      }
    }
    const realMedian = median(real.map((r) => r.perSecond));
    const replayMedian = median(replay.map((r) => r.perSecond));
    console.info('');
    console.info(`shop     median ${realMedian.toFixed(1)} orders/s (placed and paid)`);
    console.info(`pgbench  median ${replayMedian.toFixed(1)} checkouts/s (the same statements, no application)`);
    console.info(`ratio    ${(realMedian / replayMedian).toFixed(3)}× of its own SQL (goal >= 0.5); load average ${load()}`);
  } finally {
    if (shop) await stopShop(shop);
    await database?.close();
    await scratch.drop();
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
