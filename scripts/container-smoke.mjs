// The container image and the compose fleet, proved end to end (issue 37; run by .ci/run after
// `npm test`, and by hand with `npm run test:container`):
//
//   1. builds the shop's image as `npm run image` does (deploy/container/Containerfile);
//   2. brings deploy/container/compose.yaml up as its own compose project: PostgreSQL, Redis, three shops,
//      HAProxy on a free 127.0.0.1 port, with an env file of fresh secrets and the demo data;
//   3. through HAProxy: a customer signs in, places an order and pays it (demo payment), and sends a chat
//      message over the WebSocket, which the built-in assistant answers;
//   4. under light load (GETs of pages and the API, buyers placing orders), kills one shop container
//      (SIGKILL), starts it again and waits until it serves: 0 failed GETs, and the orders the buyers were
//      told about are exactly the orders the database gained (a buyer whose answer was lost resends with
//      the same Idempotency-Key, which answers the same order, never a second one);
//   5. takes the fleet down with its volumes. (Between 3 and 4 it takes a backup inside a shop container.)
// Prints the image's size and each step's time. Exits 1 on any failure, after printing the containers'
// last log lines and taking the fleet down.
//
// Images: with SMOKE_LOCAL_IMAGES=1 (this project's CI, which reaches no image registry) the bases are
// made from Debian's packages (deploy/container/local/make-base.sh) and PostgreSQL, Redis and HAProxy
// from local/services.Containerfile; otherwise the official images are pulled. 127.0.0.1 only.
import { spawnSync } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import WebSocket from 'ws';
import { buildImage, compose, containerDir, containerEngine, containerOf as findContainer, engineEnv, fillEnvSecrets, instanceReady as ready } from './container.mjs';

const LOCAL = process.env.SMOKE_LOCAL_IMAGES === '1';
const engine = containerEngine();
const env = engineEnv(engine);
const project = `shopsmoke${process.pid}`;
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const t0 = performance.now();
const elapsed = () => `${((performance.now() - t0) / 1000).toFixed(1)} s`;
const say = (msg) => console.info(`[container-smoke ${elapsed()}] ${msg}`);

function sh(cmd, args, { capture = true, allowFail = false } = {}) {
  const r = spawnSync(cmd, args, { env, encoding: 'utf8', stdio: capture ? ['ignore', 'pipe', 'pipe'] : 'inherit', maxBuffer: 64 << 20 });
  if (r.status !== 0 && !allowFail) throw new Error(`${cmd} ${args.join(' ')} failed (exit ${r.status ?? r.signal})\n${(r.stderr ?? '').slice(-3000)}`);
  return r;
}

function freePort() {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
  });
}

// ---- images --------------------------------------------------------------------------------------
const images = {};
function buildImages() {
  let baseImage = process.env.SHOP_BASE_IMAGE;
  if (LOCAL) {
    say('local base images (Debian bookworm from Debian\'s packages, this machine\'s Node.js)');
    sh('bash', [path.join(containerDir, 'local/make-base.sh')], { capture: false });
    for (const target of ['postgres', 'redis', 'haproxy']) {
      const tag = `localhost/shop-${target}:local`;
      say(`${tag} (local/services.Containerfile --target ${target})`);
      sh(engine, ['build', '--quiet', '-f', path.join(containerDir, 'local/services.Containerfile'), '--target', target, '-t', tag, path.join(containerDir, 'local')]);
      images[`${target.toUpperCase()}_IMAGE`] = tag;
    }
  }
  say(`the shop's image${baseImage ? ` on ${baseImage}` : ''}`);
  images.SHOP_IMAGE = buildImage({ tag: 'localhost/shop:smoke', baseImage, quiet: true });
  const size = Number(sh(engine, ['image', 'inspect', '--format', '{{.Size}}', images.SHOP_IMAGE]).stdout.trim());
  say(`built ${images.SHOP_IMAGE}: ${(size / 1e6).toFixed(0)} MB`);
  const user = sh(engine, ['run', '--rm', '--entrypoint', 'id', images.SHOP_IMAGE, '-u']).stdout.trim();
  if (user === '0' || !/^\d+$/.test(user)) throw new Error(`the image runs as user ${user}, not an unprivileged one`);
  say(`its processes run as uid ${user}`);
  return size;
}

