import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { networkInterfaces, tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { demoImageKeys } from './db/seed/demo-images.ts';
import { TEST_DB } from './test/test-app.ts';
import { freePort } from './test/ports.ts';

// Starts the real entry point as a child process: the second start must reuse the data dir, and
// SIGTERM must stop it cleanly. Runs once (on the PGlite project), since it exercises the embedded default.

const SERVER_DIR = path.resolve(import.meta.dirname, '..');
/** How long a start may take before the test gives up, and each case's limit (a slow machine is not a failure). */
const START_WAIT_MS = 420_000;
const CASE_TIMEOUT_MS = 900_000;
const TSX_MAIN = ['--import', 'tsx', 'src/main.ts'];

function spawnMain(dataDir: string, port: number, env: Record<string, string> = {}, args = TSX_MAIN) {
  let out = '';
  const child = spawn(process.execPath, args, {
    cwd: path.resolve(import.meta.dirname, '..'),
    env: {
      ...process.env, NODE_ENV: 'test', PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, LOG_LEVEL: 'warn',
      DATABASE_URL: '', REDIS_URL: '', WEB_DIST_DIR: path.join(dataDir, 'no-web'), SEED_DEMO_DATA: 'true', SHUTDOWN_DRAIN_SECONDS: '0', ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout?.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr?.on('data', (d: Buffer) => (out += d.toString()));
  return { child, output: () => out };
}

async function start(dataDir: string, port: number, env: Record<string, string> = {}, args = TSX_MAIN): Promise<{ child: ChildProcess; output: () => string }> {
  const { child, output } = spawnMain(dataDir, port, env, args);
  const out = { get value() { return output(); } };
  // Generous: on a busy 2-core machine a start through tsx (compiling the server on the fly, then
  // migrating and seeding PGlite) has taken over two minutes; a healthy start ends the wait at once.
  const deadline = Date.now() + START_WAIT_MS;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`server exited early:\n${out.value}`);
    try {
      const res = await fetch(`http://127.0.0.1:${port}/api/health`);
      if (res.ok) return { child, output };
    } catch {
      /* not up yet */
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  child.kill('SIGKILL');
  throw new Error(`server did not become healthy:\n${out.value}`);
}

/** Waits until the server has printed `text` (the start banner comes just after the port opens). */
async function printed(server: { output: () => string }, text: string): Promise<string> {
  for (let i = 0; i < 600 && !server.output().includes(text); i += 1) await new Promise((r) => setTimeout(r, 100));
  return server.output();
}

const exitOf = (child: ChildProcess) =>
  new Promise<number | null>((resolve) => {
    if (child.exitCode !== null) resolve(child.exitCode);
    else child.on('exit', (code) => resolve(code));
  });

// The three cases use their own data directories and ports, so they run side by side (each mostly
// waits for a child process to start or stop).
describe.runIf(TEST_DB === 'pglite')('main.ts', { concurrent: true }, () => {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'shop-main-'));
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it('seeds once, reuses the data on a second start, and shuts down cleanly on SIGTERM', async () => {
    const port = await freePort();
    // At debug level outside production the server prints mail it cannot send (no SMTP_URL),
    // which is how a sign-up is confirmed here.
    const first = await start(dataDir, port, { LOG_LEVEL: 'debug' });
    expect(await printed(first, 'demo customer:')).toContain('  demo admin: admin@example.com / admin1234');
    // The fresh database was prepared by a child process; the demo images are drawn after the
    // start, and one asked for at once is drawn for that request.
    const product = await (await fetch(`http://127.0.0.1:${port}/api/products/slug/aurora-wireless-headphones`)).json() as { image: string; images: string[] };
    const image = await fetch(`http://127.0.0.1:${port}${product.images[1]}`);
    expect(image.status).toBe(200);
    expect(image.headers.get('content-type')).toBe('image/webp');
    const uploads = path.join(dataDir, 'uploads');
    const drawn = () => (existsSync(uploads) ? readdirSync(uploads).filter((f) => /^seed-.*\.webp$/.test(f)).length : 0);
    for (let i = 0; i < 600 && drawn() < demoImageKeys().length; i += 1) await new Promise((r) => setTimeout(r, 100));
    expect(drawn()).toBe(demoImageKeys().length);
    const email = `restart-${Date.now()}@example.com`;
    const signup = await fetch(`http://127.0.0.1:${port}/api/users/signup`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Restart', email, password: 'password123' }),
    });
    expect(signup.status).toBe(202);
    let token: string | undefined;
    for (let i = 0; i < 50 && !token; i += 1) {
      token = /\/confirm-signup\?token=([\w-]+)/.exec(first.output())?.[1];
      if (!token) await new Promise((r) => setTimeout(r, 100));
    }
    expect(token).toBeTruthy();
    const confirm = await fetch(`http://127.0.0.1:${port}/api/users/confirm-signup`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ token }),
    });
    expect(confirm.status).toBe(201);
    first.child.kill('SIGTERM');
    expect(await exitOf(first.child)).toBe(0);

    const second = await start(dataDir, port);
    // Nothing is seeded twice, and the account made before the restart still signs in. The demo
    // accounts still have their demo passwords: every start lists them, not only the seeding one.
    expect(second.output()).not.toContain('seeded account');
    expect(await printed(second, 'demo customer:')).toContain('  demo admin: admin@example.com / admin1234');
    expect(second.output()).toContain('  demo customer: jane@example.com / jane1234');
    const signin = await fetch(`http://127.0.0.1:${port}/api/users/signin`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email, password: 'password123' }),
    });
    expect(signin.status).toBe(200);
    second.child.kill('SIGTERM');
    expect(await exitOf(second.child)).toBe(0);
  }, CASE_TIMEOUT_MS);

  it('on SIGTERM answers 503 on /api/ready while still serving for SHUTDOWN_DRAIN_SECONDS, then exits 0; one process per embedded database', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'shop-drain-'));
    const port = await freePort();
    const server = await start(dir, port, { SEED_DEMO_DATA: 'false', SHUTDOWN_DRAIN_SECONDS: '1.5' });
    try {
      // A second server on the same embedded database would corrupt it: it refuses to start.
      const other = spawnMain(dir, await freePort(), { SEED_DEMO_DATA: 'false' });
      expect(await exitOf(other.child)).toBe(1);
      expect(other.output()).toContain(`The embedded database in ${path.join(dir, 'pglite')} is in use by process ${server.child.pid} (the shop server). Stop it first: only one process may open it at a time.`);

      expect((await fetch(`http://127.0.0.1:${port}/api/ready`)).status).toBe(200);
      const signalledAt = Date.now();
      server.child.kill('SIGTERM');
      let ready = 200;
      while (ready === 200 && Date.now() - signalledAt < 1000) {
        ready = (await fetch(`http://127.0.0.1:${port}/api/ready`)).status;
      }
      expect(ready).toBe(503);
      const health = await fetch(`http://127.0.0.1:${port}/api/health`);
      expect(health.status).toBe(200);
      expect(await exitOf(server.child)).toBe(0);
      expect(Date.now() - signalledAt).toBeGreaterThanOrEqual(1500);
      expect(existsSync(`${path.join(dir, 'pglite')}.pid`)).toBe(false);
    } finally {
      server.child.kill('SIGKILL');
      rmSync(dir, { recursive: true, force: true });
    }
  }, CASE_TIMEOUT_MS);

  // An address of this machine that is not loopback (a request to it arrives from it, not from 127.0.0.1).
  const otherAddress = Object.values(networkInterfaces()).flat().find((i) => i && i.family === 'IPv4' && !i.internal)?.address;

  it('outside production it listens on 127.0.0.1 unless HOST says otherwise; exposed, the mailbox still answers this machine only', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'shop-host-'));
    const port = await freePort();
    const refusedOn = async (url: string) => fetch(url).then(() => 'answered', (err: Error & { cause?: { code?: string } }) => err.cause?.code ?? err.message);
    try {
      const local = await start(dir, port, { HOST: '', SEED_DEMO_DATA: 'false' });
      try {
        expect(await printed(local, 'Development mailbox')).toContain(`Shop ready on http://localhost:${port} (listening on 127.0.0.1: this machine only;`);
        expect(local.output()).toContain(`Development mailbox (no SMTP_URL, mail is kept, not sent): http://localhost:${port}/dev/mailbox`);
        expect((await fetch(`http://127.0.0.1:${port}/api/dev/mailbox`)).status).toBe(200);
        if (otherAddress) expect(await refusedOn(`http://${otherAddress}:${port}/api/health`)).toBe('ECONNREFUSED');
      } finally {
        local.child.kill('SIGTERM');
        await exitOf(local.child);
      }

      const exposed = await start(dir, port, { HOST: '0.0.0.0', SEED_DEMO_DATA: 'false' });
      try {
        expect(await printed(exposed, 'Development mailbox')).toContain(`Shop ready on http://localhost:${port} (listening on 0.0.0.0: reachable from other machines;`);
        expect(exposed.output()).toContain(`Development mailbox: off for other machines (it holds every account's sign-up and password-reset links); on this machine only: http://localhost:${port}/dev/mailbox`);
        expect(exposed.output()).toContain(`Links in e-mails and pages point to http://localhost:${port}: set PUBLIC_URL`);
        expect((await fetch(`http://127.0.0.1:${port}/api/dev/mailbox`)).status).toBe(200);
        expect((await fetch(`http://localhost:${port}/api/dev/mailbox`)).status).toBe(200);
        if (otherAddress) {
          // Over a real connection from a non-loopback address of this machine: the unknown route's 404.
          expect((await fetch(`http://${otherAddress}:${port}/api/health`)).status).toBe(200);
          const mailbox = await fetch(`http://${otherAddress}:${port}/api/dev/mailbox`);
          expect(mailbox.status).toBe(404);
          expect(await mailbox.json()).toEqual({ message: 'Route GET /api/dev/mailbox not found', code: 'NOT_FOUND' });
          // and no header makes it local
          const forged = await fetch(`http://${otherAddress}:${port}/api/dev/mailbox`, { headers: { 'x-forwarded-for': '127.0.0.1', host: 'localhost' } });
          expect(forged.status).toBe(404);
        }
      } finally {
        exposed.child.kill('SIGTERM');
        await exitOf(exposed.child);
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, CASE_TIMEOUT_MS);

  it('npm start runs the compiled server: server/dist builds and starts without tsx, with its migrations and assets', async () => {
    // Built in a child process without blocking this one: the other cases of the file run meanwhile
    // and must keep answering their own waits (a synchronous build froze them all).
    const build = await promisify(execFile)(process.execPath, [path.join(SERVER_DIR, '../scripts/build-server.mjs')], { encoding: 'utf8', maxBuffer: 16 * 1024 * 1024 })
      .then(({ stdout, stderr }) => ({ status: 0, output: stdout + stderr }), (err: { code?: number; stdout?: string; stderr?: string }) => ({ status: err.code ?? 1, output: `${err.stderr ?? ''}${err.stdout ?? ''}` }));
    expect(build.status, build.output).toBe(0);
    const dist = path.join(SERVER_DIR, 'dist');
    // Files read next to the code at run time are copied beside the JavaScript.
    const sql = (dir: string) => readdirSync(dir).filter((f) => f.endsWith('.sql')).sort();
    expect(sql(path.join(dist, 'db/migrations'))).toEqual(sql(path.join(SERVER_DIR, 'src/db/migrations')));
    expect(existsSync(path.join(dist, 'main.test.js'))).toBe(false);

    const dir = mkdtempSync(path.join(tmpdir(), 'shop-dist-'));
    const port = await freePort();
    // WEB_CONCURRENCY is not honoured on the embedded database: one process, and a line saying why.
    const server = await start(dir, port, { WEB_CONCURRENCY: '2' }, [path.join(dist, 'main.js')]);
    try {
      expect(server.output()).toContain('WEB_CONCURRENCY=2 ignored: the embedded PGlite database can be opened by one process only');
      expect((await fetch(`http://127.0.0.1:${port}/api/ready`)).status).toBe(200);
      const search = await fetch(`http://127.0.0.1:${port}/api/products/search?query=headphones`);
      expect(search.status).toBe(200);
      expect(((await search.json()) as { products: unknown[] }).products.length).toBeGreaterThan(0);
      server.child.kill('SIGTERM');
      expect(await exitOf(server.child)).toBe(0);
    } finally {
      server.child.kill('SIGKILL');
      rmSync(dir, { recursive: true, force: true });
    }
  }, CASE_TIMEOUT_MS);
});
