/**
 * Start to healthy and memory at idle of the compiled server (server/dist; this script builds nothing:
 * run `npm run build -w server` first). For each database it starts `node server/dist/main.js` twice
 * on a free port, with the demo data seeded on the first start:
 *   - PGlite: a fresh temporary DATA_DIR (no DATABASE_URL), then a second start on the same dir;
 *   - PostgreSQL: a scratch database on BENCH_DATABASE_URL (created and dropped here), then a second
 *     start on it.
 * Each run times process spawn → the first `GET /api/ready` 200, samples the child's RSS (VmRSS of
 * /proc/<pid>/status) every 100 ms until --settle seconds after ready, then reads its peak RSS (VmHWM),
 * the RSS split (anonymous / file-backed) and, from /metrics, V8's heap and the external memory
 * (ArrayBuffers: PGlite's WebAssembly memory is one), and stops it with SIGTERM.
 *
 * Prints one line per run: ready time, RSS at ready, peak RSS, RSS at ready + settle (the "memory at
 * idle" figure). Makes no timing assertions; exits 1 when the build is missing or a start fails.
 * 127.0.0.1 only. Linux only (/proc). About 4 × (start + settle) seconds.
 *
 *   node --import tsx bench/startup.ts [--settle=20] [--db=pglite,postgres]
 *   env: BENCH_DATABASE_URL (default $TEST_DATABASE_URL or postgres://postgres@127.0.0.1:5432/postgres),
 *        BENCH_SERVER_NODE_ARGS (extra node flags for the server, e.g. "--max-semi-space-size=4")
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { createScratchDatabase } from '../server/src/db/scratch.ts';
import { freePort } from '../server/src/test/ports.ts';
import { procMb } from './lib/proc-memory.ts';

const root = path.resolve(import.meta.dirname, '..');
const MAIN = path.join(root, 'server/dist/main.js');
const rawArg = (name: string) => process.argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);
const SETTLE_S = Number(rawArg('settle') ?? 20);
if (!Number.isFinite(SETTLE_S) || SETTLE_S < 0 || SETTLE_S > 600) throw new Error(`--settle must be a number of seconds from 0 to 600 (got ${rawArg('settle')})`);
const DBS = (rawArg('db') ?? 'pglite,postgres').split(',');
for (const d of DBS) if (d !== 'pglite' && d !== 'postgres') throw new Error(`--db takes pglite and/or postgres (got ${d})`);
const DB_BASE = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const NODE_ARGS = (process.env.BENCH_SERVER_NODE_ARGS ?? '').split(/\s+/).filter(Boolean);
const READY_TIMEOUT_MS = 90_000;
const SECRET = randomBytes(32).toString('hex');
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** V8 heap used / total and external memory in MB, from the server's Prometheus metrics. */
async function heapFigures(base: string): Promise<{ heapUsed: number; heapTotal: number; external: number } | null> {
  try {
    const text = await (await fetch(`${base}/metrics`, { signal: AbortSignal.timeout(5_000) })).text();
    const metric = (name: string) => Number(new RegExp(`^${name} (\\S+)`, 'm').exec(text)?.[1] ?? NaN) / 1024 / 1024;
    return { heapUsed: metric('nodejs_heap_size_used_bytes'), heapTotal: metric('nodejs_heap_size_total_bytes'), external: metric('nodejs_external_memory_bytes') };
  } catch {
    return null;
  }
}

interface Run {
  label: string;
  readyS: number;
  rssAtReady: number;
  peak: number;
  rssIdle: number;
  anon: number;
  file: number;
  heap: Awaited<ReturnType<typeof heapFigures>>;
}

async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((r) => child.once('exit', r));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
  await exited;
  clearTimeout(timer);
}

