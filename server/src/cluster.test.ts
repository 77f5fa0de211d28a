import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { get as httpGet } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { clusterPlan } from './cluster.ts';
import { createScratchPostgres, TEST_DB } from './test/test-app.ts';
import { freePort } from './test/ports.ts';
import { flushIsolatedRedis, isolatedRedisUrl } from './test/redis.ts';

describe('clusterPlan (WEB_CONCURRENCY)', () => {
  const pg = 'postgres://localhost/shop';
  const redis = 'redis://localhost:6379';

  it('forks the workers asked for on PostgreSQL with Redis', () => {
    expect(clusterPlan({ webConcurrency: 4, databaseUrl: pg, redisUrl: redis })).toEqual({ workers: 4 });
    expect(clusterPlan({ webConcurrency: 1, databaseUrl: pg, redisUrl: redis })).toEqual({ workers: 1 });
  });

  it('runs one process on PGlite, and says why', () => {
    const plan = clusterPlan({ webConcurrency: 3, databaseUrl: undefined, redisUrl: redis });
    expect(plan.workers).toBe(1);
    expect(plan.note).toMatch(/WEB_CONCURRENCY=3 ignored: the embedded PGlite database can be opened by one process only/);
  });

  it('runs one process without Redis, and says why', () => {
    const plan = clusterPlan({ webConcurrency: 2, databaseUrl: pg, redisUrl: undefined });
    expect(plan.workers).toBe(1);
    expect(plan.note).toMatch(/without REDIS_URL/);
  });
});

/** One GET on a new connection (no keep-alive), so the primary hands each to the next worker. */
const status = (url: string) =>
  new Promise<number>((resolve, reject) => {
    const req = httpGet(url, { agent: false, timeout: 10_000 }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('timeout', () => req.destroy(new Error(`GET ${url} timed out`)));
    req.on('error', reject);
  });
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const exitOf = (child: ChildProcess) =>
  new Promise<number | null>((resolve) => (child.exitCode !== null ? resolve(child.exitCode) : child.once('exit', (code) => resolve(code))));
const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

const REDIS_URL = isolatedRedisUrl('cluster');

// The real entry point with WEB_CONCURRENCY=2 on PostgreSQL + Redis: two worker processes answer on
// one port, a worker killed with SIGKILL is replaced, and SIGTERM to the primary drains them all.
describe.runIf(TEST_DB === 'postgres' && REDIS_URL)('WEB_CONCURRENCY=2 (node:cluster)', () => {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'shop-cluster-'));
  let scratch: { url: string; drop: () => Promise<void> } | undefined;
  let child: ChildProcess | undefined;
  afterAll(async () => {
    if (child && child.exitCode === null) {
      child.kill('SIGKILL');
      await exitOf(child);
    }
    await scratch?.drop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('serves from two workers, restarts a dead one and stops cleanly on SIGTERM', async () => {
    scratch = await createScratchPostgres();
    await flushIsolatedRedis(REDIS_URL!);
    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    let out = '';
    child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
      cwd: path.resolve(import.meta.dirname, '..'),
      env: {
        ...process.env, NODE_ENV: 'test', PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, LOG_LEVEL: 'info',
        DATABASE_URL: scratch.url, DATABASE_POOL_SIZE: '3', REDIS_URL: REDIS_URL!, WEB_CONCURRENCY: '2', SEED_DEMO_DATA: 'true',
        WEB_DIST_DIR: path.join(dataDir, 'no-web'), SHUTDOWN_DRAIN_SECONDS: '1', JOBS_POLL_MS: '0',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout?.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr?.on('data', (d: Buffer) => (out += d.toString()));

    const readyPids = () => [...out.matchAll(/Shop ready on .*worker \d+ pid (\d+)\)/g)].map((m) => Number(m[1]));
    const waitFor = async (what: string, ok: () => boolean, ms = 90_000) => {
      const deadline = Date.now() + ms;
      while (!ok()) {
        if (child?.exitCode !== null) throw new Error(`server exited early:\n${out}`);
        if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}:\n${out}`);
        await sleep(200);
      }
    };
    await waitFor('two workers', () => readyPids().length >= 2);
    expect(out).toContain('starting 2 workers (WEB_CONCURRENCY)');
    const [first, second] = readyPids() as [number, number];
    expect(first).not.toBe(second);

    // Each request on a new connection: the primary hands connections to the workers in turn.
    const answeredBy = async (n: number) => {
      const before = out.length;
      for (let i = 0; i < n; i += 1) {
        expect(await status(`${base}/api/ready`)).toBe(200);
      }
      await sleep(300);
      return new Set([...out.slice(before).matchAll(/"pid":(\d+)[^\n]*"route":"\/api\/ready","status":200/g)].map((m) => Number(m[1])));
    };
    expect(await answeredBy(20)).toEqual(new Set([first, second]));

    // A worker that dies is replaced; the other keeps serving meanwhile.
    // (A connection the primary hands over in the instant before it notices the death is lost: the
    // requests wait for the primary's line.)
    process.kill(first, 'SIGKILL');
    await waitFor('the primary to notice', () => out.includes(`shop worker ${first} died (SIGKILL)`));
    expect(await status(`${base}/api/ready`)).toBe(200);
    await waitFor('a replacement worker', () => readyPids().length >= 3);
    const replacement = readyPids()[2]!;
    expect(await answeredBy(20)).toEqual(new Set([second, replacement]));

    // SIGTERM to the primary: every worker drains (ready turns 503 while others still answer) and exits 0.
    child.kill('SIGTERM');
    await sleep(300);
    expect(await status(`${base}/api/ready`)).toBe(503);
    expect(await status(`${base}/api/health`)).toBe(200);
    expect(await exitOf(child)).toBe(0);
    expect(out).toContain('every worker has stopped');
    expect(alive(second) || alive(replacement)).toBe(false);
  }, 180_000);
});
