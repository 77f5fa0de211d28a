/**
 * Soak: mixed traffic for a long time (default 10 minutes) on two instances of the compiled server
 * (server/dist, built if stale) sharing one scratch PostgreSQL database and one Redis, like a small
 * fleet: shoppers browse the home grid, search, open products, fill carts and check out (demo
 * payment); guests chat over WebSockets (the built-in assistant answers); an administrator opens
 * the back-office lists and the dashboard. Requests alternate between the two instances.
 *
 * Prints: errors (goal 0: anything but the expected statuses, or a network error), p50/p99 per
 * route, and each instance's RSS: first and last sample and the slope after the warm-up (least
 * squares over samples every 5 s; goal flat, < 1 MB/min). Exits 1 on errors. 127.0.0.1 only.
 * To tell a leak from a heap that is still growing to its working size, it also prints the slope of
 * V8's live heap after the warm-up (heap used, lowest per minute, i.e. after a collection; read
 * from each instance's /metrics every 5 s) and of its external memory.
 *
 *   node --import tsx bench/soak.ts [--minutes=10] [--shoppers=8] [--chatters=10]
 *   env: BENCH_DATABASE_URL (default $TEST_DATABASE_URL or postgres://postgres@127.0.0.1:5432/postgres),
 *        BENCH_REDIS_URL (default $TEST_REDIS_URL or redis://127.0.0.1:6379/9; its chat:* keys are cleared),
 *        BENCH_SERVER_NODE_ARGS (extra node flags for the two servers, e.g. "--max-semi-space-size=4")
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { Redis } from 'ioredis';
import WebSocket from 'ws';
import { openDatabase } from '../server/src/db/client.ts';
import { migrate } from '../server/src/db/migrate.ts';
import { createScratchDatabase } from '../server/src/db/scratch.ts';
import { addresses, users } from '../server/src/db/schema.ts';
import { ACCESS_COOKIE, startSession } from '../server/src/lib/auth.ts';
import { newId } from '../server/src/lib/ids.ts';
import { createTokenSigner } from '../server/src/lib/tokens.ts';
import { newGuestId, signGuestSession } from '../server/src/modules/chat/guest-session.ts';
import { freePort } from '../server/src/test/ports.ts';

const root = path.resolve(import.meta.dirname, '..');
function arg(name: string, fallback: number, max: number): number {
  const raw = process.argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);
  const n = raw === undefined ? fallback : Number(raw);
  if (!Number.isFinite(n) || n <= 0 || n > max) throw new Error(`--${name} must be a number above 0, at most ${max} (got ${raw})`);
  return n;
}
const MINUTES = arg('minutes', 10, 24 * 60);
const SHOPPERS = Math.floor(arg('shoppers', 8, 200));
const CHATTERS = Math.floor(arg('chatters', 10, 500));
const WARMUP_MINUTES = Math.min(2, MINUTES * 0.3);
const DB_BASE = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const REDIS_URL = process.env.BENCH_REDIS_URL ?? process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379/9';
const SECRET = randomBytes(32).toString('hex');
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const think = () => sleep(100 + Math.random() * 300);
const pick = <T>(xs: T[]): T => xs[Math.floor(Math.random() * xs.length)]!;
const NODE_ARGS = (process.env.BENCH_SERVER_NODE_ARGS ?? '').split(/\s+/).filter(Boolean);

type Samples = Array<{ minute: number; mb: number }>;
interface Instance { child: ChildProcess; port: number; name: string; rss: Samples; heapUsed: Samples; external: Samples }

async function startInstance(name: string, env: Record<string, string>): Promise<Instance> {
  const port = await freePort();
  const child = spawn(process.execPath, [...NODE_ARGS, 'dist/main.js'], {
    cwd: path.join(root, 'server'), env: { ...process.env, ...env, PORT: String(port) }, stdio: ['ignore', 'ignore', 'inherit'],
  });
  const deadline = Date.now() + 120_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`instance ${name} exited with ${child.exitCode}`);
    try { if ((await fetch(`http://127.0.0.1:${port}/api/ready`)).ok) return { child, port, name, rss: [], heapUsed: [], external: [] }; } catch { /* starting */ }
    await sleep(200);
  }
  throw new Error(`instance ${name} did not become ready`);
}

