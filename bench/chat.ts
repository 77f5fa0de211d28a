/**
 * Chat under load: two real server processes (server/src/main.ts) on one scratch PostgreSQL
 * database and one Redis, like a fleet. Prints:
 *   1. sockets held on one instance (guests, answering the server's pings) and server memory per socket;
 *   2. delivery latency p50/p99 customer → administrator at a fixed rate (default 500 msg/s), both on A
 *      (after one warm-up message per customer: their conversations exist, as in a chat under way);
 *   3. the same with the administrator on instance B (fan-out through Redis);
 *   4. the built-in AI assistant's answer time p50/p95 on the demo catalogue;
 * and, measured in the same run on the same machine, the ceilings: the shared one (lib/ceiling.ts: a
 * bare Fastify route answering a prepared 12-product page, 20 connections) that every latency is
 * also printed against (÷ its p99), a bare `ws` echo server at the same rate, and a Redis PUBLISH →
 * message round trip.
 *
 *   node --import tsx bench/chat.ts [--sockets=5000] [--rate=500] [--seconds=5] [--ai=100]
 *   BENCH_CPU_PROF=<dir> also writes instance A's CPU profile into <dir>.
 *   env: BENCH_DATABASE_URL (default $TEST_DATABASE_URL or postgres://postgres@127.0.0.1:5432/postgres),
 *        BENCH_REDIS_URL (default $TEST_REDIS_URL or redis://127.0.0.1:6379/9)
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { Redis } from 'ioredis';
import WebSocket, { WebSocketServer } from 'ws';
import { openDatabase } from '../server/src/db/client.ts';
import { migrate } from '../server/src/db/migrate.ts';
import { createScratchDatabase } from '../server/src/db/scratch.ts';
import { users } from '../server/src/db/schema.ts';
import { ACCESS_COOKIE, startSession } from '../server/src/lib/auth.ts';
import { newId } from '../server/src/lib/ids.ts';
import { createTokenSigner } from '../server/src/lib/tokens.ts';
import { newGuestId, signGuestSession } from '../server/src/modules/chat/guest-session.ts';
import { describeCeiling, latencyRatio, measureCeiling } from './lib/ceiling.ts';
import { freePort } from '../server/src/test/ports.ts';

const root = path.resolve(import.meta.dirname, '..');
function arg(name: string, fallback: number): number {
  const flag = process.argv.find((a) => a.startsWith(`--${name}=`));
  const n = flag ? Number(flag.slice(name.length + 3)) : fallback;
  if (!Number.isFinite(n) || n <= 0) throw new Error(`--${name} must be a positive number`);
  return n;
}
const SOCKETS = Math.floor(arg('sockets', 5000));
const RATE = arg('rate', 500);
const SECONDS = arg('seconds', 5);
const AI_QUESTIONS = Math.floor(arg('ai', 100));
const CUSTOMERS = 20;
const DB_BASE = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const REDIS_URL = process.env.BENCH_REDIS_URL ?? process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379/9';
const SECRET = randomBytes(32).toString('hex');

const pct = (xs: number[], p: number) => {
  if (!xs.length) return NaN;
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))]!;
};
const ms = (n: number) => `${n.toFixed(1)} ms`;
const sleep = (t: number) => new Promise((r) => setTimeout(r, t));

interface Instance { child: ChildProcess; port: number; dataDir: string }

async function startInstance(env: Record<string, string>, profile = false): Promise<Instance> {
  const port = await freePort();
  const dataDir = mkdtempSync(path.join(tmpdir(), 'bench-chat-'));
  // BENCH_CPU_PROF=<dir>: instance A writes a V8 CPU profile there when it exits (open it in Chrome DevTools).
  const prof = profile && process.env.BENCH_CPU_PROF ? ['--cpu-prof', `--cpu-prof-dir=${path.resolve(process.env.BENCH_CPU_PROF)}`] : [];
  // BENCH_SERVER_NODE_FLAGS: extra node flags for both instances (e.g. --trace-gc).
  const extra = (process.env.BENCH_SERVER_NODE_FLAGS ?? '').split(' ').filter(Boolean);
  const child = spawn(process.execPath, [...prof, ...extra, '--import', 'tsx', 'src/main.ts'], {
    cwd: path.join(root, 'server'),
    env: {
      ...process.env, NODE_ENV: 'test', PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, LOG_LEVEL: 'error', JWT_SECRET: SECRET,
      WEB_DIST_DIR: path.join(dataDir, 'no-web'), SHUTDOWN_DRAIN_SECONDS: '0', JOBS_POLL_MS: '0', METRICS_ACCESS: 'public',
      CHAT_SOCKETS_PER_IP: String(SOCKETS + 1000), CHAT_MESSAGES_PER_MINUTE: '1000000', CHAT_IP_MESSAGES_PER_MINUTE: '1000000',
      CHAT_AI_REQUESTS_PER_MINUTE: '1000000', ...env,
    },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  const deadline = Date.now() + 180_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error('instance exited early');
    try { if ((await fetch(`http://127.0.0.1:${port}/api/health`)).ok) return { child, port, dataDir }; } catch { /* starting */ }
    await sleep(250);
  }
  throw new Error('instance did not start');
}

