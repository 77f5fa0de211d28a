// The container image and the container fleet (deploy/container/):
//
//   npm run image          builds localhost/shop:latest (podman, or docker when that is what the machine has)
//   npm run fleet:up       PostgreSQL, Redis, three shops and HAProxy with compose (podman-compose or docker
//                          compose); on its first run it writes deploy/container/shop.env from
//                          shop.env.example with fresh random secrets, and prints where the shop is
//   npm run fleet:roll     a rolling upgrade to the image now tagged SHOP_IMAGE (after `npm run image`): one
//                          shop at a time drains and stops, is made again from the new image, and must answer
//                          /api/ready before the next one goes (HAProxy keeps serving from the others)
//   npm run fleet:down     stops and removes the fleet's containers (each drains first); the named volumes,
//                          and so the shop's data, stay (`npm run fleet:down -- --volumes` removes them too)
//
// Settings (environment): CONTAINER_ENGINE (podman | docker), COMPOSE (the compose command, e.g.
// "docker compose"), SHOP_IMAGE (default localhost/shop:latest), SHOP_BASE_IMAGE (the image's base;
// default the official node:20-bookworm-slim, or, when that cannot be pulled, the local base that
// deploy/container/local/make-base.sh made from Debian's packages), SHOP_PROJECT (the compose project, default shop), and
// compose.yaml's own (SHOP_ENV_FILE, SHOP_PUBLISH, POSTGRES_IMAGE, REDIS_IMAGE, HAPROXY_IMAGE).
// docs/operations.md has the rest.
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

export const root = path.resolve(import.meta.dirname, '..');
export const containerDir = path.join(root, 'deploy/container');
export const composeFile = path.join(containerDir, 'compose.yaml');
export const DEFAULT_IMAGE = 'localhost/shop:latest';

const runs = (cmd, args) => spawnSync(cmd, args, { stdio: 'ignore' }).status === 0;

/** podman or docker: CONTAINER_ENGINE, else the first that answers. */
export function containerEngine() {
  const chosen = process.env.CONTAINER_ENGINE;
  if (chosen) return chosen;
  for (const engine of ['podman', 'docker']) if (runs(engine, ['--version'])) return engine;
  throw new Error('Neither podman nor docker is installed (Debian: apt-get install podman podman-compose)');
}

/** The compose command for the engine: COMPOSE, else podman-compose or `docker compose`. */
export function composeCommand(engine) {
  if (process.env.COMPOSE) return process.env.COMPOSE.split(/\s+/).filter(Boolean);
  if (engine === 'podman') {
    if (runs('podman-compose', ['--version'])) return ['podman-compose'];
    if (runs('podman', ['compose', '--help'])) return ['podman', 'compose'];
    throw new Error('podman-compose is not installed (Debian: apt-get install podman-compose)');
  }
  return ['docker', 'compose'];
}

/**
 * The environment for podman: on a machine with no containers.conf of its own, this project's
 * deploy/container/containers.conf (no default ulimits, which some VMs refuse; podman's defaults otherwise).
 */
export function engineEnv(engine, env = process.env) {
  if (engine !== 'podman' || env.CONTAINERS_CONF) return { ...env };
  const own = ['/etc/containers/containers.conf', path.join(homedir(), '.config/containers/containers.conf')];
  if (own.some((f) => existsSync(f))) return { ...env };
  return { ...env, CONTAINERS_CONF: path.join(containerDir, 'containers.conf') };
}

function run(cmd, args, env) {
  const r = spawnSync(cmd, args, { stdio: 'inherit', env, cwd: root });
  if (r.status !== 0) throw new Error(`${[cmd, ...args].join(' ')} failed (exit ${r.status ?? r.signal})`);
}

function gitRevision() {
  const r = spawnSync('git', ['rev-parse', '--short=12', 'HEAD'], { cwd: root, encoding: 'utf8' });
  return r.status === 0 ? r.stdout.trim() : 'unknown';
}

/** The Containerfile's default base, and the one deploy/container/local/make-base.sh makes from Debian's packages. */
export const OFFICIAL_BASE = 'docker.io/library/node:20-bookworm-slim';
export const LOCAL_BASE = 'localhost/shop-node:20-bookworm';

