/**
 * The ceiling every benchmark measures in the same run: a bare Fastify route returning a prepared
 * 12-product JSON page (lib/ceiling-server.ts, in its own process), loaded like the benchmark loads
 * the shop. Machines differ and this one is shared, so absolute figures move from run to run; a
 * figure divided by the ceiling measured minutes apart moves much less. Every benchmark prints its
 * figures also as ratios to it:
 *   throughput: figure ÷ ceiling req/s (1.0 = as fast as the bare route; goal for search ≥ 0.2),
 *   latency:    figure ÷ the ceiling's p99 (1.0 = no slower than the bare route's worst 1 %).
 *
 *   const ceiling = await measureCeiling({ connections: 20, seconds: 10 });
 *   console.info(describeCeiling(ceiling));
 *   console.info(`search ${rps} req/s (${rpsRatio(rps, ceiling)})`);
 */
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { createInterface } from 'node:readline';
import autocannon from 'autocannon';

export interface LoadFigures { rps: number; p50: number; p99: number; failed: number }
export interface Ceiling extends LoadFigures { connections: number; seconds: number; bytes: number; how: string }
/** Loads `url` (the ceiling route) for `seconds`; the default is autocannon with `connections`. */
export type LoadFn = (url: string, seconds: number) => Promise<LoadFigures>;

export class CeilingServer {
  private constructor(private readonly child: ChildProcess, readonly url: string, readonly bytes: number) {}

  static async start(): Promise<CeilingServer> {
    const child = spawn(process.execPath, ['--import', 'tsx', path.join(import.meta.dirname, 'ceiling-server.ts')], {
      stdio: ['ignore', 'pipe', 'inherit', 'ipc'],
    });
    const first = await new Promise<string>((resolve, reject) => {
      child.once('exit', (code) => reject(new Error(`ceiling server exited with ${code}`)));
      createInterface({ input: child.stdout! }).once('line', resolve);
    });
    const { port, bytes } = JSON.parse(first) as { port: number; bytes: number };
    return new CeilingServer(child, `http://127.0.0.1:${port}/ceiling`, bytes);
  }

  /** Warms up for 1 s, then measures for `seconds`. */
  async measure(opts: { connections: number; seconds: number; load?: LoadFn; how?: string }): Promise<Ceiling> {
    const load = opts.load ?? autocannonLoad(opts.connections);
    await load(this.url, 1);
    const figures = await load(this.url, opts.seconds);
    return { ...figures, connections: opts.connections, seconds: opts.seconds, bytes: this.bytes, how: opts.how ?? `autocannon, ${opts.connections} connections` };
  }

  async stop(): Promise<void> {
    if (this.child.exitCode !== null) return;
    const exited = new Promise((r) => this.child.once('exit', r));
    this.child.disconnect();
    const timer = setTimeout(() => this.child.kill('SIGKILL'), 5000);
    await exited;
    clearTimeout(timer);
  }
}

/** Starts the ceiling's server, measures it once and stops it. */
export async function measureCeiling(opts: { connections: number; seconds: number; load?: LoadFn; how?: string }): Promise<Ceiling> {
  const server = await CeilingServer.start();
  try {
    return await server.measure(opts);
  } finally {
    await server.stop();
  }
}

export function autocannonLoad(connections: number): LoadFn {
  return async (url, seconds) => {
    const r = await autocannon({ url, connections, duration: seconds });
    return { rps: r.requests.average, p50: r.latency.p50, p99: r.latency.p99, failed: r.non2xx + r.errors };
  };
}

/** Two decimals, or two significant digits below 0.1 (a checkout is a small share of the ceiling). */
const two = (n: number) => (!Number.isFinite(n) ? '-' : n >= 0.1 || n === 0 ? n.toFixed(2) : n.toPrecision(2));
/** Throughput as a share of the ceiling's, e.g. "0.23 of ceiling". */
export const rpsRatio = (rps: number, ceiling: Pick<Ceiling, 'rps'>) => `${two(rps / ceiling.rps)} of ceiling`;
/** Latency as a multiple of the ceiling's p99 (autocannon rounds to whole ms, so p50 is often 0), e.g. "4.10× ceiling p99". */
export const latencyRatio = (ms: number, ceiling: Pick<Ceiling, 'p99'>) => `${two(ms / Math.max(0.1, ceiling.p99))}× ceiling p99`;
export const describeCeiling = (c: Ceiling) =>
  `ceiling (bare Fastify route, prepared 12-product JSON page of ${(c.bytes / 1024).toFixed(1)} KB; ${c.how}, ${c.seconds} s): `
  + `${Math.round(c.rps).toLocaleString('en-US')} req/s, p50 ${c.p50.toFixed(1)} ms, p99 ${c.p99.toFixed(1)} ms${c.failed ? `, ${c.failed} FAILED` : ''}`;
