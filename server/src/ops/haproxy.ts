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

/**
 * The shipped deploy/haproxy.cfg rendered for instances on this machine: same frontend, headers,
 * timeouts, health checks and error pages, with the bind port, runtime socket, check interval,
 * server lines and connection limit replaced, the privilege-dropping lines (which need root) left
 * out, and the errorfile named by its absolute path in deploy/ (the rendered file is written
 * elsewhere).
 */
export function renderFleetHaproxyConfig(opts: FleetHaproxyOptions, template = readFileSync(HAPROXY_TEMPLATE, 'utf8'), templateDir = path.dirname(HAPROXY_TEMPLATE)): string {
  const lines = template.split('\n').filter((l) => !l.includes('# not in npm run fleet'));
  const out: string[] = [];
  let inServers = false;
  let replaced = { bind: 0, socket: 0, check: 0, servers: 0, maxconn: 0, errorfile: 0 };
  for (const line of lines) {
    if (/^\s*# servers:/.test(line)) {
      inServers = true;
      out.push(line);
      for (const s of opts.servers) out.push(`    server ${s.name} 127.0.0.1:${s.port}`);
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
      // A fleet on one machine runs under an ordinary user's open-file limit (HAProxy needs ~2 per connection).
      out.push('    maxconn 4096');
      replaced.maxconn += 1;
    } else if (/^\s*stats socket /.test(line)) {
      out.push(`    stats socket ${opts.statsSocket} mode 600 level admin`);
      replaced.socket += 1;
    } else if (/^\s*errorfile 503 \S+\s*$/.test(line)) {
      const file = line.trim().split(/\s+/)[2]!;
      out.push(`    errorfile 503 ${path.resolve(templateDir, file)}`);
      replaced.errorfile += 1;
    } else if (/^\s*default-server check inter \S+/.test(line)) {
      out.push(line.replace(/inter \S+/, `inter ${opts.checkIntervalMs}ms`));
      replaced.check += 1;
    } else {
      out.push(line);
    }
  }
  for (const [what, n] of Object.entries(replaced)) {
    if (n !== 1) throw new Error(`deploy/haproxy.cfg: expected one ${what} line to rewrite, found ${n}`);
  }
  return out.join('\n');
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