/**
 * The base to build on when none is named: the official Node image, when the machine has it or can pull
 * it; else the local base when make-base.sh made one (a machine that reaches no registry, as this
 * project's CI); else an error that says how to make it.
 */
function chooseBase(engine, env) {
  const has = (image) => spawnSync(engine, ['image', 'inspect', image], { env, stdio: 'ignore' }).status === 0;
  if (has(OFFICIAL_BASE)) return undefined;
  if (spawnSync(engine, ['pull', '-q', OFFICIAL_BASE], { env, stdio: 'ignore', timeout: 300_000 }).status === 0) return undefined;
  if (has(LOCAL_BASE)) {
    console.info(`${OFFICIAL_BASE} cannot be pulled here: building on ${LOCAL_BASE} (deploy/container/local/make-base.sh)`);
    return LOCAL_BASE;
  }
  throw new Error(`${OFFICIAL_BASE} cannot be pulled here (no registry?). Make a base from Debian's packages with `
    + `deploy/container/local/make-base.sh (root, debootstrap), then run this again; or set SHOP_BASE_IMAGE to a Node 20 bookworm image you have.`);
}

/** The certificate file this machine's npm is told to trust (`cafile` in an npmrc), if any. */
function npmCafile() {
  const r = spawnSync('npm', ['config', 'get', 'cafile'], { cwd: root, encoding: 'utf8' });
  const file = r.status === 0 ? r.stdout.trim() : '';
  return file && file !== 'null' && file !== 'undefined' ? file : undefined;
}

/** Builds the shop's image (deploy/container/Containerfile) and returns its tag. */
export function buildImage({ tag = process.env.SHOP_IMAGE ?? DEFAULT_IMAGE, baseImage = process.env.SHOP_BASE_IMAGE, quiet = false } = {}) {
  const engine = containerEngine();
  const env = engineEnv(engine);
  baseImage ??= chooseBase(engine, env);
  // The version label: the project's version and the commit it was built from.
  const revision = gitRevision();
  const version = `${JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')).version ?? '0.0.0'}+${revision}`;
  const args = ['build', '-f', path.join(containerDir, 'Containerfile'), '-t', tag,
    '--build-arg', `SHOP_VERSION=${version}`, '--build-arg', `SHOP_REVISION=${revision}`];
  if (engine === 'podman') args.push('--format', 'docker'); // keeps the HEALTHCHECK (OCI images have none)
  if (baseImage) args.push('--build-arg', `BASE_IMAGE=${baseImage}`);
  // A certificate authority the machine trusts for the npm registry (a TLS-inspecting proxy:
  // NODE_EXTRA_CA_CERTS, or npm's own `cafile`) is handed to the build's npm steps as a build secret:
  // used there, in no layer.
  const ca = [process.env.NODE_EXTRA_CA_CERTS, npmCafile()].find((f) => f && existsSync(f));
  if (ca) args.push('--secret', `id=npm_ca,src=${ca}`);
  if (quiet) args.push('--quiet');
  args.push(root);
  run(engine, args, env);
  return tag;
}

