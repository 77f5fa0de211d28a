import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { buffer } from 'node:stream/consumers';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../app.ts';
import { openDatabase, type Database } from '../db/client.ts';
import { migrate } from '../db/migrate.ts';
import { claimPgliteDir } from '../db/pglite-lock.ts';
import { seedCatalogue } from '../db/seed/catalogue.ts';
import { demoImageKeys, fillDemoImages, withDemoImages } from '../db/seed/demo-images.ts';
import { call, createAddressFor, createProduct, placeOrderFor } from '../test/commerce-factories.ts';
import { createAdmin, createUser, TEST_DB, testConfig, type TestApp, type TestUser } from '../test/test-app.ts';
import { restoreBackup } from './restore.ts';
import { createScratchSpace } from '../test/scratch-space.ts';

const SERVER_DIR = path.resolve(import.meta.dirname, '../..');
const JWT_SECRET = 'backup-test-secret-backup-test-secret-1';

/** Runs one of the ops command-line scripts as `npm run backup`/`restore` would, with the shop's settings. */
function runCli(script: string, args: string[], shop: { dataDir: string; databaseUrl?: string }) {
  return new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', `src/ops/${script}`, ...args], {
      cwd: SERVER_DIR,
      env: { ...process.env, NODE_ENV: 'test', DATA_DIR: shop.dataDir, DATABASE_URL: shop.databaseUrl ?? '', JWT_SECRET, LOG_LEVEL: 'silent' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => { stdout += d.toString(); });
    child.stderr.on('data', (d: Buffer) => { stderr += d.toString(); });
    child.on('exit', (code) => resolve({ code, stdout, stderr }));
  });
}

interface Shop extends TestApp { dataDir: string; databaseUrl?: string }

/** A shop on a database and data directory that outlive it (unlike createTestApp's). */
async function openShop(dataDir: string, databaseUrl?: string): Promise<Shop & { applied: string[] }> {
  const database = databaseUrl
    ? await openDatabase({ databaseUrl, poolSize: 4 })
    : await openDatabase({ pgliteDir: path.join(dataDir, 'pglite') });
  const applied = await migrate(database);
  const config = testConfig({ DATA_DIR: dataDir, JWT_SECRET, ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}) });
  const app = await buildApp({ config, database, logger: false });
  await app.ready();
  return {
    app, database, config, dataDir, applied, ...(databaseUrl ? { databaseUrl } : {}),
    close: async () => { await app.close(); await database.close(); },
  };
}

/** Row count and checksum of every table, computed here independently of the backup code. */
async function snapshotTables(database: Database): Promise<Record<string, { rows: number; md5: string }>> {
  return database.rawTransaction(async (tx) => {
    await tx.exec("SET LOCAL TimeZone = 'UTC'");
    const tables = await tx.query<{ name: string }>("SELECT tablename AS name FROM pg_tables WHERE schemaname = 'public' ORDER BY 1");
    const out: Record<string, { rows: number; md5: string }> = {};
    for (const { name } of tables) {
      const [r] = await tx.query<{ rows: string; md5: string | null }>(
        `SELECT count(*)::text AS rows, md5(string_agg(t::text, E'\\n' ORDER BY t::text COLLATE "C")) AS md5 FROM "${name}" t`,
      );
      out[name] = { rows: Number(r!.rows), md5: r!.md5 ?? '' };
    }
    return out;
  });
}

async function imagesOf(shop: Shop): Promise<Map<string, Buffer>> {
  const images = new Map<string, Buffer>();
  for (const key of await shop.app.ctx.uploads.list()) images.set(key, await buffer((await shop.app.ctx.uploads.get(key))!.body));
  return images;
}

const BOUNDARY = '----backup-test';
/** Demo images drawn before the backup; with the uploaded image, the images a backup holds. */
const DEMO_IMAGES_DRAWN = 12;

