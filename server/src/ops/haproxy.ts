import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createConnection } from 'node:net';
import path from 'node:path';

/** The HAProxy configuration shipped for production, which `npm run fleet` renders for one machine. */
export const HAPROXY_TEMPLATE = path.resolve(import.meta.dirname, '../../../deploy/haproxy.cfg');

export interface FleetHaproxyOptions {
  /** Port HAProxy listens on (all interfaces). */
  port: number;
  /** The instances, in order: app1, app2, ... */
  servers: Array<{ name: string; port: number }>;
  /** Unix socket of the runtime API (server states). */
  statsSocket: string;
  /** Health-check interval; `fall` and `rise` stay as in the template. */
  checkIntervalMs: number;
}

/** What a rendering of the shipped configuration changes (renderHaproxyConfig). */
interface HaproxyRendering {
  port: number;
  /** Server lines: a name and an address (host:port); names resolved by DNS when `resolvers` is set. */
  servers: Array<{ name: string; address: string }>;
  statsSocket: string;
  /** Health-check interval in ms; as shipped when unset. */
  checkIntervalMs?: number;
  /** The errorfile named by its absolute path (the rendered file lives elsewhere); kept relative when unset. */
  errorfileDir?: string;
  maxconn: number;
  /** The servers are DNS names that may move (containers): re-resolved through the container's resolver. */
  resolvers?: boolean;
  /** A comment put first in the rendered file. */
  header?: string;
}

/** The section of the container rendering that re-resolves the instances' names (a restarted container may get another address). */
const CONTAINER_RESOLVERS = [
  '',
  '# The instances are named by the container network\'s DNS: a container started again may come back at',
  '# another address, which HAProxy learns from it (instead of the address it resolved at its start).',
  'resolvers containers',
  '    parse-resolv-conf',
  '    hold valid 1s',
  '    hold obsolete 5s',
];

/**
 * The shipped deploy/haproxy.cfg rendered for one deployment: same frontend, headers, timeouts,
 * health checks and error pages, with the bind port, runtime socket, check interval, server lines
 * and connection limit replaced, and the privilege-dropping lines (which need root, and a container
 * runs HAProxy as its own unprivileged user) left out.
 */
function renderHaproxyConfig(opts: HaproxyRendering, template: string): string {
  const lines = template.split('\n').filter((l) => !l.includes('# not in npm run fleet'));
  const out: string[] = opts.header ? [...opts.header.split('\n').map((l) => (l ? `# ${l}` : '#')), ''] : [];
  let inServers = false;
  let replaced = { bind: 0, socket: 0, check: 0, servers: 0, maxconn: 0, errorfile: 0 };
  const serverOptions = opts.resolvers ? ' resolvers containers init-addr last,libc,none' : '';
  for (const line of lines) {
    if (/^\s*# servers:/.test(line)) {
      inServers = true;
      out.push(line);
      for (const s of opts.servers) out.push(`    server ${s.name} ${s.address}${serverOptions}`);
      replaced = { ...replaced, servers: replaced.servers + 1 };
      continue;
    }
    if (inServers) {
      if (/^\s*# end servers/.test(line)) {
        inServers = false;
        out.push(line);
      }
      continue;
    }
    if (/^\s*bind :\d+\s*$/.test(line)) {
      out.push(`    bind :${opts.port}`);
      replaced.bind += 1;
    } else if (/^\s*maxconn \d+\s*$/.test(line)) {
      out.push(`    maxconn ${opts.maxconn}`);
      replaced.maxconn += 1;
    } else if (/^\s*stats socket /.test(line)) {
      out.push(`    stats socket ${opts.statsSocket} mode 600 level admin`);
      replaced.socket += 1;
    } else if (/^\s*errorfile 503 \S+\s*$/.test(line)) {
      const file = line.trim().split(/\s+/)[2]!;
      out.push(opts.errorfileDir ? `    errorfile 503 ${path.resolve(opts.errorfileDir, file)}` : line);
      replaced.errorfile += 1;
    } else if (/^\s*default-server check inter \S+/.test(line)) {
      out.push(opts.checkIntervalMs ? line.replace(/inter \S+/, `inter ${opts.checkIntervalMs}ms`) : line);
      replaced.check += 1;
    } else {
      out.push(line);
    }
  }
  for (const [what, n] of Object.entries(replaced)) {
    if (n !== 1) throw new Error(`deploy/haproxy.cfg: expected one ${what} line to rewrite, found ${n}`);
  }
  while (out.at(-1) === '') out.pop();
  if (opts.resolvers) out.push(...CONTAINER_RESOLVERS);
  return `${out.join('\n')}\n`;
}

