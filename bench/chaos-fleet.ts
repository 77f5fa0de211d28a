/**
 * A killed instance and a database outage in a fleet: 3 instances of the compiled server
 * (server/dist, built if stale) on one PostgreSQL database (reached through a TCP proxy of this
 * process) and one Redis (a redis-server of its own), behind HAProxy with the shipped
 * deploy/haproxy.cfg (checks as shipped: inter 800ms fastinter 200ms fall 2 rise 2). Under browse +
 * search + cart + checkout + chat load through HAProxy:
 *   - fault `kill` (default): it kills one instance with SIGKILL, waits until HAProxy has taken it
 *     out, starts it again and waits until it is back in, then does the same to another instance;
 *   - fault `database`: it closes the proxy to PostgreSQL (every connection reset, new ones refused)
 *     for --database-outage-seconds, then opens it again.
 * Then the load stops and it prints:
 *   - GETs sent and failed (a 5xx or no answer; during the database outage a JSON 503 with
 *     Retry-After, from the shop or HAProxy's errorfile, is the expected answer, counted apart, and
 *     any other answer is a failure): the goal is 0;
 *   - orders the buyers were told about (201) against orders in the database: none missing, none
 *     with another total, and how many the database holds that no buyer was told about (a POST whose
 *     answer was lost with its instance; HAProxy never re-sends a POST that reached an instance, so
 *     none can be a double);
 *   - chat messages sent, acknowledged, stored, and stored twice (resent after a reconnect).
 * Exits 1 when a GET failed or an order is missing, wrong or doubled, or a chat message is lost or
 * stored twice. Not part of `npm test`. 127.0.0.1 only.
 *
 *   node --import tsx bench/chaos-fleet.ts [--seconds-between=8] [--browsers=6] [--buyers=4] [--chatters=6]
 *        [--faults=kill,database] [--database-outage-seconds=4.5]
 *   env: BENCH_DATABASE_URL (default $TEST_DATABASE_URL or postgres://postgres@127.0.0.1:5432/postgres)
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import pg from 'pg';
import { openDatabase } from '../server/src/db/client.ts';
import { migrate } from '../server/src/db/migrate.ts';
import { createScratchDatabase } from '../server/src/db/scratch.ts';
import { addresses, products, users } from '../server/src/db/schema.ts';
import { ACCESS_COOKIE, startSession } from '../server/src/lib/auth.ts';
import { newId } from '../server/src/lib/ids.ts';
import { createTokenSigner } from '../server/src/lib/tokens.ts';
import { resendingChatGuest } from './lib/chat-guest.ts';
import { findHaproxyBinary, readServerStates, renderFleetHaproxyConfig } from '../server/src/ops/haproxy.ts';
import { freePortRange } from '../server/src/test/ports.ts';
import { startRedisServer } from '../server/src/test/redis-server.ts';
import { startTcpProxy } from '../server/src/test/tcp-proxy.ts';

const root = path.resolve(import.meta.dirname, '..');
function arg(name: string, fallback: number, max: number): number {
  const raw = process.argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);
  const n = raw === undefined ? fallback : Number(raw);
  if (!Number.isInteger(n) || n < 1 || n > max) throw new Error(`--${name} must be a whole number from 1 to ${max} (got ${raw})`);
  return n;
}
const BETWEEN_S = arg('seconds-between', 8, 600);
const FAULTS = (process.argv.find((a) => a.startsWith('--faults='))?.slice('--faults='.length) ?? 'kill').split(',');
if (FAULTS.some((f) => f !== 'kill' && f !== 'database')) throw new Error('--faults is a list of kill and database');
const OUTAGE_S = Number(process.argv.find((a) => a.startsWith('--database-outage-seconds='))?.slice('--database-outage-seconds='.length) ?? 4.5);
if (!(OUTAGE_S > 0 && OUTAGE_S <= 600)) throw new Error('--database-outage-seconds must be a number of seconds from 0 to 600');
const BROWSERS = arg('browsers', 6, 200);
const BUYERS = arg('buyers', 4, 100);
const CHATTERS = arg('chatters', 6, 200);
const INSTANCES = 3;
const CHECK_INTERVAL_MS = 800; // as shipped in deploy/haproxy.cfg
const BASE_URL = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const SECRET = randomBytes(32).toString('hex');
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const say = (line: string) => console.info(`  ${line}`);

interface Buyer { cookie: string; addressId: string }

async function seed(url: string) {
  const database = await openDatabase({ databaseUrl: url, poolSize: 2 });
  try {
    await migrate(database);
    const rows = Array.from({ length: 30 }, (_, i) => ({
      id: newId(), name: `Fleet ${['Lamp', 'Mug', 'Chair', 'Candle', 'Rug'][i % 5]} ${i}`, slug: `fleet-product-${i}`,
      price: Math.round((5 + (i * 7.31) % 200) * 100) / 100, image: `/images/fleet-${i}.jpg`, category: `Category ${i % 4}`,
      brand: 'Fleet', description: 'A product for the killed-instance run', countInStock: 1_000_000,
    }));
    await database.db.insert(products).values(rows);
    const signer = createTokenSigner(SECRET, 3600);
    const buyers: Buyer[] = [];
    for (let i = 0; i < BUYERS; i += 1) {
      const id = newId();
      await database.db.insert(users).values({ id, name: `Buyer ${i}`, email: `buyer${i}@fleet.local`, passwordHash: 'not-used' });
      const session = await startSession(database.db, { signer, refreshTokenTtlDays: 1 }, id);
      const addressId = newId();
      await database.db.insert(addresses).values({ id: addressId, userId: id, fullName: `Buyer ${i}`, address: `${i} Fleet Road`, city: 'Kill', postalCode: '99999', country: 'USA', isDefault: true });
      buyers.push({ cookie: `${ACCESS_COOKIE}=${session.accessToken}`, addressId });
    }
    return { buyers, productIds: rows.map((r) => r.id) };
  } finally {
    await database.close();
  }
}

class Instance {
  child: ChildProcess | undefined;
  constructor(readonly name: string, readonly port: number, private readonly env: Record<string, string>) {}
  async start(): Promise<number> {
    const t0 = performance.now();
    const child = spawn(process.execPath, ['dist/main.js'], {
      cwd: path.join(root, 'server'), env: { ...process.env, ...this.env, PORT: String(this.port) }, stdio: ['ignore', 'ignore', 'inherit'],
    });
    this.child = child;
    const deadline = Date.now() + 90_000;
    while (Date.now() < deadline) {
      if (child.exitCode !== null) throw new Error(`${this.name} exited with ${child.exitCode}`);
      try {
        if ((await fetch(`http://127.0.0.1:${this.port}/api/ready`)).ok) return performance.now() - t0;
      } catch { /* starting */ }
      await sleep(100);
    }
    throw new Error(`${this.name} did not become ready within 90 s`);
  }
  async kill(signal: NodeJS.Signals): Promise<void> {
    const child = this.child;
    if (!child || child.exitCode !== null) return;
    const exited = new Promise((r) => child.once('exit', r));
    child.kill(signal);
    await exited;
  }
}

