// `npm run fleet`: a fleet on one machine, for trying one and for the rolling-restart test.
// Starts N shop instances on one PostgreSQL database (each with its own DATA_DIR, as N machines
// would have) and HAProxy in front of them with the shipped deploy/haproxy.cfg. Ctrl-C (or SIGTERM)
// stops everything it started; SIGUSR2 restarts the instances one at a time, each with SIGTERM.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { findHaproxyBinary, readServerStates, renderFleetHaproxyConfig, type ServerState } from './haproxy.ts';

const ROOT = path.resolve(import.meta.dirname, '../../..');
const SERVER_DIR = path.join(ROOT, 'server');
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

const { values: args } = parseArgs({
  options: {
    instances: { type: 'string', default: '2' },
    port: { type: 'string', default: '3000' },
    'first-instance-port': { type: 'string' },
    'database-url': { type: 'string' },
    'data-dir': { type: 'string', default: path.join(ROOT, 'data', 'fleet') },
    'check-interval-ms': { type: 'string', default: '1000' },
    'drain-seconds': { type: 'string' },
    help: { type: 'boolean', short: 'h' },
  },
});

if (args.help) {
  console.info(`Usage: npm run fleet [-- options]
  --instances N              shop instances (default 2)
  --port P                   HAProxy's port (default 3000)
  --first-instance-port P    instances listen on P, P+1, ... on 127.0.0.1 (default: port + 1)
  --database-url URL         PostgreSQL database, created if missing (default: $DATABASE_URL, else
                             postgres://postgres@127.0.0.1:5432/shop_fleet)
  --data-dir DIR             app1/, app2/, ... and HAProxy's files (default ./data/fleet)
  --check-interval-ms MS     HAProxy health-check interval (default 1000; 2 failures mark an instance down)
  --drain-seconds S          SHUTDOWN_DRAIN_SECONDS of the instances (default: theirs, 5)
Other settings (REDIS_URL, JWT_SECRET, PAYPAL_*, ...) are passed to the instances from the environment.
Ctrl-C stops everything; \`kill -USR2 <pid>\` restarts the instances one at a time.`);
  process.exit(0);
}

const count = Number(args.instances);
const port = Number(args.port);
const firstPort = Number(args['first-instance-port'] ?? port + 1);
const checkIntervalMs = Number(args['check-interval-ms']);
const dataRoot = path.resolve(args['data-dir']);
const databaseUrl = args['database-url'] ?? process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/shop_fleet';
for (const [name, n] of [['instances', count], ['port', port], ['first-instance-port', firstPort], ['check-interval-ms', checkIntervalMs]] as const) {
  if (!Number.isInteger(n) || n <= 0) {
    console.error(`--${name} must be a positive whole number`);
    process.exit(1);
  }
}

const say = (line: string) => console.info(`[fleet] ${line}`);

/** Creates the database when the server answers that it does not exist. */
async function ensureDatabase(url: string) {
  const probe = new pg.Client({ connectionString: url });
  try {
    await probe.connect();
    await probe.end();
    return;
  } catch (err) {
    await probe.end().catch(() => undefined);
    if ((err as { code?: string }).code !== '3D000') throw err;
  }
  const target = new URL(url);
  const name = decodeURIComponent(target.pathname.slice(1));
  const admin = new URL(url);
  admin.pathname = '/postgres';
  const client = new pg.Client({ connectionString: admin.toString() });
  await client.connect();
  try {
    await client.query(`CREATE DATABASE "${name.replace(/"/g, '""')}"`);
    say(`created database ${name}`);
  } finally {
    await client.end();
  }
}

/** One JWT secret for the whole fleet: a session started on one instance is valid on every other. */
function fleetJwtSecret(): string {
  if (process.env.JWT_SECRET) return process.env.JWT_SECRET;
  const file = path.join(dataRoot, 'jwt-secret');
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  const secret = randomBytes(48).toString('base64url');
  writeFileSync(file, secret, { mode: 0o600 });
  return secret;
}

interface Instance {
  name: string;
  port: number;
  dataDir: string;
  child?: ChildProcess;
  /** Set while the fleet itself stops or restarts it (an exit then is expected). */
  stopping?: boolean;
}

function pipeLines(stream: NodeJS.ReadableStream | null, prefix: string) {
  if (!stream) return;
  createInterface({ input: stream }).on('line', (line) => console.info(`[${prefix}] ${line}`));
}

let shuttingDown = false;
let haproxy: ChildProcess | undefined;
const instances: Instance[] = Array.from({ length: count }, (_, i) => ({
  name: `app${i + 1}`,
  port: firstPort + i,
  dataDir: path.join(dataRoot, `app${i + 1}`),
}));
const statsSocket = path.join(dataRoot, 'haproxy.sock');

function startInstance(instance: Instance, env: NodeJS.ProcessEnv): ChildProcess {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
    cwd: SERVER_DIR,
    env: { ...env, PORT: String(instance.port), HOST: '127.0.0.1', DATA_DIR: instance.dataDir },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  instance.child = child;
  instance.stopping = false;
  pipeLines(child.stdout, instance.name);
  pipeLines(child.stderr, instance.name);
  child.on('exit', (code, signal) => {
    if (instance.child === child) instance.child = undefined;
    if (!instance.stopping && !shuttingDown) say(`${instance.name} (pid ${child.pid}) exited unexpectedly (${signal ?? `code ${code}`})`);
  });
  return child;
}