/** Fills a shop the way it is used: catalogue with images, an uploaded product image, a customer with orders, a payment and a review. */
async function fillShop(shop: Shop) {
  await seedCatalogue(shop.database.db);
  // The images of a few demo products (drawn as after a start), so the backup holds seed images too.
  await fillDemoImages(withDemoImages(shop.app.ctx.uploads), new Set(demoImageKeys().slice(0, DEMO_IMAGES_DRAWN)), () => false);
  const admin = await createAdmin(shop);
  const png = await sharp({ create: { width: 500, height: 400, channels: 3, background: '#3366aa' } }).png().toBuffer();
  const upload = await shop.app.inject({
    method: 'POST', url: '/api/upload',
    payload: Buffer.concat([
      Buffer.from(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="lamp.png"\r\nContent-Type: image/png\r\n\r\n`),
      png, Buffer.from(`\r\n--${BOUNDARY}--\r\n`),
    ]),
    headers: { 'content-type': `multipart/form-data; boundary=${BOUNDARY}`, cookie: admin.cookie },
  });
  expect(upload.statusCode).toBe(201);
  const image = upload.json().secure_url as string;
  const lamp = await createProduct(shop, { name: 'Backup Lamp', slug: 'backup-lamp', image, images: [image], countInStock: 50, price: 25 });

  const customer = await createUser(shop, { name: 'Restored Customer', email: 'restored@example.com', password: 'restore-me-123' });
  await createAddressFor(shop, customer);
  const first = await placeOrderFor(shop, customer, [{ productId: lamp.id, quantity: 2 }]);
  const second = await placeOrderFor(shop, customer, [{ productId: lamp.id, quantity: 1 }]);
  expect((await call(shop, customer, 'PUT', `/api/orders/${first._id}/pay`, { demo: true })).status).toBe(200);
  expect((await call(shop, customer, 'POST', `/api/products/${lamp.id}/reviews`, { rating: 5, comment: 'Still shining after a restore' })).status).toBe(201);
  // Chat: a guest greeted by the AI, the customer's question with its AI answer, an administrator's reply (and the leads they make).
  expect((await shop.app.inject({ method: 'POST', url: '/api/chat/guest-session', payload: { name: 'Backup Guest', email: 'guest@example.com' } })).statusCode).toBe(200);
  expect((await call(shop, customer, 'POST', '/api/chat/save', { message: { content: 'Is the Backup Lamp in stock?', clientId: 'backup-q' } })).status).toBe(201);
  for (let i = 0; i < 100; i += 1) {
    const history = await call<Array<{ messages: Array<{ sender: string }> }>>(shop, customer, 'GET', '/api/chat/history');
    if (history.body[0]?.messages.some((m) => m.sender === 'ai')) break;
    await new Promise((r) => setTimeout(r, 50));
  }
  expect((await call(shop, admin, 'POST', '/api/chat/save', { message: { content: 'Yes, 50 of them.', clientId: 'backup-a', recipientId: customer.id } })).status).toBe(201);
  await shop.app.ctx.background.flush();
  // The leads are written by their jobs (leads/lead-jobs.ts).
  await shop.app.ctx.jobs.runDue();
  return { customer, orderIds: [first._id, second._id].sort(), paidId: first._id, image };
}

describe(`backup and restore on ${TEST_DB}`, () => {
  const { tempDir, newDatabaseUrl, cleanUp } = createScratchSpace();
  let source: Shop;
  let filled: Awaited<ReturnType<typeof fillShop>>;
  let sourceTables: Awaited<ReturnType<typeof snapshotTables>>;
  let sourceImages: Map<string, Buffer>;

  beforeAll(async () => {
    source = await openShop(tempDir('shop-backup-src-'), await newDatabaseUrl());
    filled = await fillShop(source);
    sourceTables = await snapshotTables(source.database);
    sourceImages = await imagesOf(source);
  });
  afterAll(async () => {
    await source.close().catch(() => undefined);
    await cleanUp();
  });

  it('backs up, restores into a fresh database and data directory, and the shop on it has every row and image, and the customer their orders', async () => {
    expect(sourceTables.orders?.rows).toBe(2);
    expect(sourceTables.reviews?.rows).toBeGreaterThan(100);
    expect(sourceTables.chat_messages?.rows).toBe(4);
    expect(sourceTables.chat_conversations?.rows).toBe(2);
    expect(sourceTables.leads?.rows).toBe(2);
    expect(sourceImages.size).toBe(DEMO_IMAGES_DRAWN + 1);
    if (TEST_DB === 'pglite') {
      // The embedded database belongs to one process: a running shop keeps the backup out.
      await source.close();
      const release = claimPgliteDir(path.join(source.dataDir, 'pglite'), 'the shop server');
      const refused = await runCli('backup-cli.ts', [], source);
      release();
      expect(refused.code).toBe(1);
      expect(refused.stderr).toContain(`Backup failed: The embedded database in ${path.join(source.dataDir, 'pglite')} is in use by process ${process.pid} (the shop server). Stop it first`);
    }
    const file = path.join(tempDir('shop-backup-file-'), 'shop.tar');
    const backup = await runCli('backup-cli.ts', ['--out', file], source);
    expect(backup.stderr).toBe('');
    expect(backup.code).toBe(0);
    expect(backup.stdout.trimEnd().split('\n').at(-1)).toBe(file);
    expect(backup.stdout).toContain(`${Object.keys(sourceTables).length} tables, ${Object.values(sourceTables).reduce((n, t) => n + t.rows, 0)} rows, ${DEMO_IMAGES_DRAWN + 1} images`);
    expect(existsSync(file)).toBe(true);

    const target = { dataDir: tempDir('shop-backup-dst-'), databaseUrl: await newDatabaseUrl() };
    const restored = await runCli('restore-cli.ts', [file], target);
    expect(restored.stderr).toBe('');
    expect(restored.code).toBe(0);
    expect(restored.stdout).toContain(`verified: ${Object.keys(sourceTables).length} tables (row counts and checksums) and ${DEMO_IMAGES_DRAWN + 1} images (checksums) match the backup`);
    expect(restored.stdout).toMatch(/\n {2}orders +2 rows\n/);

    // A second restore into the now non-empty target is refused, and allowed with --force.
    const refused = await runCli('restore-cli.ts', [file], target);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('Restore failed: Refusing to restore into a target that is not empty: ');
    expect(refused.stderr).toContain('Use --force to replace it.');
    const forced = await runCli('restore-cli.ts', [file, '--force'], target);
    expect(forced.code).toBe(0);

    const shop = await openShop(target.dataDir, target.databaseUrl);
    try {
      expect(shop.applied).toEqual([]); // the restored schema is complete: nothing to migrate
      expect(await snapshotTables(shop.database)).toEqual(sourceTables);
      const images = await imagesOf(shop);
      expect([...images.keys()]).toEqual([...sourceImages.keys()]);
      for (const [key, bytes] of sourceImages) {
        const served = await shop.app.inject({ method: 'GET', url: `/uploads/${key}` });
        expect(served.statusCode, key).toBe(200);
        expect(Buffer.compare(served.rawPayload, bytes), key).toBe(0);
      }
      const signin = await shop.app.inject({ method: 'POST', url: '/api/users/signin', payload: { email: 'restored@example.com', password: 'restore-me-123' } });
      expect(signin.statusCode).toBe(200);
      const cookie = [signin.headers['set-cookie']].flat().map((c) => String(c).split(';')[0]).join('; ');
      const mine = await shop.app.inject({ method: 'GET', url: '/api/orders/mine', headers: { cookie } });
      expect(mine.statusCode).toBe(200);
      const orders = mine.json() as Array<{ _id: string; isPaid: boolean; orderItems: Array<{ image: string }> }>;
      expect(orders.map((o) => o._id).sort()).toEqual(filled.orderIds);
      expect(orders.find((o) => o._id === filled.paidId)?.isPaid).toBe(true);
      expect(orders.every((o) => o.orderItems[0]?.image === filled.image)).toBe(true);
      // …and their chat, question, AI answer and the administrator's reply.
      const chat = await shop.app.inject({ method: 'GET', url: '/api/chat/history', headers: { cookie } });
      expect(chat.statusCode).toBe(200);
      const messages = (chat.json() as Array<{ messages: Array<{ sender: string; content: string }> }>)[0]!.messages;
      expect(messages.map((m) => m.sender)).toEqual(['user', 'ai', 'admin']);
      expect(messages.at(-1)?.content).toBe('Yes, 50 of them.');
    } finally {
      await shop.close();
    }
  }, 180_000);

  it.runIf(TEST_DB === 'postgres')('on PostgreSQL a backup taken while orders are being placed is one consistent moment', async () => {
    const customer: TestUser = await createUser(source, { password: 'concurrent-123' });
    const stocked = await createProduct(source, { countInStock: 100_000, price: 3 });
    const stockAndSold = async (db: Database) => (await db.query<{ n: string }>(
      `SELECT ((SELECT sum(count_in_stock) FROM products) + (SELECT coalesce(sum(quantity), 0) FROM order_items))::text AS n`,
    ))[0]!.n;
    const invariant = await stockAndSold(source.database);
    const count = async (db: Database) => Number((await db.query<{ n: string }>('SELECT count(*)::text AS n FROM orders'))[0]!.n);

    let writing = true;
    let placed = 0;
    // Each order differs (quantity) so that none is taken for a double submit of the one before.
    const writer = (async () => {
      while (writing) await placeOrderFor(source, customer, [{ productId: stocked.id, quantity: ++placed }]);
    })().then(() => null, (err: unknown) => err);
    const before = await count(source.database);
    const file = path.join(tempDir('shop-backup-live-'), 'live.tar');
    const backup = await runCli('backup-cli.ts', ['--out', file], source);
    const after = await count(source.database);
    writing = false;
    expect(await writer).toBeNull();
    expect(backup.code).toBe(0);

    const target = { dataDir: tempDir('shop-backup-live-dst-'), databaseUrl: (await newDatabaseUrl())! };
    const manifest = await restoreBackup({ config: { ...target, pgBinDir: undefined }, file });
    const restored = await openDatabase({ databaseUrl: target.databaseUrl, poolSize: 2 });
    try {
      const inBackup = manifest.tables.find((t) => t.name === 'orders')!.rows;
      console.info(`orders: ${before} when the backup started, ${inBackup} in the backup, ${after} when it ended`);
      expect(inBackup).toBeGreaterThan(before);
      expect(inBackup).toBeLessThan(after);
      expect(await count(restored)).toBe(inBackup);
      // Stock and order lines come from the same instant: stock + quantities sold is unchanged.
      expect(await stockAndSold(restored)).toBe(invariant);
      const orphans = await restored.query<{ n: string }>('SELECT count(*)::text AS n FROM orders o WHERE NOT EXISTS (SELECT 1 FROM order_items i WHERE i.order_id = o.id)');
      expect(orphans[0]!.n).toBe('0');
    } finally {
      await restored.close();
    }
  }, 120_000);
});
