import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { freePort } from '../../test/ports.ts';

export interface ShopInstance { child: ChildProcess; url: string; httpUrl: string; output: () => string }

/** Starts a real server process (src/main.ts) on a free port with `env`; resolves once /api/health answers. */
export async function startInstance(env: Record<string, string>): Promise<ShopInstance> {
  const port = await freePort();
  const dataDir = mkdtempSync(path.join(tmpdir(), 'shop-chat-inst-'));
  let out = '';
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
    cwd: path.resolve(import.meta.dirname, '../../..'),
    env: {
      ...process.env, NODE_ENV: 'test', PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, LOG_LEVEL: 'warn', WEB_DIST_DIR: path.join(dataDir, 'no-web'), SEED_DEMO_DATA: 'false', SHUTDOWN_DRAIN_SECONDS: '0', JOBS_POLL_MS: '0', ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout?.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr?.on('data', (d: Buffer) => (out += d.toString()));
  child.on('exit', () => rmSync(dataDir, { recursive: true, force: true }));
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`instance exited early:\n${out}`);
    try {
      if ((await fetch(`http://127.0.0.1:${port}/api/health`)).ok) return { child, url: `ws://127.0.0.1:${port}`, httpUrl: `http://127.0.0.1:${port}`, output: () => out };
    } catch { /* not up yet */ }
    await new Promise((r) => setTimeout(r, 200));
  }
  child.kill('SIGKILL');
  throw new Error(`instance did not start:\n${out}`);
}


/** Stops an instance (SIGTERM, then SIGKILL after 10 s). */
export async function stopInstance(inst: ShopInstance | undefined): Promise<void> {
  if (!inst || inst.child.exitCode !== null) return;
  const exited = new Promise((r) => inst.child.once('exit', r));
  inst.child.kill('SIGTERM');
  await Promise.race([exited, new Promise((r) => setTimeout(r, 10_000))]);
  if (inst.child.exitCode === null) inst.child.kill('SIGKILL');
}
