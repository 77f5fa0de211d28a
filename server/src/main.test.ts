import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { TEST_DB } from './test/test-app.ts';

// Starts the real entry point as a child process: the second start must reuse the data dir, and
// SIGTERM must stop it cleanly. Runs once (on the PGlite project), since it exercises the embedded default.
const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const srv = createServer();
    srv.listen(0, '127.0.0.1', () => {
      const addr = srv.address();
      srv.close(() => (addr && typeof addr === 'object' ? resolve(addr.port) : reject(new Error('no port'))));
    });
  });

async function start(dataDir: string, port: number): Promise<{ child: ChildProcess; output: () => string }> {
  let out = '';
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
    cwd: path.resolve(import.meta.dirname, '..'),
    env: {
      ...process.env, NODE_ENV: 'test', PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, LOG_LEVEL: 'warn',
      DATABASE_URL: '', REDIS_URL: '', WEB_DIST_DIR: path.join(dataDir, 'no-web'), SEED_DEMO_DATA: 'true',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout?.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr?.on('data', (d: Buffer) => (out += d.toString()));
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`server exited early:\n${out}`);
    try {
      const res = await fetch(`http://127.0.0.1:${port}/api/health`);
      if (res.ok) return { child, output: () => out };
    } catch {
      /* not up yet */
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  child.kill('SIGKILL');
  throw new Error(`server did not become healthy:\n${out}`);
}

const exitOf = (child: ChildProcess) =>
  new Promise<number | null>((resolve) => {
    if (child.exitCode !== null) resolve(child.exitCode);
    else child.on('exit', (code) => resolve(code));
  });

describe.runIf(TEST_DB === 'pglite')('main.ts', () => {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'shop-main-'));
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it('seeds once, reuses the data on a second start, and shuts down cleanly on SIGTERM', async () => {
    const port = await freePort();
    const first = await start(dataDir, port);
    expect(first.output()).toContain('demo admin: admin@example.com');
    const email = `restart-${Date.now()}@example.com`;
    const signup = await fetch(`http://127.0.0.1:${port}/api/users/signup`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Restart', email, password: 'password123' }),
    });
    expect(signup.status).toBe(201);
    first.child.kill('SIGTERM');
    expect(await exitOf(first.child)).toBe(0);

    const second = await start(dataDir, port);
    // Nothing is seeded twice, and the account made before the restart still signs in.
    expect(second.output()).not.toContain('demo admin:');
    const signin = await fetch(`http://127.0.0.1:${port}/api/users/signin`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email, password: 'password123' }),
    });
    expect(signin.status).toBe(200);
    second.child.kill('SIGTERM');
    expect(await exitOf(second.child)).toBe(0);
  }, 150_000);
});