async function rssMb(port: number): Promise<number> {
  const text = await (await fetch(`http://127.0.0.1:${port}/metrics`)).text();
  const line = text.split('\n').find((l) => l.startsWith('process_resident_memory_bytes'));
  return Number(line?.split(' ')[1] ?? NaN) / 1024 / 1024;
}

function open(port: number, cookie: string, onEvent?: (e: { type: string; [k: string]: unknown }) => void): Promise<WebSocket> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(`ws://127.0.0.1:${port}/ws/chat`, { headers: { cookie } });
    let activity: ReturnType<typeof setInterval> | null = null;
    ws.on('close', () => { if (activity) clearInterval(activity); });
    ws.on('message', (raw) => {
      const e = JSON.parse(String(raw)) as { type: string; user?: { isAdmin: boolean } };
      if (e.type === 'ping') ws.send('{"type":"pong"}');
      // An administrator counts as online only while their chat tab sends activity (every 15 s).
      if (e.type === 'hello' && e.user?.isAdmin && !activity) {
        activity = setInterval(() => { if (ws.readyState === WebSocket.OPEN) ws.send('{"type":"activity"}'); }, 15_000);
        ws.send('{"type":"activity"}');
      }
      onEvent?.(e);
    });
    ws.once('open', () => resolve(ws));
    ws.once('error', reject);
  });
}

/** Sends RATE messages/s for SECONDS from the customers; returns latencies measured at the receiver. */
async function deliveryRun(send: Array<(content: string) => void>, received: Map<string, number>): Promise<{ lat: number[]; sent: number; lost: number }> {
  const sentAt = new Map<string, number>();
  const total = Math.floor(RATE * SECONDS);
  const start = performance.now();
  for (let i = 0; i < total; i += 1) {
    const due = start + (i * 1000) / RATE;
    const wait = due - performance.now();
    if (wait > 1) await sleep(wait);
    const key = `m${i}-${randomBytes(3).toString('hex')}`;
    sentAt.set(key, performance.now());
    send[i % send.length]!(key);
  }
  const deadline = performance.now() + 10_000;
  while (performance.now() < deadline && [...sentAt.keys()].some((k) => !received.has(k))) await sleep(50);
  const lat = [...sentAt].flatMap(([k, t]) => (received.has(k) ? [received.get(k)! - t] : []));
  // BENCH_SLOW_MS=<ms>: when the slow deliveries were sent (wall clock), to line them up with the servers' timers.
  const slowMs = Number(process.env.BENCH_SLOW_MS ?? NaN);
  if (Number.isFinite(slowMs)) {
    const epoch = Date.now() - performance.now();
    const slow = [...sentAt].filter(([k, t]) => (received.get(k) ?? Infinity) - t > slowMs);
    const at = slow.map(([k, t]) => `${new Date(epoch + t).toISOString().slice(11, 23)} ${((received.get(k) ?? NaN) - t).toFixed(0)}ms`);
    console.info(`   ${slow.length} deliveries slower than ${slowMs} ms (run ${new Date(epoch + start).toISOString().slice(11, 23)}–${new Date(Date.now()).toISOString().slice(11, 23)}): ${at.filter((_, i) => i % Math.max(1, Math.ceil(at.length / 40)) === 0).join(', ')}`);
  }
  return { lat, sent: total, lost: total - lat.length };
}

