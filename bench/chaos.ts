/**
 * Crash consistency: checkout and chat load on PostgreSQL against the compiled server (server/dist,
 * built if stale) in its own process, which is killed with SIGKILL at random moments N times and
 * started again each time; then the load stops and the database is checked:
 *   - stock + units sold = starting stock, for every product;
 *   - every order has its lines, items = Σ line price × quantity, total = items + shipping + tax, and
 *     every order a buyer was told about (201) is there with the total it was told;
 *   - no payment without its order: every payment a buyer was told about (200) is recorded, and
 *     every paid order has its payment id and time;
 *   - no chat message acknowledged to its sender (the client got the ack) and then missing, and no
 *     message stored twice although unacknowledged messages are resent after each reconnect;
 *   - the supplier outbox (jobs of kind supplier.order): exactly one per paid order with supplier
 *     lines, none for an order not paid, and no job stored twice.
 * Prints the counts; exits 1 when a check fails. Not part of `npm test`. 127.0.0.1 only; bounded
 * (each kill comes 2-6 s after the server is back; a start that takes over 90 s aborts the run).
 *
 *   node --import tsx bench/chaos.ts [--kills=5] [--buyers=10] [--chatters=10]
 *   env: BENCH_DATABASE_URL (default $TEST_DATABASE_URL or postgres://postgres@127.0.0.1:5432/postgres)
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import pg from 'pg';
import { openDatabase } from '../server/src/db/client.ts';
import { migrate } from '../server/src/db/migrate.ts';
import { createScratchDatabase } from '../server/src/db/scratch.ts';
import { addresses, products, users } from '../server/src/db/schema.ts';
import { ACCESS_COOKIE, startSession } from '../server/src/lib/auth.ts';
import { newId } from '../server/src/lib/ids.ts';
import { createTokenSigner } from '../server/src/lib/tokens.ts';
import { resendingChatGuest } from './lib/chat-guest.ts';
import { freePort } from '../server/src/test/ports.ts';

const root = path.resolve(import.meta.dirname, '..');
function arg(name: string, fallback: number, max: number): number {
  const raw = process.argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);
  const n = raw === undefined ? fallback : Number(raw);
  if (!Number.isInteger(n) || n < 1 || n > max) throw new Error(`--${name} must be a whole number from 1 to ${max} (got ${raw})`);
  return n;
}
const KILLS = arg('kills', 5, 100);
const BUYERS = arg('buyers', 10, 100);
const CHATTERS = arg('chatters', 10, 200);
const BASE_URL = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const SECRET = randomBytes(32).toString('hex');
const PRODUCTS = { plentiful: 20, scarce: 5, supplier: 5 };
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));


interface Buyer { cookie: string; addressId: string }

async function seed(url: string) {
  const database = await openDatabase({ databaseUrl: url, poolSize: 2 });
  try {
    await migrate(database);
    const db = database.db;
    const total = PRODUCTS.plentiful + PRODUCTS.scarce + PRODUCTS.supplier;
    const rows = Array.from({ length: total }, (_, i) => {
      const scarce = i >= PRODUCTS.plentiful && i < PRODUCTS.plentiful + PRODUCTS.scarce;
      const supplier = i >= PRODUCTS.plentiful + PRODUCTS.scarce;
      return {
        id: newId(), name: `Chaos Product ${i}`, slug: `chaos-product-${i}`, price: Math.round((5 + (i * 7.31) % 200) * 100) / 100,
        isOnSale: i % 3 === 0, saleDiscount: i % 3 === 0 ? 15 : 0, image: `/images/chaos-${i}.jpg`, category: `Category ${i % 4}`,
        brand: 'Chaos', description: 'A product for the crash-consistency run', countInStock: scarce ? 40 : 100_000,
        cjData: supplier ? { pid: `chaos-pid-${i}`, vid: `chaos-vid-${i}`, variants: [{ vid: `chaos-vid-${i}` }] } : null,
      };
    });
    await db.insert(products).values(rows);
    const signer = createTokenSigner(SECRET, 3600);
    const buyers: Buyer[] = [];
    for (let i = 0; i < BUYERS; i += 1) {
      const id = newId();
      await db.insert(users).values({ id, name: `Buyer ${i}`, email: `buyer${i}@chaos.local`, passwordHash: 'not-used' });
      const session = await startSession(db, { signer, refreshTokenTtlDays: 1 }, id);
      const addressId = newId();
      await db.insert(addresses).values({ id: addressId, userId: id, fullName: `Buyer ${i}`, address: `${i} Crash Road`, city: 'Kill', postalCode: '99999', country: 'USA', isDefault: true });
      buyers.push({ cookie: `${ACCESS_COOKIE}=${session.accessToken}`, addressId });
    }
    return { buyers, productIds: rows.map((r) => r.id), startStock: new Map(rows.map((r) => [r.id, r.countInStock])) };
  } finally {
    await database.close();
  }
}

/** The server process: killed and started again on the same port. */
class Server {
  child: ChildProcess | undefined;
  up = false;
  constructor(private readonly port: number, private readonly env: Record<string, string>) {}
  async start(): Promise<number> {
    const t0 = performance.now();
    this.child = spawn(process.execPath, ['dist/main.js'], {
      cwd: path.join(root, 'server'), env: { ...process.env, ...this.env, PORT: String(this.port) }, stdio: ['ignore', 'ignore', 'inherit'],
    });
    const deadline = Date.now() + 90_000;
    while (Date.now() < deadline) {
      if (this.child.exitCode !== null) throw new Error(`server exited with ${this.child.exitCode}`);
      try {
        if ((await fetch(`http://127.0.0.1:${this.port}/api/ready`)).ok) { this.up = true; return performance.now() - t0; }
      } catch { /* starting */ }
      await sleep(100);
    }
    throw new Error('server did not become ready within 90 s');
  }
  async kill(signal: NodeJS.Signals): Promise<void> {
    const child = this.child;
    if (!child || child.exitCode !== null) return;
    this.up = false;
    const exited = new Promise((r) => child.once('exit', r));
    child.kill(signal);
    await exited;
  }
}

