import cluster, { type Worker } from 'node:cluster';
import type { Config } from './config.ts';

/**
 * WEB_CONCURRENCY: one instance runs as a primary process that forks that many workers sharing the
 * port (node:cluster), so one instance uses every core. Each worker is a full server (its own
 * database pool, job runner, chat sockets), like one more instance of a fleet — which is why it is
 * honoured only where a fleet works: on PostgreSQL (PGlite is opened by one process only) and with
 * Redis (rate limits, chat presence and fan-out must be shared between the processes).
 */
export interface ClusterPlan {
  workers: number;
  /** Why WEB_CONCURRENCY was not honoured, printed once at start. */
  note?: string;
}

export function clusterPlan(config: Pick<Config, 'webConcurrency' | 'databaseUrl' | 'redisUrl'>): ClusterPlan {
  const asked = config.webConcurrency;
  if (asked <= 1) return { workers: 1 };
  if (!config.databaseUrl) {
    return { workers: 1, note: `WEB_CONCURRENCY=${asked} ignored: the embedded PGlite database can be opened by one process only, so the shop runs as 1 process (set DATABASE_URL to run ${asked})` };
  }
  if (!config.redisUrl) {
    return { workers: 1, note: `WEB_CONCURRENCY=${asked} ignored: without REDIS_URL each process would keep its own rate limits and chat presence, so the shop runs as 1 process (set REDIS_URL to run ${asked})` };
  }
  return { workers: asked };
}

export interface PrimaryOptions {
  workers: number;
  /** The workers' drain and in-flight budget (config.shutdown); the primary waits a little longer. */
  shutdown: { drainSeconds: number; timeoutSeconds: number };
}

const RESTART_DELAY_MS = { first: 1000, max: 30_000 };
/** A worker that stayed up this long resets the restart backoff. */
const HEALTHY_AFTER_MS = 30_000;

/**
 * The primary: forks the workers, restarts one that dies (after 1 s, doubling up to 30 s while
 * workers keep dying young), and on SIGTERM/SIGINT passes the signal to every worker — each drains
 * as a single instance does (/api/ready 503, keep serving, close) — and exits once all have exited:
 * 0 when every worker exited 0.
 */
export function runPrimary(opts: PrimaryOptions): void {
  let stopping = false;
  let failures = 0;
  let restarts = 0;
  const startedAt = new Map<Worker, number>();
  const fork = () => {
    const worker = cluster.fork();
    startedAt.set(worker, Date.now());
  };

  cluster.on('exit', (worker, code, signal) => {
    const lived = Date.now() - (startedAt.get(worker) ?? Date.now());
    startedAt.delete(worker);
    if (stopping) {
      // A worker still starting when the signal came has no handler yet and dies of it: not a failure.
      if (code !== 0 && signal !== 'SIGTERM' && signal !== 'SIGINT') failures += 1;
      if (Object.keys(cluster.workers ?? {}).length === 0) {
        console.info(`shop primary ${process.pid}: every worker has stopped`);
        process.exit(failures ? 1 : 0);
      }
      return;
    }
    restarts = lived >= HEALTHY_AFTER_MS ? 0 : restarts + 1;
    const delay = Math.min(RESTART_DELAY_MS.max, RESTART_DELAY_MS.first * 2 ** Math.max(0, restarts - 1));
    console.error(`shop worker ${worker.process.pid} died (${signal ?? `exit code ${code}`}); starting another in ${delay / 1000} s`);
    setTimeout(() => {
      if (!stopping) fork();
    }, delay);
  });

  const stop = (signal: 'SIGTERM' | 'SIGINT') => {
    if (stopping) return;
    stopping = true;
    const workers = Object.values(cluster.workers ?? {}).filter((w): w is Worker => w !== undefined);
    console.info(`shop primary ${process.pid}: ${signal}, stopping ${workers.length} workers`);
    if (workers.length === 0) process.exit(0);
    for (const worker of workers) worker.process.kill(signal);
    const grace = signal === 'SIGTERM' ? opts.shutdown.drainSeconds : 0;
    setTimeout(() => {
      console.error(`shop primary ${process.pid}: workers did not stop in time; killing them`);
      for (const worker of Object.values(cluster.workers ?? {})) worker?.process.kill('SIGKILL');
      process.exit(1);
    }, (grace + opts.shutdown.timeoutSeconds + 5) * 1000).unref();
  };
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));

  console.info(`shop primary ${process.pid}: starting ${opts.workers} workers (WEB_CONCURRENCY)`);
  for (let i = 0; i < opts.workers; i += 1) fork();
}
