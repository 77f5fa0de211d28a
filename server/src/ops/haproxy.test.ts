import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import { connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { DATABASE_UNAVAILABLE_MESSAGE, DATABASE_UNAVAILABLE_RETRY_AFTER_SECONDS } from '../lib/errors.ts';
import { freePortRange } from '../test/ports.ts';
import { TEST_DB } from '../test/test-app.ts';
import { CONTAINER_HAPROXY_CONFIG, CONTAINER_SHOP_SERVICES, findHaproxyBinary, HAPROXY_TEMPLATE, readServerStates, renderContainerHaproxyConfig, renderFleetHaproxyConfig } from './haproxy.ts';

// The shipped HAProxy configuration, rendered as `npm run fleet` renders it, in front of two small
// local backends that report what reaches them. Database-free: runs once, in the pglite project.
const HAPROXY = findHaproxyBinary();
const SKIP = TEST_DB !== 'pglite' ? 'runs in the pglite project' : !HAPROXY ? 'HAProxy is not installed (Debian: apt-get install haproxy)' : undefined;
if (SKIP) console.info(`HAProxy configuration test skipped: ${SKIP}`);

// Free ports, so the test passes beside a running shop or another test run.
const PORT = await freePortRange(3);
const BACKENDS = [PORT + 1, PORT + 2];
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

interface Backend {
  /** What the balancer's check (/api/live) answers. */
  server: Server; port: number; live: number; seen: IncomingHttpHeaders[]; sockets: Set<Socket>;
  /** Dies on /flaky: the connection closes with no answer (as an instance killed mid-request). */
  flaky: boolean;
  flakySeen: string[];
}

function startBackend(port: number): Promise<Backend> {
  const backend: Backend = { server: createServer(), port, live: 200, seen: [], sockets: new Set(), flaky: false, flakySeen: [] };
  backend.server.on('connection', (c) => {
    backend.sockets.add(c);
    c.on('close', () => backend.sockets.delete(c));
  });
  backend.server.on('request', (req, res) => {
    if (req.url === '/api/live') {
      res.writeHead(backend.live).end();
      return;
    }
    if (req.url === '/flaky') {
      backend.flakySeen.push(req.method ?? '');
      if (backend.flaky) { req.socket.destroy(); return; }
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ port }));
      return;
    }
    backend.seen.push(req.headers);
    if (req.url === '/gzipped') {
      res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip' }).end(gzipSync(JSON.stringify({ big: 'x'.repeat(5000) })));
      return;
    }
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ port, headers: req.headers, pad: 'y'.repeat(5000) }));
  });
  // A WebSocket handshake, then the connection echoes what it receives: enough to see HAProxy tunnel it.
  backend.server.on('upgrade', (req, socket) => {
    const accept = createHash('sha1').update(`${req.headers['sec-websocket-key']}258EAFA5-E914-47DA-95CA-C5AB0DC85B11`).digest('base64');
    socket.write(`HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Accept: ${accept}\r\nX-Backend: ${port}\r\nX-Path: ${req.url}\r\n\r\n`);
    socket.on('data', (d) => socket.write(d));
  });
  return new Promise((resolve) => backend.server.listen(port, '127.0.0.1', () => resolve(backend)));
}