async function waitReady(instance: Instance, timeoutMs = 180_000) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (!instance.child) throw new Error(`${instance.name} exited while starting`);
    try {
      if ((await fetch(`http://127.0.0.1:${instance.port}/api/ready`)).status === 200) return;
    } catch {
      /* not listening yet */
    }
    await sleep(200);
  }
  throw new Error(`${instance.name} did not become ready`);
}

async function waitForBalancer(want: (s: ServerState | undefined) => boolean, instance: Instance, timeoutMs = 60_000): Promise<ServerState | undefined> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const state = (await readServerStates(statsSocket).catch(() => ({} as Record<string, ServerState>)))[instance.name];
    if (want(state)) return state;
    await sleep(Math.min(200, checkIntervalMs / 2));
  }
  throw new Error(`HAProxy did not see ${instance.name} change in time`);
}

const exitOf = (child: ChildProcess) =>
  new Promise<number | null>((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) resolve(child.exitCode);
    else child.once('exit', (code) => resolve(code));
  });

let restarting = false;
async function rollingRestart(env: NodeJS.ProcessEnv) {
  if (restarting || shuttingDown) return;
  restarting = true;
  say('rolling restart: one instance at a time');
  try {
    for (const instance of instances) {
      const old = instance.child;
      if (old) {
        instance.stopping = true;
        say(`${instance.name}: SIGTERM to pid ${old.pid} (drains, then exits)`);
        old.kill('SIGTERM');
        const down = await waitForBalancer((s) => s?.status === 'DOWN', instance);
        say(`${instance.name}: HAProxy marked it ${down?.status} (check: ${down?.checkStatus})`);
        const code = await exitOf(old);
        say(`${instance.name}: pid ${old.pid} exited with code ${code}`);
      }
      if (shuttingDown) return;
      const child = startInstance(instance, env);
      await waitReady(instance);
      await waitForBalancer((s) => s?.status === 'UP', instance);
      say(`${instance.name}: pid ${child.pid} ready and UP in HAProxy`);
    }
    say('rolling restart done');
  } catch (err) {
    say(`rolling restart failed: ${(err as Error).message}`);
  } finally {
    restarting = false;
  }
}

async function stopAll(code: number) {
  if (shuttingDown) return;
  shuttingDown = true;
  say('stopping');
  // The whole fleet is going away: no balancer to drain for, so instances stop at once (SIGINT).
  const exits = instances.filter((i) => i.child).map((i) => {
    i.stopping = true;
    i.child!.kill('SIGINT');
    return exitOf(i.child!);
  });
  if (haproxy && haproxy.exitCode === null) {
    haproxy.kill('SIGTERM');
    exits.push(exitOf(haproxy));
  }
  await Promise.all(exits);
  rmSync(statsSocket, { force: true });
  say('stopped');
  process.exit(code);
}

async function main() {
  const haproxyBin = findHaproxyBinary();
  if (!haproxyBin) throw new Error('HAProxy is not installed (Debian: apt-get install haproxy)');
  mkdirSync(dataRoot, { recursive: true });
  await ensureDatabase(databaseUrl);

  const env: NodeJS.ProcessEnv = {
    ...process.env,
    DATABASE_URL: databaseUrl,
    TRUST_PROXY: 'true',
    JWT_SECRET: fleetJwtSecret(),
    ...(args['drain-seconds'] !== undefined ? { SHUTDOWN_DRAIN_SECONDS: args['drain-seconds'] } : {}),
  };
  if (!process.env.WEB_DIST_DIR) {
    const built = spawnSync(process.execPath, [path.join(ROOT, 'scripts/build-web-if-stale.mjs')], { stdio: 'inherit' });
    if (built.status !== 0) throw new Error('building the web app failed');
  }
  if (!process.env.REDIS_URL) say('REDIS_URL is not set: rate limits are counted per instance');

  process.on('SIGINT', () => void stopAll(0));
  process.on('SIGTERM', () => void stopAll(0));
  process.on('SIGUSR2', () => void rollingRestart(env));

  // The first instance migrates and seeds an empty database; the others then start together.
  const [first, ...rest] = instances as [Instance, ...Instance[]];
  startInstance(first, env);
  await waitReady(first);
  for (const i of rest) startInstance(i, env);
  await Promise.all(rest.map((i) => waitReady(i)));

  const configFile = path.join(dataRoot, 'haproxy.cfg');
  writeFileSync(configFile, renderFleetHaproxyConfig({ port, servers: instances, statsSocket, checkIntervalMs }));
  rmSync(statsSocket, { force: true });
  haproxy = spawn(haproxyBin, ['-db', '-f', configFile], { stdio: ['ignore', 'pipe', 'pipe'] });
  pipeLines(haproxy.stdout, 'haproxy');
  pipeLines(haproxy.stderr, 'haproxy');
  haproxy.on('exit', (code) => {
    if (!shuttingDown) {
      say(`HAProxy exited (code ${code}); stopping the fleet`);
      void stopAll(1);
    }
  });
  for (const i of instances) await waitForBalancer((s) => s?.status === 'UP', i);
  say(`ready on http://localhost:${port} (HAProxy pid ${haproxy.pid}) -> ${instances.map((i) => `${i.name} pid ${i.child?.pid} on :${i.port}`).join(', ')}`);
  say(`Ctrl-C stops everything; kill -USR2 ${process.pid} restarts the instances one at a time`);
}

main().catch((err: unknown) => {
  console.error(`[fleet] ${err instanceof Error ? err.message : String(err)}`);
  void stopAll(1);
});