interface Tally {
  gets: number; getFailures: string[];
  posts: number; postFailures: number;
  placed: Map<string, number>; // order id → total the buyer was told
  chatSent: number; chatResent: number; chatAcked: Map<string, string>;
  /** Answers to requests that started or ended while the database was cut off (or within Retry-After of its return). */
  outage: { answers: number; ok: number; shop503: number; haproxy503: number; other: string[] };
}

/** Whether the database counts as away for a request: set from the cut until Retry-After after it returns. */
const database = { away: false };

interface Answer { status: number; json: Record<string, unknown> | null; type: string; retryAfter: string | null; text: string }

async function fetchStatus(url: string, init: RequestInit = {}): Promise<Answer> {
  try {
    const res = await fetch(url, { ...init, signal: AbortSignal.timeout(15_000) });
    const text = await res.text();
    let json: Record<string, unknown> | null = null;
    try { json = JSON.parse(text) as Record<string, unknown>; } catch { /* not JSON (HAProxy's HTML page, ...) */ }
    return { status: res.status, json, type: res.headers.get('content-type') ?? '', retryAfter: res.headers.get('retry-after'), text };
  } catch (err) {
    return { status: 0, json: { error: String(err) }, type: '', retryAfter: null, text: String(err) };
  }
}

/**
 * Sends a request and tallies its answer. While the database is away, the answers expected are a
 * success (anything below 500) or a JSON 503 with Retry-After, from the shop (DATABASE_UNAVAILABLE)
 * or HAProxy's errorfile (UNAVAILABLE); anything else is a failure. Returns the answer and whether it
 * counted as an outage answer.
 */