describe.skipIf(SKIP)('deploy/haproxy.cfg', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'shop-haproxy-'));
  const socket = path.join(dir, 'haproxy.sock');
  const backends: Backend[] = [];
  let haproxy: ChildProcess;
  let haproxyLog = '';

  /** Until HAProxy counts both backends UP (a check that timed out on a loaded machine takes one out for a moment). */
  async function untilBothUp(timeoutMs = 20_000) {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const states = await readServerStates(socket).catch(() => ({} as Record<string, { status: string }>));
      if (states.app1?.status === 'UP' && states.app2?.status === 'UP') return;
      if (Date.now() > deadline) throw new Error(`HAProxy does not count both backends UP: ${JSON.stringify(states)}\n${haproxyLog}`);
      await sleep(100);
    }
  }

  beforeAll(async () => {
    for (const port of BACKENDS) backends.push(await startBackend(port));
    const config = renderFleetHaproxyConfig({
      port: PORT, statsSocket: socket, checkIntervalMs: 200,
      servers: BACKENDS.map((port, i) => ({ name: `app${i + 1}`, port })),
    });
    writeFileSync(path.join(dir, 'haproxy.cfg'), config);
    haproxy = spawn(HAPROXY!, ['-db', '-f', path.join(dir, 'haproxy.cfg')], { stdio: ['ignore', 'pipe', 'pipe'] });
    haproxy.stdout?.on('data', (d: Buffer) => { haproxyLog += d.toString(); });
    haproxy.stderr?.on('data', (d: Buffer) => { haproxyLog += d.toString(); });
    await untilBothUp();
  }, 30_000);
  beforeEach(async () => {
    for (const b of backends) b.live = 200;
    await untilBothUp();
  }, 30_000);
  afterAll(async () => {
    if (haproxy?.exitCode === null) {
      haproxy.kill('SIGTERM');
      await new Promise((r) => haproxy.once('exit', r));
    }
    for (const b of backends) {
      for (const c of b.sockets) c.destroy(); // idle keep-alive connections and the upgraded one
      await new Promise((r) => b.server.close(r));
    }
    rmSync(dir, { recursive: true, force: true });
  });

  it('is valid as shipped and as rendered for a fleet, which keeps everything but the local details', () => {
    expect(spawnSync(HAPROXY!, ['-c', '-q', '-f', HAPROXY_TEMPLATE]).status).toBe(0);
    expect(spawnSync(HAPROXY!, ['-c', '-q', '-f', path.join(dir, 'haproxy.cfg')]).status).toBe(0);
    const rendered = readFileSync(path.join(dir, 'haproxy.cfg'), 'utf8');
    expect(rendered).toContain(`    bind :${PORT}\n`);
    expect(rendered).toContain(`    server app1 127.0.0.1:${BACKENDS[0]}\n    server app2 127.0.0.1:${BACKENDS[1]}\n    # end servers`);
    expect(rendered).toContain('default-server check inter 200ms fastinter 200ms fall 2 rise 2');
    // A killed instance: retries on another instance, after-the-request retries for idempotent methods only.
    const shipped = readFileSync(HAPROXY_TEMPLATE, 'utf8');
    for (const text of [shipped, rendered]) {
      expect(text).toMatch(/^\s*retries 3$/m);
      expect(text).toMatch(/^\s*retry-on conn-failure empty-response$/m);
      expect(text).toMatch(/^\s*option redispatch 1$/m);
      expect(text).toMatch(/^\s*http-request disable-l7-retry unless METH_GET \|\| METH_OPTIONS$/m);
    }
    // Out within 3 s: the first failed check at most `inter` after the death, the second `fastinter` later.
    expect(shipped).toMatch(/^\s*default-server check inter 800ms fastinter 200ms fall 2 rise 2 /m);
    expect(rendered).not.toMatch(/chroot|user haproxy|127\.0\.0\.1:3001/);
    // The balancer checks liveness, not the shared database (a database outage must not empty the fleet).
    for (const text of [shipped, rendered]) expect(text).toMatch(/^\s*http-check send meth GET uri \/api\/live$/m);
    expect(shipped).toMatch(/^\s*errorfile 503 haproxy-errors\/503\.http$/m);
    const errorfile = /^\s*errorfile 503 (\S+)$/m.exec(rendered)?.[1];
    expect(errorfile).toBe(path.resolve(path.dirname(HAPROXY_TEMPLATE), 'haproxy-errors/503.http'));
    expect(existsSync(errorfile!)).toBe(true);
    expect(rendered).not.toMatch(/^\s*compression/m);
  });

  it('replaces the forwarded headers a client sends with the real address and scheme, and keeps Host', async () => {
    const res = await fetch(`http://127.0.0.1:${PORT}/echo`, {
      headers: { 'x-forwarded-for': '6.6.6.6', 'x-forwarded-proto': 'https', 'x-forwarded-host': 'evil.example' },
    });
    expect(res.status).toBe(200);
    const { headers } = (await res.json()) as { headers: IncomingHttpHeaders };
    expect(headers['x-forwarded-for']).toBe('127.0.0.1');
    expect(headers['x-forwarded-proto']).toBe('http');
    expect(headers['x-forwarded-host']).toBeUndefined();
    expect(headers.host).toBe(`127.0.0.1:${PORT}`);
  });

  it('leaves compression to the app: Accept-Encoding reaches it, bodies pass through as they are', async () => {
    const plain = await fetch(`http://127.0.0.1:${PORT}/echo`, { headers: { 'accept-encoding': 'gzip' } });
    expect(plain.headers.get('content-encoding')).toBeNull();
    const { headers } = (await plain.json()) as { headers: IncomingHttpHeaders };
    expect(headers['accept-encoding']).toBe('gzip');
    const zipped = await fetch(`http://127.0.0.1:${PORT}/gzipped`, { headers: { 'accept-encoding': 'gzip' } });
    expect(zipped.headers.get('content-encoding')).toBe('gzip');
    expect(((await zipped.json()) as { big: string }).big).toHaveLength(5000);
  });

  it('passes the WebSocket upgrade on /ws/chat through and then tunnels the connection', async () => {
    const client = connect(PORT, '127.0.0.1');
    let received = '';
    client.on('data', (d) => { received += d.toString('latin1'); });
    client.write('GET /ws/chat HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n' +
      'Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n');
    while (!received.includes('\r\n\r\n')) await sleep(20);
    expect(received).toMatch(/^HTTP\/1\.1 101 Switching Protocols\r\n/);
    expect(received).toContain('sec-websocket-accept: s3pPLMBiTxaQ9kYGzzhZRbK+xOo=');
    expect(received.toLowerCase()).toContain('x-path: /ws/chat');
    const head = received.length;
    client.write('frames after the upgrade');
    while (received.length < head + 24) await sleep(20);
    expect(received.slice(head)).toBe('frames after the upgrade');
    client.destroy();
  });

  it('takes an instance out of rotation when /api/live answers 503, and back when it answers 200', async () => {
    const [a, b] = backends as [Backend, Backend];
    b.live = 503;
    const deadline = Date.now() + 5000;
    while ((await readServerStates(socket)).app2?.status !== 'DOWN') {
      if (Date.now() > deadline) throw new Error('app2 never went DOWN');
      await sleep(50);
    }
    expect((await readServerStates(socket)).app2?.checkStatus).toBe('L7STS');
    const before = { a: a.seen.length, b: b.seen.length };
    for (let i = 0; i < 10; i += 1) expect((await fetch(`http://127.0.0.1:${PORT}/echo`)).status).toBe(200);
    expect(a.seen.length - before.a).toBe(10);
    expect(b.seen.length - before.b).toBe(0);
    b.live = 200;
    while ((await readServerStates(socket)).app2?.status !== 'UP') await sleep(50);
    expect(haproxyLog).toContain('Server shop/app2 is DOWN, reason: Layer7 wrong status, code: 503');
  });

  it("with no instance in rotation, answers the shop's JSON 503 with Retry-After (its errorfile), never an HTML page", async () => {
    for (const b of backends) b.live = 503;
    const deadline = Date.now() + 10_000;
    for (;;) {
      const states = await readServerStates(socket);
      if (states.app1?.status === 'DOWN' && states.app2?.status === 'DOWN') break;
      if (Date.now() > deadline) throw new Error(`the backends never went DOWN: ${JSON.stringify(states)}`);
      await sleep(50);
    }
    const requests: Array<[string, RequestInit]> = [
      ['/api/products', {}],
      ['/product/lamp', { headers: { accept: 'text/html' } }],
      ['/api/orders', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' }],
    ];
    for (const [url, init] of requests) {
      const res = await fetch(`http://127.0.0.1:${PORT}${url}`, init);
      expect(res.status, url).toBe(503);
      expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
      expect(res.headers.get('retry-after')).toBe(String(DATABASE_UNAVAILABLE_RETRY_AFTER_SECONDS));
      expect(res.headers.get('cache-control')).toBe('no-store');
      expect(await res.json()).toEqual({ message: DATABASE_UNAVAILABLE_MESSAGE, code: 'UNAVAILABLE' });
    }
    for (const b of backends) b.live = 200;
    await untilBothUp();
  });

  it('retries a GET that an instance dropped without an answer on the other one, never a POST', async () => {
    const [a, b] = backends as [Backend, Backend];
    const reset = () => { a.flakySeen.length = 0; b.flakySeen.length = 0; };
    // Failed: HAProxy answers 502, or closes the connection when the instance sent nothing at all.
    const statusOf = (init?: RequestInit) => fetch(`http://127.0.0.1:${PORT}/flaky`, init).then((r) => r.status, () => 'closed');
    try {
      a.flaky = true;
      b.flaky = false;
      reset();
      for (let i = 0; i < 10; i += 1) {
        const res = await fetch(`http://127.0.0.1:${PORT}/flaky`);
        expect(res.status).toBe(200);
        expect(((await res.json()) as { port: number }).port).toBe(b.port);
      }
      expect(b.flakySeen.filter((m) => m === 'GET')).toHaveLength(10);
      // Both drop it: a GET is tried 1 + 3 times before it fails; a POST once (it may have been carried out).
      b.flaky = true;
      reset();
      expect(await statusOf()).not.toBe(200);
      expect(a.flakySeen.length + b.flakySeen.length).toBe(4);
      reset();
      expect(await statusOf({ method: 'POST', body: '{}' })).not.toBe(200);
      expect([...a.flakySeen, ...b.flakySeen]).toEqual(['POST']);
    } finally {
      a.flaky = false;
      b.flaky = false;
    }
  });

  it('sends every request, a POST too, to the live instance when one is killed, and takes the dead one out', async () => {
    const [a, b] = backends as [Backend, Backend];
    // app2 dies: its port refuses connections.
    for (const c of b.sockets) c.destroy();
    await new Promise((r) => b.server.close(r));
    b.sockets.clear();
    const killedAt = Date.now();
    a.flakySeen.length = 0;
    for (let i = 0; i < 10; i += 1) {
      expect((await fetch(`http://127.0.0.1:${PORT}/flaky`)).status).toBe(200);
      expect((await fetch(`http://127.0.0.1:${PORT}/flaky`, { method: 'POST', body: '{}' })).status).toBe(200);
    }
    expect(a.flakySeen).toHaveLength(20);
    const deadline = Date.now() + 10_000;
    while ((await readServerStates(socket)).app2?.status !== 'DOWN') {
      if (Date.now() > deadline) throw new Error('app2 never went DOWN');
      await sleep(50);
    }
    console.info(`HAProxy (checks every 200 ms here): a killed instance out of rotation after ${Date.now() - killedAt} ms`);
    // Brought back for afterAll, which closes every backend.
    await new Promise<void>((r) => b.server.listen(b.port, '127.0.0.1', () => r()));
  });
});