/** The same echo, but served by another process: each message crosses processes like a chat message does. */
async function wsEchoProcessCeiling(): Promise<number[]> {
  const port = await freePort();
  const child = spawn(process.execPath, ['-e', `const { WebSocketServer } = require('ws');
    const wss = new WebSocketServer({ port: ${port}, host: '127.0.0.1' });
    wss.on('connection', (s) => s.on('message', (d) => s.send(d)));
    wss.on('listening', () => console.log('up'));`], { cwd: root, stdio: ['ignore', 'pipe', 'inherit'] });
  await new Promise((resolve) => child.stdout!.once('data', resolve));
  const received = new Map<string, number>();
  const ws = await new Promise<WebSocket>((resolve) => { const c = new WebSocket(`ws://127.0.0.1:${port}`); c.once('open', () => resolve(c)); });
  ws.on('message', (d) => received.set(String(d), performance.now()));
  const { lat } = await deliveryRun([(k) => ws.send(k)], received);
  ws.close();
  child.kill();
  return lat;
}

const load = () => `load ${loadavg()[0]!.toFixed(1)}`;

async function wsEchoCeiling(): Promise<number[]> {
  const port = await freePort();
  const wss = new WebSocketServer({ port, host: '127.0.0.1' });
  wss.on('connection', (s) => s.on('message', (d) => s.send(d)));
  const received = new Map<string, number>();
  const ws = await new Promise<WebSocket>((resolve) => { const c = new WebSocket(`ws://127.0.0.1:${port}`); c.once('open', () => resolve(c)); });
  ws.on('message', (d) => received.set(String(d), performance.now()));
  const { lat } = await deliveryRun([(k) => ws.send(k)], received);
  ws.close();
  wss.close();
  return lat;
}

async function redisCeiling(): Promise<number[]> {
  const pub = new Redis(REDIS_URL);
  const sub = new Redis(REDIS_URL);
  const channel = `bench:${randomBytes(4).toString('hex')}`;
  const received = new Map<string, number>();
  await sub.subscribe(channel);
  sub.on('message', (_c, m) => received.set(m, performance.now()));
  const { lat } = await deliveryRun([(k) => void pub.publish(channel, k)], received);
  await pub.quit();
  await sub.quit();
  return lat;
}