async function send(t: Tally, url: string, init: RequestInit = {}): Promise<{ r: Answer; duringOutage: boolean; failed: boolean }> {
  const awayAtStart = database.away;
  const r = await fetchStatus(url, init);
  const duringOutage = awayAtStart || database.away;
  if (!duringOutage) return { r, duringOutage, failed: r.status === 0 || r.status >= 500 };
  t.outage.answers += 1;
  const json503 = r.status === 503 && r.type.startsWith('application/json') && r.retryAfter !== null;
  if (r.status !== 0 && r.status < 500) t.outage.ok += 1;
  else if (json503 && r.json?.code === 'DATABASE_UNAVAILABLE') t.outage.shop503 += 1;
  else if (json503 && r.json?.code === 'UNAVAILABLE') t.outage.haproxy503 += 1;
  else {
    t.outage.other.push(`${init.method ?? 'GET'} ${new URL(url).pathname} → ${r.status} ${r.type} ${r.text.replace(/\s+/g, ' ').slice(0, 80)}`);
    return { r, duringOutage, failed: true };
  }
  return { r, duringOutage, failed: false };
}

async function browserLoop(base: string, productIds: string[], running: () => boolean, t: Tally) {
  const words = ['lamp', 'mug', 'chair', 'candle', 'rug'];
  while (running()) {
    const pick = Math.random();
    const url = pick < 0.35 ? `/api/products?pageNumber=${1 + Math.floor(Math.random() * 3)}`
      : pick < 0.7 ? `/api/products?keyword=${words[Math.floor(Math.random() * words.length)]}`
        : `/api/products/${productIds[Math.floor(Math.random() * productIds.length)]}`;
    const { r, failed } = await send(t, `${base}${url}`);
    t.gets += 1;
    if (failed) t.getFailures.push(`GET ${url} → ${r.status || JSON.stringify(r.json)}`);
    await sleep(20 + Math.random() * 40);
  }
}