/** Runs compose on deploy/container/compose.yaml for a project. */
export function compose(composeArgs, { project = process.env.SHOP_PROJECT ?? 'shop', env = process.env, stdio = 'inherit' } = {}) {
  const engine = containerEngine();
  const [cmd, ...pre] = composeCommand(engine);
  const r = spawnSync(cmd, [...pre, '-p', project, '-f', composeFile, ...composeArgs], { stdio, env: engineEnv(engine, env), cwd: containerDir, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`compose ${composeArgs.join(' ')} failed (exit ${r.status ?? r.signal})${r.stderr ? `:\n${r.stderr.slice(-2000)}` : ''}`);
  return r;
}

/** Fills the empty secrets of an env file made from shop.env.example. */
export function fillEnvSecrets(text, overrides = {}) {
  const password = randomBytes(18).toString('hex');
  const values = {
    JWT_SECRET: randomBytes(36).toString('base64'),
    ADMIN_PASSWORD: randomBytes(12).toString('base64url'),
    POSTGRES_PASSWORD: password,
    DATABASE_URL: `postgres://shop:${password}@postgres:5432/shop`,
    ...overrides,
  };
  let out = text;
  for (const [name, value] of Object.entries(values)) {
    const line = new RegExp(`^${name}=.*$`, 'm');
    out = line.test(out) ? out.replace(line, `${name}=${value}`) : `${out.trimEnd()}\n${name}=${value}\n`;
  }
  return { text: out, values };
}

function fleetUp() {
  const envFile = process.env.SHOP_ENV_FILE ?? path.join(containerDir, 'shop.env');
  if (!existsSync(envFile)) {
    const { text, values } = fillEnvSecrets(readFileSync(path.join(containerDir, 'shop.env.example'), 'utf8'));
    writeFileSync(envFile, text, { mode: 0o600 });
    const adminEmail = /^ADMIN_EMAIL=(.*)$/m.exec(text)?.[1] ?? 'ADMIN_EMAIL';
    console.info(`wrote ${envFile} with fresh secrets; the administrator: ${adminEmail} / ${values.ADMIN_PASSWORD} (used to create the account on the first start)`);
  }
  compose(['up', '-d'], { env: { ...process.env, SHOP_ENV_FILE: envFile } });
  const publish = process.env.SHOP_PUBLISH ?? '127.0.0.1:8080';
  const port = publish.split(':').at(-1);
  console.info(`\nThe fleet is starting: http://localhost:${port} (HAProxy), /api/ready answers 200 once a shop is in.`);
}

/** The container of a compose service (podman-compose and docker compose both label them). */
export function containerOf(engine, project, service) {
  const r = spawnSync(engine, ['ps', '-a', '--filter', `label=com.docker.compose.project=${project}`, '--filter', `label=com.docker.compose.service=${service}`, '--format', '{{.Names}}'], { env: engineEnv(engine), encoding: 'utf8' });
  return r.stdout?.trim().split('\n')[0] || undefined;
}

/** Whether a shop container answers /api/ready from inside (the database reached, migrations run). */
export function instanceReady(engine, container) {
  const probe = "fetch('http://127.0.0.1:3000/api/ready').then(r=>process.exit(r.status===200?0:1),()=>process.exit(1))";
  return spawnSync(engine, ['exec', container, 'node', '-e', probe], { env: engineEnv(engine), stdio: 'ignore' }).status === 0;
}

const sleepSync = (ms) => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);

function fleetRoll() {
  const engine = containerEngine();
  const project = process.env.SHOP_PROJECT ?? 'shop';
  const envFile = process.env.SHOP_ENV_FILE ?? path.join(containerDir, 'shop.env');
  for (const service of ['shop1', 'shop2', 'shop3']) {
    const old = containerOf(engine, project, service);
    if (old) {
      console.info(`${service}: draining and stopping ${old}`);
      // SIGTERM: /api/live answers 503 (HAProxy takes it out), in-flight requests finish, then it exits.
      run(engine, ['stop', '-t', '45', old], engineEnv(engine));
      run(engine, ['rm', old], engineEnv(engine));
    }
    compose(['up', '-d', '--no-deps', service], { project, env: { ...process.env, SHOP_ENV_FILE: envFile }, stdio: 'pipe' });
    const fresh = containerOf(engine, project, service);
    const deadline = Date.now() + 300_000;
    while (!fresh || !instanceReady(engine, fresh)) {
      if (Date.now() > deadline) throw new Error(`${service} did not become ready within 5 minutes: the others keep serving; see \`${engine} logs ${fresh}\``);
      sleepSync(1000);
    }
    sleepSync(3000); // two passed checks (rise 2, every 800 ms) before HAProxy sends it traffic
    console.info(`${service}: ${fresh} serves from the new image`);
  }
}

function fleetDown(removeVolumes) {
  // Each shop drains (SHUTDOWN_DRAIN_SECONDS, then its requests) within the timeout before it is killed.
  compose(['down', '-t', '45', ...(removeVolumes ? ['-v'] : [])]);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const [what, ...rest] = process.argv.slice(2);
  try {
    if (what === 'image') console.info(`built ${buildImage()}`);
    else if (what === 'fleet:up') fleetUp();
    else if (what === 'fleet:roll') fleetRoll();
    else if (what === 'fleet:down') fleetDown(rest.includes('--volumes'));
    else throw new Error('usage: node scripts/container.mjs image | fleet:up | fleet:roll | fleet:down [--volumes]');
  } catch (err) {
    console.error(err instanceof Error ? err.message : err);
    process.exit(1);
  }
}