async function main() {
  console.info(`chat bench: ${SOCKETS} sockets, ${RATE} msg/s for ${SECONDS} s, ${AI_QUESTIONS} AI questions`);
  const redis = new Redis(REDIS_URL);
  const stale = await redis.keys('chat:*');
  if (stale.length) await redis.del(...stale);
  await redis.quit();
  const scratch = await createScratchDatabase(DB_BASE, 'shop_bench_chat');
  const database = await openDatabase({ databaseUrl: scratch.url, poolSize: 2 });
  await migrate(database);
  const signer = createTokenSigner(SECRET, 3600);
  const cookieFor = async (isAdmin: boolean, i: number) => {
    const id = newId();
    await database.db.insert(users).values({ id, name: isAdmin ? 'Bench Admin' : `Customer ${i}`, email: `${isAdmin ? 'admin' : 'c'}${i}-${id}@bench.test`, passwordHash: 'x', isAdmin });
    const s = await startSession(database.db, { signer, refreshTokenTtlDays: 1 }, id);
    return `${ACCESS_COOKIE}=${s.accessToken}`;
  };
  const adminCookie = await cookieFor(true, 0);
  const customerCookies = await Promise.all(Array.from({ length: CUSTOMERS }, (_, i) => cookieFor(false, i + 1)));
  const guestCookie = () => `chat_guest=${signGuestSession(SECRET, { guestId: newGuestId(), name: 'Bench Guest', email: 'guest@bench.test', timestamp: Date.now() })}`;

  const env = { DATABASE_URL: scratch.url, REDIS_URL, DATABASE_POOL_SIZE: '10' };
  const a = await startInstance({ ...env, SEED_DEMO_DATA: 'true', ADMIN_EMAIL: 'seed-admin@bench.test', ADMIN_PASSWORD: 'password123' }, true);
  const b = await startInstance({ ...env, SEED_DEMO_DATA: 'false' });
  const out: string[] = [];
  const ceiling = await measureCeiling({ connections: CUSTOMERS, seconds: Math.min(10, Math.max(3, SECONDS)) });
  const vs = (n: number) => `(${latencyRatio(n, ceiling)})`;
  try {
    // 1. Sockets held on A.
    const before = await rssMb(a.port);
    const held: WebSocket[] = [];
    const t0 = performance.now();
    for (let i = 0; i < SOCKETS; i += 100) {
      held.push(...(await Promise.all(Array.from({ length: Math.min(100, SOCKETS - i) }, () => open(a.port, guestCookie())))));
    }
    const openSeconds = (performance.now() - t0) / 1000;
    await sleep(3000);
    const after = await rssMb(a.port);
    const stillOpen = held.filter((w) => w.readyState === WebSocket.OPEN).length;
    out.push(`1. sockets held on one instance: ${stillOpen}/${SOCKETS} open (goal 5,000) in ${openSeconds.toFixed(1)} s; server RSS ${before.toFixed(0)} → ${after.toFixed(0)} MB = ${(((after - before) * 1024) / SOCKETS).toFixed(1)} KB per socket`);

    // 2. Customer → administrator on the same instance.
    const receivedA = new Map<string, number>();
    const onAdmin = (received: Map<string, number>) => (e: { type: string; [k: string]: unknown }) => {
      if (e.type === 'message') received.set((e.message as { content: string }).content, performance.now());
    };
    const adminA = await open(a.port, adminCookie, onAdmin(receivedA));
    await sleep(500);
    const errors: string[] = [];
    const customers = await Promise.all(customerCookies.map((c) => open(a.port, c, (e) => { if (e.type === 'error') errors.push(String(e.message)); })));
    const senders = customers.map((ws) => (content: string) => ws.send(JSON.stringify({ type: 'message', content, clientId: content })));
    // Each phase starts once the previous burst (20 customers connecting: presence lists to the
    // administrator) has settled, like the administrator's connect above.
    await sleep(1000);
    // Warm-up: one message per customer, delivered before timing starts, so each conversation (its
    // row, its lead, its reply-wait) exists as in a chat under way; the timed run measures the
    // steady state, not the 20 conversations being opened at once.
    const warm = senders.map((send, i) => { const key = `warm${i}-${randomBytes(3).toString('hex')}`; send(key); return key; });
    const warmDeadline = performance.now() + 15_000;
    while (performance.now() < warmDeadline && warm.some((k) => !receivedA.has(k))) await sleep(50);
    await sleep(1000);
    const same = await deliveryRun(senders, receivedA);
    out.push(`2. customer → administrator, same instance, ${RATE} msg/s × ${SECONDS} s (with ${stillOpen} idle sockets held): p50 ${ms(pct(same.lat, 50))}, p99 ${ms(pct(same.lat, 99))} ${vs(pct(same.lat, 99))} (goal ≤ 50 ms), lost ${same.lost}/${same.sent}; ${load()}`);
    adminA.close();
    if (errors.length) out.push(`   errors from the server: ${errors.length}, first: ${errors[0]}`);

    // 3. Administrator on B: fan-out through Redis.
    const receivedB = new Map<string, number>();
    const adminB = await open(b.port, adminCookie, onAdmin(receivedB));
    await sleep(500);
    const across = await deliveryRun(senders, receivedB);
    out.push(`3. customer on A → administrator on B via Redis, ${RATE} msg/s × ${SECONDS} s: p50 ${ms(pct(across.lat, 50))}, p99 ${ms(pct(across.lat, 99))} ${vs(pct(across.lat, 99))} (goal ≤ 100 ms), lost ${across.lost}/${across.sent}; ${load()}`);
    adminB.close();
    await sleep(500);
    for (const w of held) w.close();
    for (const w of customers) w.close();
    await sleep(500);

    // 4. The built-in assistant: question sent → AI answer received, 5 guests asking in turn.
    const questions = ['How much is the Nova X5 Smartphone?', 'do you have hedphones', 'compare Nova X5 Smartphone and Nova Lite Smartphone', 'what is your return policy', 'is the Pulse Fit Smartwatch in stock?', 'cheap camera'];
    const aiLat: number[] = [];
    await Promise.all(Array.from({ length: 5 }, async (_, g) => {
      const pending = new Map<string, number>();
      let resolveNext: (() => void) | null = null;
      const ws = await open(a.port, guestCookie(), (e) => {
        if (e.type === 'ack') pending.set(`ai:${(e.message as { id: string }).id}`, pending.get(String(e.clientId)) ?? 0);
        if (e.type === 'message') {
          const m = e.message as { sender: string; clientId: string };
          if (m.sender === 'ai' && pending.has(m.clientId)) { aiLat.push(performance.now() - pending.get(m.clientId)!); resolveNext?.(); }
        }
      });
      for (let i = g; i < AI_QUESTIONS; i += 5) {
        const clientId = `q${i}-${randomBytes(3).toString('hex')}`;
        pending.set(clientId, performance.now());
        const done = new Promise<void>((r) => { resolveNext = r; });
        ws.send(JSON.stringify({ type: 'message', content: questions[i % questions.length], clientId }));
        await Promise.race([done, sleep(5000)]);
      }
      ws.close();
    }));
    out.push(`4. built-in AI assistant, question → answer over the socket (${aiLat.length} answers): p50 ${ms(pct(aiLat, 50))}, p95 ${ms(pct(aiLat, 95))} ${vs(pct(aiLat, 95))} (goal ≤ 300 ms); ${load()}`);

    // Ceiling on this machine, same run.
    const echo = await wsEchoCeiling();
    const pubsub = await redisCeiling();
    const echoProcess = await wsEchoProcessCeiling();
    out.push(describeCeiling(ceiling));
    out.push(`other ceilings: bare ws echo at ${RATE} msg/s: p50 ${ms(pct(echo, 50))}, p99 ${ms(pct(echo, 99))} ${vs(pct(echo, 99))}; Redis PUBLISH → message: p50 ${ms(pct(pubsub, 50))}, p99 ${ms(pct(pubsub, 99))}; ws echo in another process: p50 ${ms(pct(echoProcess, 50))}, p99 ${ms(pct(echoProcess, 99))}; ${load()}`);
  } finally {
    for (const inst of [a, b]) {
      inst.child.kill('SIGTERM');
      await new Promise((r) => { if (inst.child.exitCode !== null) r(null); else inst.child.once('exit', r); });
      rmSync(inst.dataDir, { recursive: true, force: true });
    }
    await database.close();
    await scratch.drop();
  }
  console.info(out.join('\n'));
}

main().then(() => process.exit(0), (err: unknown) => { console.error(err); process.exit(1); });