describe.skipIf(SKIP)('deploy/container/haproxy.cfg (the container fleet)', () => {
  it('is the current rendering of deploy/haproxy.cfg (npm run fleet:config writes it again) and valid as compose mounts it', () => {
    const kept = readFileSync(CONTAINER_HAPROXY_CONFIG, 'utf8');
    const fresh = renderContainerHaproxyConfig();
    expect(kept, 'deploy/container/haproxy.cfg is older than deploy/haproxy.cfg: run `npm run fleet:config`').toBe(fresh);
    // Laid out as compose.yaml mounts it: the configuration with deploy/haproxy-errors beside it.
    const dir = mkdtempSync(path.join(tmpdir(), 'shop-haproxy-container-'));
    try {
      writeFileSync(path.join(dir, 'haproxy.cfg'), kept);
      cpSync(path.join(path.dirname(HAPROXY_TEMPLATE), 'haproxy-errors'), path.join(dir, 'haproxy-errors'), { recursive: true });
      const check = spawnSync(HAPROXY!, ['-c', '-q', '-f', path.join(dir, 'haproxy.cfg')], { cwd: dir, encoding: 'utf8' });
      expect(check.status, check.stderr).toBe(0);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
    // The compose services, each found again by name; the same checks, retries and error page as shipped.
    for (const [i, name] of CONTAINER_SHOP_SERVICES.entries()) {
      expect(kept).toContain(`    server app${i + 1} ${name}:3000 resolvers containers init-addr last,libc,none\n`);
    }
    expect(kept).toMatch(/^\s*default-server check inter 800ms fastinter 200ms fall 2 rise 2 /m);
    expect(kept).toMatch(/^\s*retry-on conn-failure empty-response$/m);
    expect(kept).toContain('    errorfile 503 haproxy-errors/503.http\n');
    expect(kept).toContain('    bind :3000\n');
    expect(kept).not.toMatch(/chroot|user haproxy|group haproxy|127\.0\.0\.1:300/);
  });
});
