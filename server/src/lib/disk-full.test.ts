import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statfsSync } from 'node:fs';
import { open, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../app.ts';
import { openDatabase, type Database } from '../db/client.ts';
import { migrate } from '../db/migrate.ts';
import { orders, uploads } from '../db/schema.ts';
import { createLocalUploadStore, diskUploadsDir } from '../modules/uploads/upload-store.ts';
import { addToCart, call, createProduct, sampleAddress, stockOf } from '../test/commerce-factories.ts';
import { captureLog, type CapturedLog } from '../test/log-capture.ts';
import { createAdmin, createUser, openTestDatabase, pgliteTemplate, TEST_DB, testConfig, type TestApp, type TestUser } from '../test/test-app.ts';
import { DATABASE_UNAVAILABLE_MESSAGE } from './errors.ts';
import { createStorageHealth, STORAGE_FULL_CODE, STORAGE_FULL_HOLD_MS, STORAGE_FULL_MESSAGE } from './storage-full.ts';

/*
 * Issue 32, item 10: with the disk full, orders (SQLSTATE 53100) and uploads (ENOSPC) answered a bare
 * 500 while /api/ready said 200. Now: 503 with a clear message and Retry-After from the one error
 * handler, ready reports what is full, the log says which path or database, nothing is half-written,
 * and the shop recovers by itself when space returns. Two ways to fill the disk:
 *
 * - injected, on both databases: the upload store's write fails midway with ENOSPC (PGlite's disk
 *   store) or the database raises 53100 (a trigger: the real driver's error), and free space reads low;
 * - a real tmpfs as DATA_DIR with the embedded database in it, filled to the last byte (when this
 *   machine lets the test mount one: as root, in CI).
 */

const FULL_BODY = { message: STORAGE_FULL_MESSAGE, code: STORAGE_FULL_CODE };
const BOUNDARY = 'disk-full-boundary';

/** A photo-like PNG (noise, so its WebP is tens of kB, bigger than any gap left on a full disk). */
async function noisyPng(size = 256): Promise<Buffer> {
  const pixels = Buffer.alloc(size * size * 3);
  let x = 12345;
  for (let i = 0; i < pixels.length; i += 1) {
    x = (x * 1103515245 + 12345) >>> 0;
    pixels[i] = x >>> 24;
  }
  return sharp(pixels, { raw: { width: size, height: size, channels: 3 } }).png().toBuffer();
}

function multipartFile(data: Buffer) {
  const payload = Buffer.concat([
    Buffer.from(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="photo.png"\r\nContent-Type: image/png\r\n\r\n`),
    data,
    Buffer.from(`\r\n--${BOUNDARY}--\r\n`),
  ]);
  return { payload, headers: { 'content-type': `multipart/form-data; boundary=${BOUNDARY}` } };
}

/** SQL that makes the database answer `sqlstate` to every insert into `table` (the driver's real error). */
const failInserts = (table: string, sqlstate: string, message: string) => `
  CREATE OR REPLACE FUNCTION test_fail_${table}() RETURNS trigger LANGUAGE plpgsql AS $$
  BEGIN RAISE EXCEPTION '${message}' USING ERRCODE = '${sqlstate}'; END $$;
  DROP TRIGGER IF EXISTS test_fail_${table} ON ${table};
  CREATE TRIGGER test_fail_${table} BEFORE INSERT ON ${table} FOR EACH ROW EXECUTE FUNCTION test_fail_${table}();`;
const allowInserts = (table: string) => `DROP TRIGGER IF EXISTS test_fail_${table} ON ${table};`;
const COULD_NOT_EXTEND = 'could not extend file "base/16384/16522": No space left on device';

async function placeOrder(t: TestApp, user: TestUser) {
  return call<{ message: string; code?: string; _id?: string }>(t, user, 'POST', '/api/orders', { shippingAddress: sampleAddress(), paymentMethod: 'PayPal' });
}

describe(`disk full (injected: a write that fails midway, SQLSTATE 53100 from the database), on ${TEST_DB}`, () => {
  let t: TestApp;
  let log: CapturedLog;
  let admin: TestUser;
  let customer: TestUser;
  let productId: string;
  let uploadsDir: string;
  let clock = Date.now();
  const disk = { full: false };
  const png = noisyPng();

  beforeAll(async () => {
    const { database, cleanup } = await openTestDatabase();
    const config = testConfig({ LOG_LEVEL: 'info' });
    uploadsDir = diskUploadsDir(config.dataDir);
    log = captureLog();
    // The disk store's write seam: a full disk takes part of the file, then fails as Node reports it.
    const writeToDisk = async (file: string, body: Buffer) => {
      if (!disk.full) return writeFile(file, body);
      await writeFile(file, body.subarray(0, Math.floor(body.length / 2)));
      throw Object.assign(new Error(`ENOSPC: no space left on device, write '${file}'`), { code: 'ENOSPC', errno: -28, syscall: 'write', path: file });
    };
    const app = await buildApp({
      config, database, logStream: log.stream,
      ...(database.kind === 'pglite' ? { uploads: createLocalUploadStore(uploadsDir, { writeFile: writeToDisk }) } : {}),
      storageHealth: createStorageHealth({
        database: database.kind,
        dirs: [{ label: 'the data directory', path: config.dataDir }],
        freeBytes: async () => (disk.full ? 12 * 1024 : 50 * 1024 ** 3),
        now: () => clock,
      }),
    });
    await app.ready();
    t = { app, database, config, close: async () => { await app.close(); await cleanup(); } };
    admin = await createAdmin(t);
    customer = await createUser(t);
    productId = (await createProduct(t, { price: 12, countInStock: 5 })).id;
    await addToCart(t, customer, productId, 2);
  });
  afterAll(async () => { await t?.close(); });

  const fill = async () => {
    disk.full = true;
    await t.database.exec(failInserts('orders', '53100', COULD_NOT_EXTEND));
    if (t.database.kind === 'postgres') await t.database.exec(failInserts('uploads', '53100', COULD_NOT_EXTEND));
  };
  const free = async () => {
    disk.full = false;
    await t.database.exec(allowInserts('orders') + allowInserts('uploads'));
  };
  const storedUploads = async () => (t.database.kind === 'postgres' ? (await t.database.db.select({ key: uploads.key }).from(uploads)).map((r) => r.key) : existsSync(uploadsDir) ? readdirSync(uploadsDir) : []);
  const ordersOf = async (user: TestUser) => t.database.db.select({ id: orders.id }).from(orders).where(eq(orders.userId, user.id));

  it('while the disk has space, ready is 200 and an upload is stored', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/api/ready' })).statusCode).toBe(200);
    const res = await t.app.inject({ method: 'POST', url: '/api/upload', headers: { cookie: admin.cookie, ...multipartFile(await png).headers }, payload: multipartFile(await png).payload });
    expect(res.statusCode).toBe(201);
    expect(await storedUploads()).toHaveLength(1);
  });

  it('an order placed on a full disk answers 503 STORAGE_FULL with Retry-After; no order, no stock taken, the cart kept', async () => {
    await fill();
    const res = await t.app.inject({ method: 'POST', url: '/api/orders', headers: { cookie: customer.cookie }, payload: { shippingAddress: sampleAddress(), paymentMethod: 'PayPal' } });
    expect(res.statusCode).toBe(503);
    expect(res.headers['retry-after']).toBe('60');
    expect(res.json()).toEqual(FULL_BODY);
    expect(await stockOf(t, productId)).toBe(5);
    expect(await ordersOf(customer)).toEqual([]);
    expect((await call<{ cartItems: unknown[] }>(t, customer, 'GET', '/api/cart')).body.cartItems).toHaveLength(1);
    // Reading still works: the storefront stays up.
    expect((await t.app.inject({ method: 'GET', url: `/api/products/${productId}` })).statusCode).toBe(200);
  });

  it('an upload on a full disk answers 503 STORAGE_FULL; no partial file or row is left', async () => {
    const form = multipartFile(await png);
    const res = await t.app.inject({ method: 'POST', url: '/api/upload', headers: { cookie: admin.cookie, ...form.headers }, payload: form.payload });
    expect(res.statusCode).toBe(503);
    expect(res.headers['retry-after']).toBe('60');
    expect(res.json()).toEqual(FULL_BODY);
    expect(await storedUploads()).toHaveLength(1); // the earlier upload only: no .tmp, no row
  });

  it('ready answers 503 with what is full, and the log says which path or database', async () => {
    const ready = await t.app.inject({ method: 'GET', url: '/api/ready' });
    expect(ready.statusCode).toBe(503);
    expect(ready.headers['retry-after']).toBe('60');
    expect(ready.json()).toEqual({ message: 'Storage full: the data directory has 12 kB free', code: STORAGE_FULL_CODE });
    const lines = log.entries().filter((e) => typeof e.msg === 'string' && e.msg.startsWith('storage full: '));
    const order = lines.find((e) => e.route === '/api/orders');
    expect(order).toMatchObject({ status: 503, storageFull: { what: 'database', database: t.database.kind, code: '53100', detail: COULD_NOT_EXTEND } });
    expect(order!.msg).toBe(t.database.kind === 'pglite' ? `storage full: the embedded database in ${t.config.dataDir}` : "storage full: the database server's disk");
    const upload = lines.find((e) => e.route === '/api/upload');
    if (t.database.kind === 'pglite') {
      expect(upload).toMatchObject({ status: 503, storageFull: { what: 'disk', code: 'ENOSPC', syscall: 'write' } });
      expect(upload!.msg).toMatch(new RegExp(`^storage full: ${uploadsDir}/[a-z0-9]+\\.webp\\.[a-z0-9]+\\.tmp$`));
    } else {
      expect(upload).toMatchObject({ status: 503, storageFull: { what: 'database', database: 'postgres', code: '53100' } });
    }
    expect(log.entries().find((e) => e.msg === 'readiness: Storage full: the data directory has 12 kB free')).toBeDefined();
  });

  it('recovers by itself once space returns: ready 200, the upload and the order go through', async () => {
    await free();
    if (t.database.kind === 'postgres') {
      // The database server's disk cannot be read from here: its last 53100 holds ready for a while.
      expect(await t.app.inject({ method: 'GET', url: '/api/ready' }).then((r) => r.json())).toEqual({ message: 'Storage full: the database server has no space left', code: STORAGE_FULL_CODE });
      clock += STORAGE_FULL_HOLD_MS + 1;
    }
    expect((await t.app.inject({ method: 'GET', url: '/api/ready' })).statusCode).toBe(200);
    const form = multipartFile(await png);
    expect((await t.app.inject({ method: 'POST', url: '/api/upload', headers: { cookie: admin.cookie, ...form.headers }, payload: form.payload })).statusCode).toBe(201);
    expect(await storedUploads()).toHaveLength(2);
    const placed = await placeOrder(t, customer);
    expect(placed.status).toBe(201);
    expect(await stockOf(t, productId)).toBe(3);
    expect(log.entries().find((e) => e.msg === 'readiness: storage writable again')).toBeDefined();
  });

  it('a database out of memory (53200) or of resources (53000) is a 503 with Retry-After too, not a 500', async () => {
    const user = await createUser(t);
    await addToCart(t, user, productId, 1);
    for (const sqlstate of ['53200', '53000']) {
      await t.database.exec(failInserts('orders', sqlstate, 'out of memory'));
      const res = await t.app.inject({ method: 'POST', url: '/api/orders', headers: { cookie: user.cookie }, payload: { shippingAddress: sampleAddress(), paymentMethod: 'PayPal' } });
      expect(res.statusCode, sqlstate).toBe(503);
      expect(res.headers['retry-after']).toBe('5');
      expect(res.json()).toEqual({ message: DATABASE_UNAVAILABLE_MESSAGE, code: 'DATABASE_UNAVAILABLE' });
      expect(await stockOf(t, productId)).toBe(3);
    }
    await t.database.exec(allowInserts('orders'));
  });
});

/** Whether this machine lets the test mount a tmpfs (root in a sandbox that allows it, as CI is). */
function canMountTmpfs(): boolean {
  if (process.platform !== 'linux' || process.getuid?.() !== 0) return false;
  const probe = mkdtempSync(path.join(tmpdir(), 'shop-tmpfs-probe-'));
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=1m', 'tmpfs', probe], { stdio: 'ignore' });
    execFileSync('umount', [probe], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  } finally {
    rmSync(probe, { recursive: true, force: true });
  }
}

describe.runIf(TEST_DB === 'pglite' && canMountTmpfs())('disk full on a real tmpfs: DATA_DIR with the embedded database in it, filled to the last byte', () => {
  let mount: string;
  let database: Database;
  let t: TestApp;
  let log: CapturedLog;
  let admin: TestUser;
  let customer: TestUser;
  let productId: string;
  const filler = () => path.join(mount, 'filler');

  beforeAll(async () => {
    mount = mkdtempSync(path.join(tmpdir(), 'shop-full-disk-'));
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=96m', 'tmpfs', mount]);
    database = await openDatabase({ pgliteDir: path.join(mount, 'pglite'), pgliteLoadDataDir: pgliteTemplate() });
    await migrate(database);
    const config = testConfig({ DATA_DIR: mount, LOG_LEVEL: 'warn' });
    log = captureLog();
    const app = await buildApp({ config, database, logStream: log.stream });
    await app.ready();
    t = { app, database, config, close: async () => { await app.close(); await database.close(); } };
    admin = await createAdmin(t);
    customer = await createUser(t);
    productId = (await createProduct(t, { price: 9.5, countInStock: 4 })).id;
    await addToCart(t, customer, productId, 1);
    mkdirSync(diskUploadsDir(mount), { recursive: true });
  }, 120_000);

  afterAll(async () => {
    await t?.close().catch(() => undefined);
    if (mount) {
      try { execFileSync('umount', [mount], { stdio: 'ignore' }); } catch { /* not mounted */ }
      rmSync(mount, { recursive: true, force: true });
    }
  }, 60_000);

  /** Writes a file until the file system refuses another byte. */
  async function fillToTheLastByte() {
    const handle = await open(filler(), 'w');
    const chunk = Buffer.alloc(256 * 1024, 1);
    try {
      for (let size = chunk.length; ; ) {
        try {
          await handle.write(chunk.subarray(0, size));
        } catch (err) {
          if ((err as { code?: string }).code !== 'ENOSPC') throw err;
          if (size === 1) break;
          size = Math.max(1, Math.floor(size / 2));
        }
      }
    } finally {
      await handle.close();
    }
    const s = statfsSync(mount);
    expect(Number(s.bavail) * Number(s.bsize)).toBeLessThan(64 * 1024);
  }

  it('orders and uploads answer 503 STORAGE_FULL and write nothing, ready says what is full, the log names the path', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/api/ready' })).statusCode).toBe(200);
    const before = multipartFile(await noisyPng(64));
    const stored = await t.app.inject({ method: 'POST', url: '/api/upload', headers: { cookie: admin.cookie, ...before.headers }, payload: before.payload });
    expect(stored.statusCode).toBe(201);
    const key = (stored.json() as { secure_url: string }).secure_url.replace('/uploads/', '');
    await fillToTheLastByte();

    const ready = await t.app.inject({ method: 'GET', url: '/api/ready' });
    expect(ready.statusCode).toBe(503);
    expect(ready.json()).toMatchObject({ code: STORAGE_FULL_CODE, message: expect.stringMatching(/^Storage full: the embedded database has \d+ (B|kB) free$/) });

    const form = multipartFile(await noisyPng());
    const upload = await t.app.inject({ method: 'POST', url: '/api/upload', headers: { cookie: admin.cookie, ...form.headers }, payload: form.payload });
    expect(upload.statusCode).toBe(503);
    expect(upload.headers['retry-after']).toBe('60');
    expect(upload.json()).toEqual(FULL_BODY);
    expect(readdirSync(diskUploadsDir(mount))).toEqual([key]); // the earlier upload only: no partial file

    // Images already stored are still served, resized too: a copy the cache has no room for is sent from memory.
    const resized = await t.app.inject({ method: 'GET', url: `/uploads/w/200/${key}` });
    expect(resized.statusCode).toBe(200);
    expect((await sharp(resized.rawPayload).metadata()).format).toBe('webp');
    expect(existsSync(path.join(mount, 'upload-variants', '200'))
      ? readdirSync(path.join(mount, 'upload-variants', '200')) : []).toEqual([]);

    const order = await placeOrder(t, customer);
    expect(order).toEqual({ status: 503, body: FULL_BODY });
    expect(await stockOf(t, productId)).toBe(4);
    expect(await t.database.db.select({ id: orders.id }).from(orders).where(eq(orders.userId, customer.id))).toEqual([]);

    const lines = log.entries().filter((e) => typeof e.msg === 'string' && e.msg.startsWith('storage full: '));
    expect(lines.find((e) => e.route === '/api/upload')?.msg).toMatch(new RegExp(`^storage full: ${diskUploadsDir(mount)}/`));
    expect(lines.find((e) => e.route === '/api/orders')).toMatchObject({
      msg: `storage full: the embedded database in ${mount}`, storageFull: { what: 'database', code: '53100', detail: expect.stringContaining('No space left on device') },
    });
  });

  it('recovers by itself when space returns: ready 200, the same upload and order go through', async () => {
    rmSync(filler());
    expect((await t.app.inject({ method: 'GET', url: '/api/ready' })).statusCode).toBe(200);
    const form = multipartFile(await noisyPng());
    const upload = await t.app.inject({ method: 'POST', url: '/api/upload', headers: { cookie: admin.cookie, ...form.headers }, payload: form.payload });
    expect(upload.statusCode).toBe(201);
    expect(readdirSync(diskUploadsDir(mount))).toHaveLength(2);
    const order = await placeOrder(t, customer);
    expect(order.status).toBe(201);
    expect(await stockOf(t, productId)).toBe(3);
  });
});