const rssMb = (pid: number) => Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? NaN) / 1024;

/** V8 heap used and external memory (MB) of an instance, from its Prometheus metrics. */
async function sampleHeap(inst: Instance, minute: number): Promise<void> {
  try {
    const text = await (await fetch(`http://127.0.0.1:${inst.port}/metrics`, { signal: AbortSignal.timeout(5_000) })).text();
    const metric = (name: string) => Number(new RegExp(`^${name} (\\S+)`, 'm').exec(text)?.[1] ?? NaN) / 1024 / 1024;
    inst.heapUsed.push({ minute, mb: metric('nodejs_heap_size_used_bytes') });
    inst.external.push({ minute, mb: metric('nodejs_external_memory_bytes') });
  } catch { /* a sample missed: the slope uses the others */ }
}

/** The lowest sample of each whole minute: the heap right after a collection, not its sawtooth. */
function perMinuteFloor(points: Samples): Samples {
  const byMinute = new Map<number, { minute: number; mb: number }>();
  for (const p of points) {
    const m = Math.floor(p.minute);
    const low = byMinute.get(m);
    if (!low || p.mb < low.mb) byMinute.set(m, p);
  }
  return [...byMinute.values()];
}

/** Least-squares slope of MB over minutes. */
function slope(points: Array<{ minute: number; mb: number }>): number {
  const n = points.length;
  if (n < 2) return NaN;
  const mx = points.reduce((a, p) => a + p.minute, 0) / n;
  const my = points.reduce((a, p) => a + p.mb, 0) / n;
  const num = points.reduce((a, p) => a + (p.minute - mx) * (p.mb - my), 0);
  const den = points.reduce((a, p) => a + (p.minute - mx) ** 2, 0);
  return den ? num / den : NaN;
}

class Recorder {
  readonly latencies = new Map<string, number[]>();
  readonly errors = new Map<string, number>();
  readonly samples: string[] = [];
  record(route: string, ms: number) {
    let list = this.latencies.get(route);
    if (!list) this.latencies.set(route, (list = []));
    list.push(ms);
  }
  error(route: string, what: string) {
    this.errors.set(route, (this.errors.get(route) ?? 0) + 1);
    if (this.samples.length < 10) this.samples.push(`${route}: ${what}`);
  }
}

