import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Order, OrderListResponse } from '@shop/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp, type App } from '../../app.ts';
import { openDatabase, type Database } from '../../db/client.ts';
import { listMigrations, migrate } from '../../db/migrate.ts';
import { addToCart, call, createProduct, sampleAddress } from '../../test/commerce-factories.ts';
import { postgresOnlySkipReason } from '../../test/requirements.ts';
import { createAdmin, createScratchPostgres, createTestApp, createUser, TEST_DB, testConfig, type TestApp, type TestUser } from '../../test/test-app.ts';

async function checkout(t: TestApp, user: TestUser, productId: string): Promise<Order> {
  await addToCart(t, user, productId, 1);
  const res = await call<Order>(t, user, 'POST', '/api/orders', { shippingAddress: sampleAddress(), paymentMethod: 'PayPal' });
  if (res.status !== 201) throw new Error(`place: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}

describe(`order numbers on ${TEST_DB}`, () => {
  let t: TestApp;
  let admin: TestUser;
  beforeAll(async () => {
    t = await createTestApp();
    admin = await createAdmin(t);
  });
  afterAll(async () => { await t.close(); });

  it('start at 1001, are unique under concurrent checkouts, and are on every order shape', async () => {
    const p = await createProduct(t, { countInStock: 100 });
    const buyers = await Promise.all(Array.from({ length: 12 }, () => createUser(t)));
    const placed = await Promise.all(buyers.map((b) => checkout(t, b, p.id)));
    const numbers = placed.map((o) => o.number);
    expect(new Set(numbers).size).toBe(12);
    for (const n of numbers) expect(n).toBeGreaterThanOrEqual(1001);
    expect(Math.min(...numbers)).toBe(1001); // a fresh shop's first order
    const [buyer] = buyers;
    const mine = (await call<Order[]>(t, buyer!, 'GET', '/api/orders/mine')).body;
    expect(mine.map((o) => o.number)).toEqual([placed[0]!.number]);
    expect((await call<Order>(t, buyer!, 'GET', `/api/orders/${placed[0]!._id}`)).body.number).toBe(placed[0]!.number);
    const list = (await call<OrderListResponse>(t, admin, 'GET', '/api/orders?pageSize=100')).body;
    expect(list.orders.map((o) => o.number).sort()).toEqual([...numbers].sort());
  });

  it.runIf(TEST_DB === 'pglite')('the migration numbers existing orders in the order they were placed, and the sequence goes on after them', async () => {
    // A shop as it was before 0070: three orders whose ids do not sort like their dates.
    const dir = mkdtempSync(path.join(tmpdir(), 'shop-migrations-'));
    const all = listMigrations();
    const before = all.filter((m) => m.name < '0070');
    for (const m of before) copyFileSync(path.join(import.meta.dirname, '../../db/migrations', m.name), path.join(dir, m.name));
    const database = await openDatabase({ pgliteDir: 'memory://' });
    try {
      await migrate(database, dir);
      await database.exec(`
        INSERT INTO users (id, name, email, password_hash) VALUES ('aaaaaaaaaaaaaaaaaaaaaaa1', 'Old', 'old@example.com', 'x');
        INSERT INTO orders (id, user_id, shipping_address, payment_method, items_price, shipping_price, tax_price, total_price, is_paid, paid_at, payment_id, created_at)
        VALUES ('cccccccccccccccccccccc01', 'aaaaaaaaaaaaaaaaaaaaaaa1', '{}', 'PayPal', 5, 0, 0, 5, true, '2026-01-03T10:00:00Z', 'demo-1', '2026-01-03T09:00:00Z'),
               ('cccccccccccccccccccccc02', 'aaaaaaaaaaaaaaaaaaaaaaa1', '{}', 'PayPal', 6, 0, 0, 6, false, null, null, '2026-01-01T09:00:00Z'),
               ('cccccccccccccccccccccc03', 'aaaaaaaaaaaaaaaaaaaaaaa1', '{}', 'PayPal', 7, 0, 0, 7, false, null, null, '2026-01-02T09:00:00Z');`);
      await migrate(database);
      const rows = await database.query<{ id: string; number: number }>('SELECT id, number FROM orders ORDER BY number');
      expect(rows).toEqual([
        { id: 'cccccccccccccccccccccc02', number: 1001 },
        { id: 'cccccccccccccccccccccc03', number: 1002 },
        { id: 'cccccccccccccccccccccc01', number: 1003 },
      ]);
      await database.exec(`INSERT INTO orders (id, user_id, shipping_address, payment_method, items_price, shipping_price, tax_price, total_price)
        VALUES ('cccccccccccccccccccccc04', 'aaaaaaaaaaaaaaaaaaaaaaa1', '{}', 'PayPal', 8, 0, 0, 8)`);
      expect((await database.query<{ number: number }>(`SELECT number FROM orders WHERE id = 'cccccccccccccccccccccc04'`))[0]!.number).toBe(1004);
      // Their timelines start from what the rows tell: placed, and paid for the paid one.
      const events = await database.query<{ order_id: string; type: string }>('SELECT order_id, type FROM order_events ORDER BY order_id, created_at');
      expect(events).toEqual([
        { order_id: 'cccccccccccccccccccccc01', type: 'placed' },
        { order_id: 'cccccccccccccccccccccc01', type: 'paid' },
        { order_id: 'cccccccccccccccccccccc02', type: 'placed' },
        { order_id: 'cccccccccccccccccccccc03', type: 'placed' },
      ]);
    } finally {
      await database.close();
      rmSync(dir, { recursive: true, force: true });
    }
  }, 120_000); // a fresh embedded database migrated twice: slow on a busy machine
});

// Two app instances, as two machines would run them, on one PostgreSQL database.
const SKIP = postgresOnlySkipReason();
if (SKIP) console.info(`two-instance order numbers test skipped: ${SKIP}`);

describe.skipIf(SKIP)('order numbers under concurrent checkouts on two instances sharing one PostgreSQL database', () => {
  let scratch: { url: string; drop: () => Promise<void> };
  const instances: Array<{ app: App; database: Database; t: TestApp }> = [];

  beforeAll(async () => {
    scratch = await createScratchPostgres();
    for (let i = 0; i < 2; i += 1) {
      const config = testConfig({ DATABASE_URL: scratch.url });
      const database = await openDatabase({ databaseUrl: scratch.url, poolSize: 6 });
      await migrate(database);
      const app = await buildApp({ config, database, logger: false });
      await app.ready();
      instances.push({ app, database, t: { app, database, config, close: async () => {} } });
    }
  });
  afterAll(async () => {
    for (const i of instances) {
      await i.app.close();
      await i.database.close();
      rmSync(i.t.config.dataDir, { recursive: true, force: true });
    }
    await scratch?.drop();
  });

  it('every order gets its own number, whichever instance placed it', async () => {
    const [a, b] = instances as [typeof instances[0], typeof instances[0]];
    const p = await createProduct(a.t, { countInStock: 1000 });
    const buyers = await Promise.all(Array.from({ length: 30 }, () => createUser(a.t)));
    const placed = await Promise.all(buyers.map((u, i) => checkout(i % 2 ? a.t : b.t, u, p.id)));
    const numbers = placed.map((o) => o.number);
    expect(new Set(numbers).size).toBe(30);
    const rows = await a.database.query<{ n: number; distinct_n: number }>('SELECT count(*)::int AS n, count(DISTINCT number)::int AS distinct_n FROM orders');
    expect(rows[0]).toEqual({ n: 30, distinct_n: 30 });
  });
});