/**
 * The shipped configuration for instances on this machine (`npm run fleet`, the fleet benchmarks):
 * servers on 127.0.0.1, the errorfile by its absolute path in deploy/, and a connection limit an
 * ordinary user's open-file limit allows (HAProxy needs ~2 descriptors per connection).
 */
export function renderFleetHaproxyConfig(opts: FleetHaproxyOptions, template = readFileSync(HAPROXY_TEMPLATE, 'utf8'), templateDir = path.dirname(HAPROXY_TEMPLATE)): string {
  return renderHaproxyConfig({
    port: opts.port,
    servers: opts.servers.map((s) => ({ name: s.name, address: `127.0.0.1:${s.port}` })),
    statsSocket: opts.statsSocket,
    checkIntervalMs: opts.checkIntervalMs,
    errorfileDir: templateDir,
    maxconn: 4096,
  }, template);
}

/** Where the container fleet's rendering is kept (deploy/container/compose.yaml mounts it). */
export const CONTAINER_HAPROXY_CONFIG = path.resolve(import.meta.dirname, '../../../deploy/container/haproxy.cfg');
/** The shop services of deploy/container/compose.yaml, each listening on port 3000 in its container. */
export const CONTAINER_SHOP_SERVICES = ['shop1', 'shop2', 'shop3'];

/**
 * The shipped configuration for the container fleet (deploy/container/compose.yaml): the same port
 * (3000, published by compose), the compose services by name, re-resolved; the runtime socket in
 * HAProxy's own directory; the errorfile beside the configuration (compose mounts deploy/haproxy-errors
 * there). Kept in deploy/container/haproxy.cfg; `npm run fleet:config` writes it again after
 * deploy/haproxy.cfg changes, and a test fails while the two differ.
 */
export function renderContainerHaproxyConfig(template = readFileSync(HAPROXY_TEMPLATE, 'utf8')): string {
  return renderHaproxyConfig({
    port: 3000,
    servers: CONTAINER_SHOP_SERVICES.map((name, i) => ({ name: `app${i + 1}`, address: `${name}:3000` })),
    statsSocket: '/var/lib/haproxy/admin.sock',
    maxconn: 4096,
    resolvers: true,
    header: [
      'Generated from deploy/haproxy.cfg by `npm run fleet:config` (server/src/ops/haproxy.ts): do not edit.',
      'The container fleet\'s balancer (deploy/container/compose.yaml): the shipped configuration with the',
      'compose services as its servers, found again by name, and no privilege dropping (the image runs',
      'HAProxy as its own user).',
    ].join('\n'),
  }, template);
}

/** The HAProxy binary: the Debian package's, or one on PATH; undefined when neither runs. */
export function findHaproxyBinary(): string | undefined {
  for (const bin of ['/usr/sbin/haproxy', 'haproxy']) {
    if (spawnSync(bin, ['-v'], { stdio: 'ignore' }).status === 0) return bin;
  }
  return undefined;
}

export interface ServerState {
  /** UP, DOWN, "UP 1/2" (going down), "DOWN 1/2" (coming up), MAINT, ... */
  status: string;
  /** Requests/sessions sent to it so far. */
  sessions: number;
  /** Why the last check failed or passed, as HAProxy words it (e.g. "L7STS" for a bad status). */
  checkStatus: string;
}

/** Sends one command to HAProxy's runtime API (the stats socket) and returns its answer. */
export function haproxyRuntime(statsSocket: string, command: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = createConnection(statsSocket);
    let data = '';
    socket.setTimeout(5000, () => socket.destroy(new Error('HAProxy runtime API did not answer')));
    socket.on('connect', () => socket.write(`${command}\n`));
    socket.on('data', (d) => { data += d.toString(); });
    socket.on('error', reject);
    socket.on('close', () => resolve(data));
  });
}

/** Server states of a backend, read from HAProxy's runtime API (`show stat`). */
export async function readServerStates(statsSocket: string, backend = 'shop'): Promise<Record<string, ServerState>> {
  const data = await haproxyRuntime(statsSocket, 'show stat');
  const [header, ...rows] = data.trim().split('\n');
  if (!header?.startsWith('# ')) throw new Error(`unexpected answer from HAProxy: ${data.slice(0, 200)}`);
  const cols = header.slice(2).split(',');
  const at = (row: string[], name: string) => row[cols.indexOf(name)] ?? '';
  const states: Record<string, ServerState> = {};
  for (const line of rows) {
    const row = line.split(',');
    const sv = at(row, 'svname');
    if (at(row, 'pxname') !== backend || sv === 'BACKEND' || sv === 'FRONTEND') continue;
    states[sv] = { status: at(row, 'status'), sessions: Number(at(row, 'stot')), checkStatus: at(row, 'check_status') };
  }
  return states;
}