// ---- the fleet -----------------------------------------------------------------------------------
function containerOf(service) {
  const name = findContainer(engine, project, service);
  if (!name) throw new Error(`no container for the service ${service}`);
  return name;
}

/** Whether an instance answers /api/ready inside its container (the database reached, migrations run). */
const instanceReady = (container) => ready(engine, container);

async function until(what, fn, timeoutMs) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (await fn()) return;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs / 1000} s waiting for ${what}`);
    await sleep(500);
  }
}

function dumpLogs() {
  for (const service of ['postgres', 'redis', 'shop1', 'shop2', 'shop3', 'haproxy']) {
    try {
      const name = containerOf(service);
      const r = sh(engine, ['logs', '--tail', '25', name], { allowFail: true });
      console.info(`---- ${service} (${name})\n${r.stdout}${r.stderr}`);
    } catch (err) {
      console.info(`---- ${service}: ${err.message}`);
    }
  }
}

// ---- the shop over HTTP --------------------------------------------------------------------------
class Client {
  constructor(base) { this.base = base; this.cookies = new Map(); }
  get cookieHeader() { return [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; '); }
  async request(method, url, body, headers = {}) {
    const res = await fetch(`${this.base}${url}`, {
      method,
      headers: { ...(body === undefined ? {} : { 'content-type': 'application/json' }), cookie: this.cookieHeader, ...headers },
      body: body === undefined ? undefined : JSON.stringify(body),
      redirect: 'manual',
      signal: AbortSignal.timeout(30_000),
    });
    for (const c of res.headers.getSetCookie()) {
      const [pair] = c.split(';');
      const i = pair.indexOf('=');
      this.cookies.set(pair.slice(0, i), pair.slice(i + 1));
    }
    const text = await res.text();
    let json = null;
    try { json = JSON.parse(text); } catch { /* a page */ }
    return { status: res.status, json, text };
  }
}

const ADDRESS = { fullName: 'Casey Container', address: '1 Compose Way', city: 'Portland', postalCode: '97201', country: 'United States' };

/** Places an order for what is in the cart, resending with the same key while the answer is lost; then pays it. */
async function placeAndPay(client, productId) {
  const added = await client.request('POST', '/api/cart/items', { productId, quantity: 1 });
  if (added.status !== 200) return { added };
  const key = randomUUID();
  let placed;
  for (let attempt = 1; attempt <= 8; attempt += 1) {
    placed = await client.request('POST', '/api/orders', { shippingAddress: ADDRESS, paymentMethod: 'PayPal' }, { 'idempotency-key': key })
      .catch((err) => ({ status: 0, json: null, text: String(err) }));
    if (placed.status !== 0 && placed.status < 500) break;
    await sleep(300 * attempt);
  }
  if (placed.status !== 201) return { placed };
  const id = placed.json._id;
  const payKey = randomUUID();
  let paid;
  for (let attempt = 1; attempt <= 8; attempt += 1) {
    paid = await client.request('PUT', `/api/orders/${id}/pay`, { demo: true }, { 'idempotency-key': payKey })
      .catch((err) => ({ status: 0, json: null, text: String(err) }));
    if (paid.status !== 0 && paid.status < 500) break;
    await sleep(300 * attempt);
  }
  return { id, placed, paid };
}

function ordersInDatabase() {
  const pg = containerOf('postgres');
  const r = sh(engine, ['exec', pg, 'psql', '-U', 'shop', '-d', 'shop', '-tAc', 'SELECT count(*) FROM orders']);
  return Number(r.stdout.trim());
}

async function chat(base, publicUrl, client) {
  const ws = new WebSocket(`${base.replace('http', 'ws')}/ws/chat`, { headers: { cookie: client.cookieHeader, origin: publicUrl } });
  const clientId = `smoke-${randomBytes(4).toString('hex')}`;
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => { ws.terminate(); reject(new Error('no acknowledgement and answer to the chat message within 30 s')); }, 30_000);
    let acked = false;
    ws.on('error', (err) => { clearTimeout(timer); reject(err); });
    ws.on('unexpected-response', (_req, res) => { clearTimeout(timer); reject(new Error(`the chat socket was refused: ${res.statusCode}`)); });
    ws.on('open', () => ws.send(JSON.stringify({ type: 'message', content: 'Do you ship to Canada?', clientId })));
    ws.on('message', (raw) => {
      const e = JSON.parse(String(raw));
      if (e.type === 'ping') ws.send('{"type":"pong"}');
      if (e.type === 'ack' && e.clientId === clientId) acked = true;
      if (acked && e.type === 'message' && e.message?.sender === 'ai') {
        clearTimeout(timer);
        ws.close();
        resolve(e.message.content);
      }
    });
  });
}

// ---- load and the kill ---------------------------------------------------------------------------
async function underLoad(base, customer, productIds, fault) {
  let running = true;
  const gets = { sent: 0, failed: 0, samples: [] };
  const buyers = { told: new Set(), lost: 0, samples: [] };
  const urls = ['/', '/api/products', '/search?keyword=phone', '/api/products/top', '/api/live'];
  const browse = async () => {
    let i = 0;
    while (running) {
      const url = urls[i++ % urls.length];
      gets.sent += 1;
      try {
        const res = await fetch(`${base}${url}`, { signal: AbortSignal.timeout(15_000) });
        await res.arrayBuffer();
        if (res.status >= 500) throw new Error(`${res.status}`);
      } catch (err) {
        gets.failed += 1;
        if (gets.samples.length < 5) gets.samples.push(`GET ${url}: ${err.message}`);
      }
      await sleep(20);
    }
  };
  const buy = async (client) => {
    let n = 0;
    while (running) {
      const r = await placeAndPay(client, productIds[n++ % productIds.length]).catch((err) => ({ error: err }));
      if (r.id) buyers.told.add(r.id);
      else {
        buyers.lost += 1;
        if (buyers.samples.length < 5) buyers.samples.push(JSON.stringify(r).slice(0, 300));
        await client.request('DELETE', '/api/cart').catch(() => {});
      }
      await sleep(200);
    }
  };
  const loops = [browse(), browse(), browse(), buy(customer)];
  try {
    await fault();
  } finally {
    running = false;
    await Promise.all(loops);
  }
  return { gets, buyers };
}

// ---- the run -------------------------------------------------------------------------------------
const dir = mkdtempSync(path.join(tmpdir(), 'shop-container-smoke-'));
let up = false;
let failed = false;
try {
  const imageSize = buildImages();
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const publicUrl = `http://localhost:${port}`;
  const customer = { email: 'customer@example.com', password: randomBytes(12).toString('base64url') };
  const { text } = fillEnvSecrets(readFileSync(path.join(containerDir, 'shop.env.example'), 'utf8'), {
    PUBLIC_URL: publicUrl, SEED_DEMO_DATA: 'true', ALLOW_DEMO_PAYMENTS: 'true',
    CUSTOMER_EMAIL: customer.email, CUSTOMER_PASSWORD: customer.password, CUSTOMER_NAME: 'Casey Container',
    // The assistant answers a signed-in customer at once (no administrator to wait for here).
    CHAT_ADMIN_REPLY_SECONDS: '0', LOG_LEVEL: 'warn',
  });
  const envFile = path.join(dir, 'shop.env');
  writeFileSync(envFile, text, { mode: 0o600 });
  const composeEnv = { ...process.env, ...images, SHOP_ENV_FILE: envFile, SHOP_PUBLISH: `127.0.0.1:${port}` };

  say(`compose up (project ${project}, HAProxy on ${base})`);
  up = true;
  compose(['up', '-d'], { project, env: composeEnv, stdio: 'pipe' });
  const shops = ['shop1', 'shop2', 'shop3'].map(containerOf);
  await until('the three shops to reach the database and seed the demo data', () => shops.every(instanceReady), 300_000);
  await until('HAProxy to answer /api/ready', async () => (await fetch(`${base}/api/ready`).catch(() => null))?.status === 200, 60_000);
  await sleep(2500); // two passed checks (rise 2, every 800 ms) put each instance in rotation
  say('the fleet is up: three shops ready, HAProxy answering');

  const page = await fetch(`${base}/`);
  const html = await page.text();
  if (page.status !== 200 || !html.includes('<div id="root"')) throw new Error(`the home page through HAProxy: ${page.status}`);

  const client = new Client(base);
  const signedIn = await client.request('POST', '/api/users/signin', customer);
  if (signedIn.status !== 200) throw new Error(`sign in: ${signedIn.status} ${signedIn.text.slice(0, 200)}`);
  const list = await client.request('GET', '/api/products?pageSize=50');
  const products = (Array.isArray(list.json) ? list.json : list.json?.products ?? []).filter((p) => p.countInStock >= 5);
  if (products.length < 3) throw new Error(`fewer than 3 products in stock: ${list.status} ${list.text.slice(0, 200)}`);
  const productIds = products.slice(0, 6).map((p) => p._id);

  const first = await placeAndPay(client, productIds[0]);
  if (!first.id || first.paid?.status !== 200) throw new Error(`place and pay: ${JSON.stringify(first).slice(0, 500)}`);
  const order = await client.request('GET', `/api/orders/${first.id}`);
  if (order.json?.isPaid !== true) throw new Error(`the order is not paid: ${order.text.slice(0, 300)}`);
  say(`order #${order.json.number ?? first.id} placed and paid through HAProxy (${order.json.totalPrice})`);

  const answer = await chat(base, publicUrl, client);
  say(`chat over HAProxy's WebSocket tunnel: acknowledged, and the assistant answered "${answer.slice(0, 70).replace(/\s+/g, ' ')}…"`);

  // A backup from a shop container (pg_dump in one snapshot, the manifest; docs/operations.md), before
  // the kill. Seen once here (CI, load 15): for 30 s after the killed container started again, the
  // other shops' connections to PostgreSQL timed out and a backup taken then failed to connect. This VM
  // passes bridge traffic through iptables (bridge-nf-call-iptables=1), which netavark rewrites at each
  // container start: the likely cause, not proven. The GETs and orders under load stayed whole.
  const backup = sh(engine, ['exec', shops[0], 'node', 'dist/ops/backup-cli.js', '--out', '/data/smoke-backup.tar']);
  const listed = sh(engine, ['exec', shops[0], 'tar', '-tf', '/data/smoke-backup.tar']).stdout.split('\n');
  if (!listed.includes('manifest.json')) throw new Error(`the backup holds no manifest: ${listed.join(' ')}\n${backup.stdout}`);
  say(`backup from ${shops[0]}: ${listed.filter(Boolean).join(', ')}`);
  const victim = shops[1];
  const ordersBefore = ordersInDatabase();
  const { gets, buyers } = await underLoad(base, client, productIds, async () => {
    await sleep(3000);
    say(`kill -9 ${victim} under load`);
    sh(engine, ['kill', '--signal', 'KILL', victim]);
    await sleep(5000);
    say(`start ${victim} again`);
    sh(engine, ['start', victim]);
    await until(`${victim} to serve again`, () => instanceReady(victim), 120_000);
    await sleep(4000); // back in rotation (rise 2), and serving under the load for a moment
  });
  const ordersAfter = ordersInDatabase();
  const gained = ordersAfter - ordersBefore;
  say(`under load: ${gets.sent} GETs, ${gets.failed} failed; ${buyers.told.size} orders the buyer was told about, the database gained ${gained}; ${buyers.lost} attempts without an order${buyers.samples.length ? ` (${buyers.samples.join('; ')})` : ''}`);
  if (gets.failed) throw new Error(`GETs failed while an instance was killed: ${gets.samples.join('; ')}`);
  if (gained !== buyers.told.size) throw new Error(`orders: told ${buyers.told.size}, the database gained ${gained}`);
  if (buyers.told.size === 0) throw new Error(`no order was placed under load: ${buyers.samples.join('; ')}`);
  if (!instanceReady(victim)) throw new Error(`${victim} does not serve after its restart`);
  const after = await fetch(`${base}/api/ready`);
  if (after.status !== 200) throw new Error(`HAProxy after the restart: ${after.status}`);
  say(`passed (image ${(imageSize / 1e6).toFixed(0)} MB)`);
} catch (err) {
  failed = true;
  console.error(`[container-smoke ${elapsed()}] FAILED: ${err instanceof Error ? err.message : err}`);
  if (up) dumpLogs();
} finally {
  if (up) {
    say('compose down (with volumes)');
    try {
      compose(['down', '-t', '10', '-v'], { project, env: { ...process.env, ...images, SHOP_ENV_FILE: path.join(dir, 'shop.env') }, stdio: 'pipe' });
    } catch (err) {
      failed = true;
      console.error(`compose down: ${err.message}`);
    }
  }
  rmSync(dir, { recursive: true, force: true });
  say(failed ? 'done: FAILED' : 'done');
}
process.exit(failed ? 1 : 0);