interface Tally {
  placed: Map<string, number>; // order id → total the buyer was told
  paid: Set<string>;
  outOfStock: number; refusedWhileDown: number; errors: string[];
  chatAcked: Map<string, string>; // clientId → server message id
  chatSent: number; chatResent: number;
}

async function buyerLoop(base: string, buyer: Buyer, productIds: string[], running: () => boolean, t: Tally) {
  const headers = { cookie: buyer.cookie, 'content-type': 'application/json' };
  const call = async (method: string, url: string, body?: unknown) => {
    try {
      const res = await fetch(`${base}${url}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body), signal: AbortSignal.timeout(15_000) });
      return { status: res.status, json: (await res.json().catch(() => null)) as Record<string, unknown> | null };
    } catch {
      return { status: 0, json: null }; // connection refused or reset: the server is down
    }
  };
  const bad = (what: string, r: { status: number; json: unknown }) => {
    if (r.status === 0 || r.status === 503) { t.refusedWhileDown += 1; return; }
    if (t.errors.length < 20) t.errors.push(`${what}: ${r.status} ${JSON.stringify(r.json)}`);
  };
  while (running()) {
    const picked = new Set<string>();
    const lines = 1 + Math.floor(Math.random() * 3);
    while (picked.size < lines) picked.add(productIds[Math.floor(Math.random() * productIds.length)]!);
    let inCart = 0;
    for (const productId of picked) {
      const r = await call('POST', '/api/cart/items', { productId, quantity: 1 + Math.floor(Math.random() * 2) });
      if (r.status === 200) inCart += 1;
      else if (r.status !== 400) bad('add to cart', r);
    }
    if (!inCart) { await sleep(100); continue; }
    const placed = await call('POST', '/api/orders', { addressId: buyer.addressId, paymentMethod: 'PayPal' });
    if (placed.status === 400 && placed.json?.code === 'OUT_OF_STOCK') { t.outOfStock += 1; await call('DELETE', '/api/cart'); continue; }
    if (placed.status !== 201) { bad('place order', placed); await call('DELETE', '/api/cart'); continue; }
    const orderId = String(placed.json?._id);
    t.placed.set(orderId, Number(placed.json?.totalPrice));
    const paid = await call('PUT', `/api/orders/${orderId}/pay`, { demo: true });
    if (paid.status === 200 && paid.json?.message === 'Order is paid successfully') t.paid.add(orderId);
    else bad('pay', paid);
  }
}

/** A guest chatting: one message every ~300 ms; after a reconnect, unacknowledged messages are resent. */
function chatterLoop(port: number, running: () => boolean, t: Tally) {
  return resendingChatGuest({ wsUrl: `ws://127.0.0.1:${port}/ws/chat`, secret: SECRET, name: 'Chaos Guest', email: 'guest@chaos.local', idPrefix: 'chaos', pauseMs: 200, running, tally: t });
}

async function check(url: string, startStock: Map<string, number>, t: Tally) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  const q = async <T extends Record<string, unknown>>(text: string, values: unknown[] = []) => (await client.query<T>(text, values)).rows;
  const count = async (text: string, values: unknown[] = []) => Number((await q<{ n: string }>(text, values))[0]?.n ?? 0);
  try {
    const stock = await q<{ id: string; stock: number; sold: string }>(`
      SELECT p.id, p.count_in_stock AS stock, COALESCE((SELECT sum(i.quantity) FROM order_items i JOIN orders o ON o.id = i.order_id
        WHERE i.product_id = p.id AND o.stock_released_at IS NULL), 0) AS sold FROM products p`);
    const stockBad = stock.filter((r) => r.stock + Number(r.sold) !== startStock.get(r.id));
    const unitsSold = stock.reduce((a, r) => a + Number(r.sold), 0);
    const orders = await count('SELECT count(*) AS n FROM orders');
    const paidOrders = await count('SELECT count(*) AS n FROM orders WHERE is_paid');
    const noLines = await count('SELECT count(*) AS n FROM orders o WHERE NOT EXISTS (SELECT 1 FROM order_items i WHERE i.order_id = o.id)');
    const badTotals = await count(`
      SELECT count(*) AS n FROM orders o JOIN (SELECT order_id, sum(price * quantity) AS s FROM order_items GROUP BY order_id) l ON l.order_id = o.id
      WHERE o.items_price <> round(l.s, 2) OR o.total_price <> o.items_price + o.shipping_price + o.tax_price`);
    const told = [...t.placed];
    const found = new Map((await q<{ id: string; total: string; is_paid: boolean }>('SELECT id, total_price AS total, is_paid FROM orders WHERE id = ANY($1)', [told.map(([id]) => id)]))
      .map((r) => [r.id.trim(), r]));
    const toldMissing = told.filter(([id]) => !found.has(id)).length;
    const toldWrongTotal = told.filter(([id, total]) => found.has(id) && Number(found.get(id)!.total) !== total).length;
    const paidMissing = [...t.paid].filter((id) => !found.get(id)?.is_paid).length;
    const paidWithoutPayment = await count('SELECT count(*) AS n FROM orders WHERE is_paid AND (paid_at IS NULL OR payment_id IS NULL)');
    const ackedIds = [...t.chatAcked.values()];
    const stored = new Set((await q<{ id: string }>('SELECT id FROM chat_messages WHERE id = ANY($1)', [ackedIds])).map((r) => r.id.trim()));
    const ackedMissing = ackedIds.filter((id) => !stored.has(id)).length;
    const chatRows = await count(`SELECT count(*) AS n FROM chat_messages WHERE sender = 'user'`);
    const chatDuplicates = await count('SELECT count(*) AS n FROM (SELECT 1 FROM chat_messages WHERE client_id IS NOT NULL GROUP BY sender_id, client_id HAVING count(*) > 1) d');
    const supplierJobs = await count(`SELECT count(*) AS n FROM jobs WHERE kind = 'supplier.order'`);
    const jobDuplicates = await count('SELECT count(*) AS n FROM (SELECT 1 FROM jobs GROUP BY kind, dedupe_key HAVING count(*) > 1) d');
    const supplierOrphans = await count(`SELECT count(*) AS n FROM jobs j WHERE kind = 'supplier.order' AND NOT EXISTS (SELECT 1 FROM orders o WHERE o.id = j.dedupe_key AND o.is_paid)`);
    const supplierMissing = await count(`
      SELECT count(*) AS n FROM orders o WHERE o.is_paid AND EXISTS (SELECT 1 FROM order_items i JOIN products p ON p.id = i.product_id WHERE i.order_id = o.id AND p.cj_data IS NOT NULL)
      AND NOT EXISTS (SELECT 1 FROM jobs j WHERE j.kind = 'supplier.order' AND j.dedupe_key = o.id)`);
    return {
      lines: [
        `stock + sold = start     ${stock.length - stockBad.length}/${stock.length} products (${unitsSold} units sold in orders holding stock)`,
        `orders                   ${orders} in the database, ${paidOrders} paid; ${t.placed.size} placed and ${t.paid.size} paid as the buyers were told`,
        `  without lines          ${noLines}`,
        `  totals not matching    ${badTotals}`,
        `  told 201, missing      ${toldMissing}; with another total: ${toldWrongTotal}`,
        `payments told 200, not recorded ${paidMissing}; paid without payment id/time: ${paidWithoutPayment}`,
        `chat                     ${t.chatSent} sent, ${t.chatAcked.size} acknowledged, ${t.chatResent} resent after reconnects, ${chatRows} stored`,
        `  acknowledged, missing  ${ackedMissing}; stored twice: ${chatDuplicates}`,
        `supplier outbox          ${supplierJobs} supplier.order jobs; for unpaid/missing orders: ${supplierOrphans}; paid supplier orders without one: ${supplierMissing}; jobs stored twice: ${jobDuplicates}`,
      ],
      failures: stockBad.length + noLines + badTotals + toldMissing + toldWrongTotal + paidMissing + paidWithoutPayment + ackedMissing + chatDuplicates + supplierOrphans + supplierMissing + jobDuplicates,
    };
  } finally {
    await client.end();
  }
}

async function main() {
  const built = spawnSync(process.execPath, [path.join(root, 'scripts/build-server.mjs'), '--if-stale'], { stdio: 'inherit' });
  if (built.status !== 0) throw new Error('the server build failed');
  console.info(`chaos: ${KILLS} kill -9 of the server under checkout (${BUYERS} buyers) and chat (${CHATTERS} guests) load, PostgreSQL at ${new URL(BASE_URL).host}`);
  const scratch = await createScratchDatabase(BASE_URL, 'shop_bench_chaos');
  const dataDir = mkdtempSync(path.join(tmpdir(), 'shop-chaos-'));
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const server = new Server(port, {
    NODE_ENV: 'production', HOST: '127.0.0.1', PUBLIC_URL: base, DATABASE_URL: scratch.url, DATABASE_POOL_SIZE: '10', REDIS_URL: '',
    JWT_SECRET: SECRET, SEED_DEMO_DATA: 'false', ALLOW_DEMO_PAYMENTS: 'true', PAYPAL_CLIENT_ID: '', PAYPAL_CLIENT_SECRET: '', CJ_API_KEY: '',
    LOG_LEVEL: 'error', DATA_DIR: dataDir, WEB_DIST_DIR: path.join(dataDir, 'no-web'), SHUTDOWN_DRAIN_SECONDS: '0', JOBS_POLL_MS: '500',
    CHAT_SOCKETS_PER_IP: '1000', CHAT_MESSAGES_PER_MINUTE: '100000', CHAT_IP_MESSAGES_PER_MINUTE: '1000000', CHAT_AI_REQUESTS_PER_MINUTE: '1000000',
    WEB_CONCURRENCY: '1', SUPPLIER_REFRESH_HOURS: '0', // the supplier products here are made up: no refresh from the offline catalogue
  });
  let stop = false;
  try {
    const { buyers, productIds, startStock } = await seed(scratch.url);
    const t: Tally = { placed: new Map(), paid: new Set(), outOfStock: 0, refusedWhileDown: 0, errors: [], chatAcked: new Map(), chatSent: 0, chatResent: 0 };
    const startMs = [await server.start()];
    const running = () => !stop;
    const load = [
      ...buyers.map((b) => buyerLoop(base, b, productIds, running, t)),
      ...Array.from({ length: CHATTERS }, () => chatterLoop(port, running, t)),
    ];
    for (let k = 1; k <= KILLS; k += 1) {
      const after = 2000 + Math.random() * 4000;
      const before = t.placed.size;
      await sleep(after);
      await server.kill('SIGKILL');
      console.info(`  kill ${k}/${KILLS}: SIGKILL ${(after / 1000).toFixed(1)} s after the server was ready (${t.placed.size - before} orders placed meanwhile)`);
      startMs.push(await server.start());
    }
    await sleep(3000); // load on the last start, then stop cleanly
    stop = true;
    await Promise.all(load);
    await server.kill('SIGTERM');

    const result = await check(scratch.url, startStock, t);
    console.info('');
    console.info(`kills                    ${KILLS} (SIGKILL), restarts to ready: ${startMs.map((ms) => `${(ms / 1000).toFixed(1)} s`).join(', ')}`);
    console.info(`requests refused while down ${t.refusedWhileDown}; out of stock ${t.outOfStock}; other errors ${t.errors.length}${t.errors.length ? ` (${t.errors.slice(0, 3).join(' | ')})` : ''}`);
    for (const line of result.lines) console.info(line);
    console.info(`consistency: ${result.failures === 0 ? 'OK' : `FAILED (${result.failures} problems)`}`);
    if (result.failures || t.errors.length) process.exitCode = 1;
  } finally {
    stop = true;
    await server.kill('SIGKILL');
    await scratch.drop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