async function measure(label: string, env: Record<string, string>): Promise<Run> {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const t0 = performance.now();
  const child = spawn(process.execPath, [...NODE_ARGS, MAIN], {
    cwd: path.join(root, 'server'),
    env: {
      ...process.env, NODE_ENV: 'production', HOST: '127.0.0.1', PORT: String(port), PUBLIC_URL: 'http://127.0.0.1',
      JWT_SECRET: SECRET, SEED_DEMO_DATA: 'true', ADMIN_EMAIL: 'admin@startup.local', ADMIN_PASSWORD: 'startup-password-123',
      LOG_LEVEL: 'error', METRICS_ACCESS: 'public', SHUTDOWN_DRAIN_SECONDS: '0', WEB_CONCURRENCY: '1', REDIS_URL: '',
      PAYPAL_CLIENT_ID: '', PAYPAL_CLIENT_SECRET: '', CJ_API_KEY: '', SMTP_URL: '', ...env,
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  try {
    let readyAt = 0;
    while (!readyAt) {
      if (child.exitCode !== null || child.signalCode !== null) throw new Error(`${label}: the server exited (${child.exitCode ?? child.signalCode}) before it was ready`);
      if (performance.now() - t0 > READY_TIMEOUT_MS) throw new Error(`${label}: not ready after ${READY_TIMEOUT_MS / 1000} s`);
      try {
        if ((await fetch(`${base}/api/ready`, { signal: AbortSignal.timeout(2_000) })).status === 200) readyAt = performance.now();
      } catch { /* not listening yet */ }
      if (!readyAt) await sleep(25);
    }
    const pid = child.pid!;
    const rssAtReady = procMb(pid, 'VmRSS');
    let rssIdle = rssAtReady;
    while (performance.now() - readyAt < SETTLE_S * 1000) {
      if (child.exitCode !== null) throw new Error(`${label}: the server exited (${child.exitCode}) while idle`);
      await sleep(Math.min(100, Math.max(0, SETTLE_S * 1000 - (performance.now() - readyAt))));
      rssIdle = procMb(pid, 'VmRSS');
    }
    const run: Run = {
      label, readyS: (readyAt - t0) / 1000, rssAtReady, peak: procMb(pid, 'VmHWM'), rssIdle,
      anon: procMb(pid, 'RssAnon'), file: procMb(pid, 'RssFile'), heap: null,
    };
    run.heap = await heapFigures(base); // after the RSS sample: serving /metrics allocates a little
    return run;
  } finally {
    await stop(child);
  }
}

function print(run: Run) {
  const mb = (n: number) => `${n.toFixed(0)} MB`;
  const heap = run.heap ? `; V8 heap ${run.heap.heapUsed.toFixed(0)}/${run.heap.heapTotal.toFixed(0)} MB, external ${run.heap.external.toFixed(0)} MB` : '';
  console.info(`${run.label.padEnd(30)} ready ${run.readyS.toFixed(2).padStart(5)} s | RSS at ready ${mb(run.rssAtReady).padStart(6)}, peak ${mb(run.peak).padStart(6)}, ` +
    `${SETTLE_S} s after ready ${mb(run.rssIdle).padStart(6)} (anon ${mb(run.anon)}, file ${mb(run.file)}${heap})`);
}

async function main() {
  if (!existsSync(MAIN)) {
    console.error(`startup: ${path.relative(root, MAIN)} is missing: run \`npm run build -w server\` first (this benchmark builds nothing).`);
    process.exit(1);
  }
  console.info(`startup: node server/dist/main.js${NODE_ARGS.length ? ` (node ${NODE_ARGS.join(' ')})` : ''}, demo data seeded on the first start; idle RSS ${SETTLE_S} s after /api/ready; load ${readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ')}`);
  const runs: Run[] = [];
  const noWeb = mkdtempSync(path.join(tmpdir(), 'shop-startup-web-'));
  try {
    if (DBS.includes('pglite')) {
      const dataDir = mkdtempSync(path.join(tmpdir(), 'shop-startup-'));
      try {
        const env = { DATABASE_URL: '', DATA_DIR: dataDir, WEB_DIST_DIR: noWeb };
        for (const label of ['PGlite, fresh data dir', 'PGlite, second start']) {
          runs.push(await measure(label, env));
          print(runs.at(-1)!);
        }
      } finally {
        rmSync(dataDir, { recursive: true, force: true });
      }
    }
    if (DBS.includes('postgres')) {
      const scratch = await createScratchDatabase(DB_BASE, 'shop_bench_startup');
      const dataDir = mkdtempSync(path.join(tmpdir(), 'shop-startup-pg-'));
      try {
        const env = { DATABASE_URL: scratch.url, DATABASE_POOL_SIZE: '10', DATA_DIR: dataDir, WEB_DIST_DIR: noWeb };
        for (const label of ['PostgreSQL, empty database', 'PostgreSQL, second start']) {
          runs.push(await measure(label, env));
          print(runs.at(-1)!);
        }
      } finally {
        await scratch.drop();
        rmSync(dataDir, { recursive: true, force: true });
      }
    }
  } finally {
    rmSync(noWeb, { recursive: true, force: true });
  }
  console.info('\nstart to healthy (spawn → /api/ready 200) and memory at idle (RSS after the settle time):');
  for (const r of runs) console.info(`  ${r.label.padEnd(28)} ${r.readyS.toFixed(2).padStart(5)} s   ${r.rssIdle.toFixed(0).padStart(4)} MB (peak ${r.peak.toFixed(0)} MB)`);
}

main().then(() => process.exit(process.exitCode ?? 0), (err: unknown) => { console.error(err); process.exit(1); });
