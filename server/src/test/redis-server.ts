import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { Redis } from 'ioredis';
import { freePort } from './ports.ts';

/** Whether a redis-server binary is on PATH (tests that stop and start their own Redis need one). */
export const hasRedisServer = spawnSync('redis-server', ['--version'], { stdio: 'ignore' }).status === 0;

/**
 * A redis-server of a test's own, on a free port, without persistence: `stop()` kills it (SIGKILL,
 * as a crash) and `start()` starts a new one on the same port.
 */
export interface TestRedisServer {
  readonly port: number;
  readonly url: string;
  start(): Promise<void>;
  stop(): Promise<void>;
  /** SIGSTOP / SIGCONT: a Redis that hangs with its connections open. */
  pause(): void;
  resume(): void;
}

export async function startRedisServer(): Promise<TestRedisServer> {
  const port = await freePort();
  let child: ChildProcess | undefined;
  const start = async () => {
    if (child) return;
    const proc = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], { stdio: 'ignore' });
    child = proc;
    const deadline = Date.now() + 20_000;
    while (Date.now() < deadline) {
      if (proc.exitCode !== null) throw new Error(`redis-server on port ${port} exited with ${proc.exitCode}`);
      const probe = new Redis({ port, host: '127.0.0.1', lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
      probe.on('error', () => undefined);
      try {
        await probe.connect();
        if ((await probe.ping()) === 'PONG') return;
      } catch {
        /* not listening yet */
      } finally {
        probe.disconnect();
      }
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new Error(`redis-server on port ${port} did not start`);
  };
  const stop = async () => {
    const proc = child;
    child = undefined;
    if (!proc || proc.exitCode !== null) return;
    const exited = new Promise((r) => proc.once('exit', r));
    proc.kill('SIGKILL');
    await exited;
  };
  await start();
  return {
    port, url: `redis://127.0.0.1:${port}/0`, start, stop,
    pause: () => { child?.kill('SIGSTOP'); },
    resume: () => { child?.kill('SIGCONT'); },
  };
}