async function main() {
  const built = spawnSync(process.execPath, [path.join(root, 'scripts/build-server.mjs'), '--if-stale'], { stdio: 'inherit' });
  if (built.status !== 0) throw new Error('the server build failed');
  console.info(`soak: ${MINUTES} min, ${SHOPPERS} shoppers, ${CHATTERS} chatting guests and 1 administrator on 2 instances (PostgreSQL + Redis); warm-up ${WARMUP_MINUTES.toFixed(1)} min`);
  const redis = new Redis(REDIS_URL);
  const stale = await redis.keys('chat:*');
  if (stale.length) await redis.del(...stale);
  await redis.quit();
  const scratch = await createScratchDatabase(DB_BASE, 'shop_bench_soak');
  const dataDir = mkdtempSync(path.join(tmpdir(), 'shop-soak-'));
  const instances: Instance[] = [];
  let stop = false;
  try {
    const database = await openDatabase({ databaseUrl: scratch.url, poolSize: 2 });
    await migrate(database);
    const signer = createTokenSigner(SECRET, 24 * 3600);
    const session = async (isAdmin: boolean, i: number) => {
      const id = newId();
      await database.db.insert(users).values({ id, name: isAdmin ? 'Soak Admin' : `Shopper ${i}`, email: `${isAdmin ? 'admin' : 'shopper'}${i}@soak.local`, passwordHash: 'not-used', isAdmin });
      const addressId = newId();
      await database.db.insert(addresses).values({ id: addressId, userId: id, fullName: `Shopper ${i}`, address: `${i} Soak Lane`, city: 'Long Run', postalCode: '10000', country: 'USA', isDefault: true });
      const s = await startSession(database.db, { signer, refreshTokenTtlDays: 2 }, id);
      return { cookie: `${ACCESS_COOKIE}=${s.accessToken}`, addressId };
    };
    const admin = await session(true, 0);
    const shoppers = await Promise.all(Array.from({ length: SHOPPERS }, (_, i) => session(false, i + 1)));
    await database.close();

    const env = (dir: string, seed: boolean) => ({
      NODE_ENV: 'production', HOST: '127.0.0.1', PUBLIC_URL: 'http://127.0.0.1', DATABASE_URL: scratch.url, DATABASE_POOL_SIZE: '10', REDIS_URL,
      JWT_SECRET: SECRET, SEED_DEMO_DATA: seed ? 'true' : 'false', ADMIN_EMAIL: 'seed-admin@soak.local', ADMIN_PASSWORD: 'soak-password-123',
      ALLOW_DEMO_PAYMENTS: 'true', PAYPAL_CLIENT_ID: '', PAYPAL_CLIENT_SECRET: '', CJ_API_KEY: '', LOG_LEVEL: 'error',
      METRICS_ACCESS: 'public', DATA_DIR: path.join(dataDir, dir), WEB_DIST_DIR: path.join(dataDir, 'no-web'), SHUTDOWN_DRAIN_SECONDS: '0', WEB_CONCURRENCY: '1',
      CHAT_SOCKETS_PER_IP: '1000', CHAT_MESSAGES_PER_MINUTE: '100000', CHAT_IP_MESSAGES_PER_MINUTE: '1000000', CHAT_AI_REQUESTS_PER_MINUTE: '1000000',
    });
    instances.push(await startInstance('A', env('a', true)));
    instances.push(await startInstance('B', env('b', false)));
    const bases = instances.map((i) => `http://127.0.0.1:${i.port}`);
    let turn = 0;
    const nextBase = () => bases[turn++ % bases.length]!;

    const catalogue = (await (await fetch(`${bases[0]}/api/products/search?page=1`)).json()) as { pages: number };
    const all: Array<{ _id: string; slug: string; name: string }> = [];
    for (let p = 1; p <= catalogue.pages; p += 1) {
      all.push(...((await (await fetch(`${bases[0]}/api/products/search?page=${p}`)).json()) as { products: typeof all }).products);
    }
    const words = [...new Set(all.flatMap((p) => p.name.toLowerCase().split(/\s+/)))].filter((w) => w.length > 3);
    const categories = (await (await fetch(`${bases[0]}/api/products/categories`)).json()) as string[];

    const rec = new Recorder();
    const call = async (route: string, method: string, url: string, opts: { cookie?: string; body?: unknown; ok?: number[] } = {}) => {
      const t0 = performance.now();
      try {
        const res = await fetch(`${nextBase()}${url}`, {
          method, signal: AbortSignal.timeout(30_000),
          headers: { ...(opts.cookie ? { cookie: opts.cookie } : {}), ...(opts.body !== undefined ? { 'content-type': 'application/json' } : {}) },
          body: opts.body === undefined ? undefined : JSON.stringify(opts.body),
        });
        const json = (await res.json().catch(() => null)) as Record<string, unknown> | null;
        rec.record(route, performance.now() - t0);
        if (!(opts.ok ?? [200]).includes(res.status)) rec.error(route, `${res.status} ${JSON.stringify(json).slice(0, 200)}`);
        return { status: res.status, json };
      } catch (err) {
        rec.error(route, String(err));
        return { status: 0, json: null };
      }
    };

    const startedAt = performance.now();
    const minute = () => (performance.now() - startedAt) / 60_000;
    const until = startedAt + MINUTES * 60_000;
    const running = () => !stop && performance.now() < until;

    const shopper = async (s: { cookie: string; addressId: string }) => {
      while (running()) {
        await call('GET /api/products', 'GET', '/api/products');
        await think();
        await call('GET /api/products/search?query', 'GET', `/api/products/search?query=${encodeURIComponent(pick(words))}`);
        await think();
        await call('GET /api/products/search?category', 'GET', `/api/products/search?category=${encodeURIComponent(pick(categories))}&order=${pick(['lowest', 'highest', 'toprated', 'newest'])}`);
        await think();
        const product = pick(all);
        await call('GET /api/products/slug/:slug', 'GET', `/api/products/slug/${product.slug}`);
        await think();
        if (Math.random() < 0.5) {
          const added = await call('POST /api/cart/items', 'POST', '/api/cart/items', { cookie: s.cookie, body: { productId: product._id, quantity: 1 }, ok: [200, 400] });
          await call('GET /api/cart', 'GET', '/api/cart', { cookie: s.cookie });
          if (added.status === 200 && Math.random() < 0.4) {
            const order = await call('POST /api/orders', 'POST', '/api/orders', { cookie: s.cookie, body: { addressId: s.addressId, paymentMethod: 'PayPal' }, ok: [201, 400] });
            if (order.status === 201) await call('PUT /api/orders/:id/pay', 'PUT', `/api/orders/${String(order.json?._id)}/pay`, { cookie: s.cookie, body: { demo: true } });
            else await call('DELETE /api/cart', 'DELETE', '/api/cart', { cookie: s.cookie });
            await call('GET /api/orders/mine', 'GET', '/api/orders/mine', { cookie: s.cookie });
          }
        }
        await think();
      }
    };
    const administrator = async () => {
      while (running()) {
        await call('GET /api/orders (admin)', 'GET', '/api/orders?page=1', { cookie: admin.cookie });
        await call('GET /api/orders/summary', 'GET', '/api/orders/summary', { cookie: admin.cookie });
        await call('GET /api/users', 'GET', '/api/users?page=1', { cookie: admin.cookie });
        await call('GET /api/products/admin', 'GET', '/api/products/admin?page=1', { cookie: admin.cookie });
        await sleep(1000);
      }
    };
    /** A guest on one instance: a message every 2-4 s, message → ack latency; reconnects if dropped. */
    const chatter = async (i: number) => {
      const port = instances[i % instances.length]!.port;
      const cookie = `chat_guest=${signGuestSession(SECRET, { guestId: newGuestId(), name: `Soak Guest ${i}`, email: `guest${i}@soak.local`, timestamp: Date.now() })}`;
      while (running()) {
        const sent = new Map<string, number>();
        const ws = await new Promise<WebSocket | null>((resolve) => {
          const s = new WebSocket(`ws://127.0.0.1:${port}/ws/chat`, { headers: { cookie } });
          s.once('open', () => resolve(s));
          s.once('error', (err) => { rec.error('WS /ws/chat connect', String(err)); resolve(null); });
        });
        if (!ws) { await sleep(1000); continue; }
        ws.on('message', (raw) => {
          const e = JSON.parse(String(raw)) as { type: string; clientId?: string; message?: string };
          if (e.type === 'ping') ws.send('{"type":"pong"}');
          if (e.type === 'ack' && e.clientId && sent.has(e.clientId)) { rec.record('WS message → ack', performance.now() - sent.get(e.clientId)!); sent.delete(e.clientId); }
          if (e.type === 'error') rec.error('WS message → ack', `error event ${String(e.message)}`);
        });
        ws.on('close', (code) => { if (running()) rec.error('WS /ws/chat', `closed ${code}`); });
        while (running() && ws.readyState === WebSocket.OPEN) {
          const clientId = `soak-${randomBytes(6).toString('hex')}`;
          sent.set(clientId, performance.now());
          ws.send(JSON.stringify({ type: 'message', content: pick(['do you have headphones?', 'what is your return policy', `how much is the ${pick(all).name}?`, 'shipping time?']), clientId }));
          await sleep(2000 + Math.random() * 2000);
        }
        for (const [id, t0] of sent) if (performance.now() - t0 > 10_000) rec.error('WS message → ack', `no ack for ${id}`);
        ws.removeAllListeners('close');
        ws.close();
      }
    };

    const sampler = setInterval(() => {
      for (const inst of instances) {
        if (inst.child.exitCode !== null) continue;
        inst.rss.push({ minute: minute(), mb: rssMb(inst.child.pid!) });
        void sampleHeap(inst, minute());
      }
    }, 5000);
    let lastReport = 0;
    const reporter = setInterval(() => {
      const m = Math.floor(minute());
      if (m > lastReport) {
        lastReport = m;
        const errors = [...rec.errors.values()].reduce((a, b) => a + b, 0);
        console.info(`  ${m} min: ${[...rec.latencies.values()].reduce((a, l) => a + l.length, 0)} requests, ${errors} errors, RSS ${instances.map((i) => `${i.name} ${(i.rss.at(-1)?.mb ?? NaN).toFixed(0)} MB`).join(', ')}`);
      }
    }, 1000);
    await Promise.all([
      ...shoppers.map((s) => shopper(s)),
      administrator(),
      ...Array.from({ length: CHATTERS }, (_, i) => chatter(i)),
    ]);
    clearInterval(sampler);
    clearInterval(reporter);

    const elapsedMin = minute();
    const errors = [...rec.errors.values()].reduce((a, b) => a + b, 0);
    const total = [...rec.latencies.values()].reduce((a, l) => a + l.length, 0);
    const pct = (xs: number[], p: number) => xs[Math.min(xs.length - 1, Math.ceil((p / 100) * xs.length) - 1)] ?? NaN;
    console.info(`\n${total} requests and chat messages in ${elapsedMin.toFixed(1)} min (${(total / elapsedMin / 60).toFixed(0)}/s); errors: ${errors}${errors ? ` (${rec.samples.slice(0, 5).join(' | ')})` : ''}`);
    console.info(`${'route'.padEnd(34)}${'n'.padStart(8)}${'p50 ms'.padStart(9)}${'p99 ms'.padStart(9)}${'max ms'.padStart(9)}${'errors'.padStart(8)}`);
    for (const [route, list] of [...rec.latencies].sort(([a], [b]) => a.localeCompare(b))) {
      const s = [...list].sort((a, b) => a - b);
      console.info(`${route.padEnd(34)}${String(s.length).padStart(8)}${pct(s, 50).toFixed(1).padStart(9)}${pct(s, 99).toFixed(1).padStart(9)}${(s.at(-1) ?? NaN).toFixed(0).padStart(9)}${String(rec.errors.get(route) ?? 0).padStart(8)}`);
    }
    for (const inst of instances) {
      const after = inst.rss.filter((p) => p.minute >= WARMUP_MINUTES);
      const s = slope(after);
      console.info(`RSS instance ${inst.name}: ${inst.rss[0]?.mb.toFixed(0)} MB at start → ${inst.rss.at(-1)?.mb.toFixed(0)} MB at the end; after the warm-up ${s >= 0 ? '+' : ''}${s.toFixed(2)} MB/min over ${after.length} samples (goal < 1 MB/min: ${Math.abs(s) < 1 ? 'met' : 'NOT met'})`);
      const heap = perMinuteFloor(inst.heapUsed.filter((p) => p.minute >= WARMUP_MINUTES));
      const external = inst.external.filter((p) => p.minute >= WARMUP_MINUTES);
      const signed = (n: number) => `${n >= 0 ? '+' : ''}${n.toFixed(2)}`;
      console.info(`  V8 heap used (lowest per minute) ${heap[0]?.mb.toFixed(0)} → ${heap.at(-1)?.mb.toFixed(0)} MB, ${signed(slope(heap))} MB/min; external ${external[0]?.mb.toFixed(0)} → ${external.at(-1)?.mb.toFixed(0)} MB, ${signed(slope(external))} MB/min`);
    }
    console.info(`errors: ${errors === 0 ? '0 (goal met)' : `${errors} (goal 0: NOT met)`}`);
    if (errors) process.exitCode = 1;
  } finally {
    stop = true;
    for (const inst of instances) {
      if (inst.child.exitCode === null) {
        const exited = new Promise((r) => inst.child.once('exit', r));
        inst.child.kill('SIGTERM');
        await exited;
      }
    }
    await scratch.drop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

main().then(() => process.exit(process.exitCode ?? 0), (err: unknown) => { console.error(err); process.exit(1); });