async function buyerLoop(base: string, buyer: Buyer, productIds: string[], running: () => boolean, t: Tally) {
  const headers = { cookie: buyer.cookie, 'content-type': 'application/json' };
  const call = async (method: string, url: string, body?: unknown) => {
    const { r, failed } = await send(t, `${base}${url}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
    if (method === 'GET') {
      t.gets += 1;
      if (failed) t.getFailures.push(`GET ${url} → ${r.status}`);
    } else {
      t.posts += 1;
      if (failed) t.postFailures += 1;
    }
    return r;
  };
  while (running()) {
    const productId = productIds[Math.floor(Math.random() * productIds.length)]!;
    const added = await call('POST', '/api/cart/items', { productId, quantity: 1 });
    if (added.status !== 200) { await sleep(200); continue; }
    await call('GET', '/api/cart');
    const placed = await call('POST', '/api/orders', { addressId: buyer.addressId, paymentMethod: 'PayPal' });
    if (placed.status === 201) t.placed.set(String(placed.json?._id), Number(placed.json?.totalPrice));
    else await call('DELETE', '/api/cart');
    await sleep(100 + Math.random() * 200);
  }
}

/** A guest chatting through HAProxy: after a reconnect (its instance killed), unacknowledged messages are resent. */
function chatterLoop(wsBase: string, running: () => boolean, t: Tally) {
  return resendingChatGuest({ wsUrl: `${wsBase}/ws/chat`, secret: SECRET, name: 'Fleet Guest', email: 'guest@fleet.local', idPrefix: 'fleet', pauseMs: 300, running, tally: t });
}

async function waitForState(statsSocket: string, server: string, want: 'UP' | 'DOWN', timeoutMs = 60_000): Promise<number> {
  const t0 = performance.now();
  while (performance.now() - t0 < timeoutMs) {
    const states = await readServerStates(statsSocket).catch(() => ({} as Record<string, { status: string }>));
    if (states[server]?.status === want) return performance.now() - t0;
    await sleep(50);
  }
  throw new Error(`${server} not ${want} within ${timeoutMs / 1000} s`);
}

async function main() {
  const haproxyBin = findHaproxyBinary();
  if (!haproxyBin) throw new Error('HAProxy is not installed (Debian: apt-get install haproxy)');
  const built = spawnSync(process.execPath, [path.join(root, 'scripts/build-server.mjs'), '--if-stale'], { stdio: 'inherit' });
  if (built.status !== 0) throw new Error('the server build failed');
  const plan = [
    ...(FAULTS.includes('kill') ? ['kill -9 of one, restart, kill -9 of another'] : []),
    ...(FAULTS.includes('database') ? [`PostgreSQL cut off for ${OUTAGE_S} s`] : []),
  ];
  console.info(`chaos-fleet: ${INSTANCES} instances behind HAProxy, ${plan.join('; then ')}; ${BROWSERS} browsers, ${BUYERS} buyers, ${CHATTERS} chat guests; PostgreSQL at ${new URL(BASE_URL).host}`);
  const scratch = await createScratchDatabase(BASE_URL, 'shop_bench_fleet');
  // The instances reach PostgreSQL through this proxy, which the database fault closes and reopens.
  const target = new URL(scratch.url);
  const proxy = await startTcpProxy({ host: target.hostname, port: Number(target.port || 5432) });
  const viaProxy = new URL(scratch.url);
  viaProxy.hostname = '127.0.0.1';
  viaProxy.port = String(proxy.port);
  const redis = await startRedisServer();
  const dir = mkdtempSync(path.join(tmpdir(), 'shop-chaos-fleet-'));
  const port = await freePortRange(INSTANCES + 1);
  const base = `http://127.0.0.1:${port}`;
  const statsSocket = path.join(dir, 'haproxy.sock');
  const instances = Array.from({ length: INSTANCES }, (_, i) => new Instance(`app${i + 1}`, port + 1 + i, {
    NODE_ENV: 'production', HOST: '127.0.0.1', PUBLIC_URL: base, DATABASE_URL: viaProxy.toString(), DATABASE_POOL_SIZE: '5', REDIS_URL: redis.url,
    JWT_SECRET: SECRET, SEED_DEMO_DATA: 'false', ALLOW_DEMO_PAYMENTS: 'true', PAYPAL_CLIENT_ID: '', PAYPAL_CLIENT_SECRET: '', CJ_API_KEY: '',
    LOG_LEVEL: 'error', DATA_DIR: path.join(dir, `app${i + 1}`), WEB_DIST_DIR: path.join(dir, 'no-web'), SHUTDOWN_DRAIN_SECONDS: '0',
    TRUST_PROXY: 'true', CHAT_SOCKETS_PER_IP: '1000', CHAT_MESSAGES_PER_MINUTE: '100000', CHAT_IP_MESSAGES_PER_MINUTE: '1000000',
    CHAT_AI_REQUESTS_PER_MINUTE: '1000000', AUTH_RATE_LIMIT_MAX: '100000', WEB_CONCURRENCY: '1', SUPPLIER_REFRESH_HOURS: '0',
  }));
  let haproxy: ChildProcess | undefined;
  let stop = false;
  try {
    const { buyers, productIds } = await seed(scratch.url);
    await Promise.all(instances.map((i) => i.start()));
    const cfg = renderFleetHaproxyConfig({ port, statsSocket, checkIntervalMs: CHECK_INTERVAL_MS, servers: instances.map((i) => ({ name: i.name, port: i.port })) });
    writeFileSync(path.join(dir, 'haproxy.cfg'), cfg);
    haproxy = spawn(haproxyBin, ['-db', '-f', path.join(dir, 'haproxy.cfg')], { stdio: ['ignore', 'ignore', 'inherit'] });
    for (const i of instances) await waitForState(statsSocket, i.name, 'UP');

    const t: Tally = {
      gets: 0, getFailures: [], posts: 0, postFailures: 0, placed: new Map(), chatSent: 0, chatResent: 0, chatAcked: new Map(),
      outage: { answers: 0, ok: 0, shop503: 0, haproxy503: 0, other: [] },
    };
    const running = () => !stop;
    const load: Array<Promise<unknown>> = [
      ...Array.from({ length: BROWSERS }, () => browserLoop(base, productIds, running, t)),
      ...buyers.map((b) => buyerLoop(base, b, productIds, running, t)),
    ];
    const chatters = Array.from({ length: CHATTERS }, () => chatterLoop(base.replace(/^http/, 'ws'), running, t));
    const figures: string[] = [];
    for (const victim of FAULTS.includes('kill') ? [instances[0]!, instances[1]!] : []) {
      await sleep(BETWEEN_S * 1000);
      const gets = t.gets;
      await victim.kill('SIGKILL');
      const downMs = await waitForState(statsSocket, victim.name, 'DOWN');
      const restartMs = await victim.start();
      const upMs = await waitForState(statsSocket, victim.name, 'UP');
      const line = `kill -9 ${victim.name}: out of HAProxy's rotation after ${(downMs / 1000).toFixed(2)} s; restarted and ready in ${(restartMs / 1000).toFixed(1)} s, back in rotation ${(upMs / 1000).toFixed(1)} s later; ${t.gets - gets} GETs meanwhile`;
      say(line);
      figures.push(line);
    }
    if (FAULTS.includes('database')) {
      await sleep(BETWEEN_S * 1000);
      const seen = new Set<string>();
      let watching = true;
      const watcher = (async () => {
        while (watching) {
          for (const [name, state] of Object.entries(await readServerStates(statsSocket).catch(() => ({} as Record<string, { status: string }>)))) seen.add(`${name} ${state.status}`);
          await sleep(100);
        }
      })();
      database.away = true;
      await proxy.close();
      await sleep(OUTAGE_S * 1000);
      await proxy.open();
      // Answers within Retry-After (5 s) of the return still count as the outage's (the pools reconnect).
      await sleep(5000);
      database.away = false;
      watching = false;
      await watcher;
      const o = t.outage;
      const line = `PostgreSQL cut off for ${OUTAGE_S} s (then 5 s to recover): ${o.answers} answers: ${o.ok} successes, ${o.shop503} JSON 503 + Retry-After from the shop, ` +
        `${o.haproxy503} from HAProxy's errorfile, ${o.other.length} other${o.other.length ? ` (${o.other.slice(0, 3).join(' | ')})` : ''}; HAProxy states seen: ${[...seen].sort().join(', ')}`;
      say(line);
      figures.push(line);
    }
    await sleep(BETWEEN_S * 1000);
    stop = true;
    await Promise.all(load);
    const unconfirmed = (await Promise.all(chatters)).reduce((a, b) => a + b, 0);

    const client = new pg.Client({ connectionString: scratch.url });
    await client.connect();
    const q = async <T extends Record<string, unknown>>(text: string, values: unknown[] = []) => (await client.query<T>(text, values)).rows;
    const inDb = new Map((await q<{ id: string; total: string }>('SELECT id, total_price AS total FROM orders')).map((r) => [r.id.trim(), Number(r.total)]));
    const told = [...t.placed];
    const missing = told.filter(([id]) => !inDb.has(id)).length;
    const wrongTotal = told.filter(([id, total]) => inDb.has(id) && inDb.get(id) !== total).length;
    const untold = [...inDb.keys()].filter((id) => !t.placed.has(id)).length;
    const ackedIds = [...t.chatAcked.values()];
    const stored = new Set((await q<{ id: string }>('SELECT id FROM chat_messages WHERE id = ANY($1)', [ackedIds])).map((r) => r.id.trim()));
    const ackedMissing = ackedIds.filter((id) => !stored.has(id)).length;
    const storedTwice = Number((await q<{ n: string }>('SELECT count(*) AS n FROM (SELECT 1 FROM chat_messages WHERE client_id IS NOT NULL GROUP BY sender_id, client_id HAVING count(*) > 1) d'))[0]?.n ?? 0);
    const userRows = Number((await q<{ n: string }>(`SELECT count(*) AS n FROM chat_messages WHERE sender = 'user'`))[0]?.n ?? 0);
    await client.end();

    console.info('');
    for (const line of figures) console.info(line);
    console.info(`GETs                     ${t.gets} sent, ${t.getFailures.length} failed (5xx or no answer; while the database was away, anything but a JSON 503 with Retry-After)${t.getFailures.length ? `: ${t.getFailures.slice(0, 3).join(' | ')}` : ''}`);
    console.info(`POSTs/DELETEs            ${t.posts} sent, ${t.postFailures} without an answer or 5xx (an instance killed holding them; not retried by design; while the database was away, anything but a JSON 503 with Retry-After)`);
    console.info(`orders                   ${t.placed.size} placed (201), ${inDb.size} in the database; told but missing ${missing}, another total ${wrongTotal}, in the database but the answer lost ${untold}`);
    console.info(`chat                     ${t.chatSent} sent, ${t.chatAcked.size} acknowledged once, ${t.chatResent} resent after reconnects, ${userRows} stored; acknowledged but missing ${ackedMissing}; stored twice ${storedTwice}; never acknowledged at the end ${unconfirmed}`);
    // GETs are in getFailures already; a POST answered otherwise than by the JSON 503 while the database was away fails too.
    const failed = t.getFailures.length + t.outage.other.filter((l) => !l.startsWith('GET ')).length + missing + wrongTotal + ackedMissing + storedTwice;
    console.info(`result: ${failed === 0 ? 'OK' : `FAILED (${failed} problems)`}`);
    if (failed) process.exitCode = 1;
  } finally {
    stop = true;
    if (haproxy && haproxy.exitCode === null) haproxy.kill('SIGTERM');
    for (const i of instances) await i.kill('SIGKILL');
    await proxy.close();
    await redis.stop();
    await scratch.drop();
    rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
