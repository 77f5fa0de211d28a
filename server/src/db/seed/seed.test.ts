import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pino from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../config.ts';
import { captureLog } from '../../test/log-capture.ts';
import { openTestDatabase } from '../../test/test-app.ts';
import type { Database } from '../client.ts';
import { seedDatabase } from './index.ts';

const PRODUCTION = { NODE_ENV: 'production', PUBLIC_URL: 'https://shop.example.com' };

/** What an empty database holds after seedDatabase under the given environment. */
async function seededWith(env: Record<string, string>): Promise<{ counts: Record<string, number>; admins: string[]; warnings: string[] }> {
  const { database, cleanup } = await openTestDatabase();
  opened.push(cleanup);
  // The configuration a start with this environment reads (SEED_DEMO_DATA unset unless given).
  const config = loadConfig({
    DATA_DIR: mkdtempSync(path.join(tmpdir(), 'shop-seed-')), JWT_SECRET: 'seed-test-secret-seed-test-secret-123', ...env,
  });
  const log = captureLog();
  await seedDatabase(database.db, config, pino({ level: 'info' }, log.stream));
  return {
    counts: await countsOf(database),
    admins: (await database.query<{ email: string }>('select email from users where is_admin order by email')).map((r) => r.email),
    warnings: log.entries().filter((e) => e.level === 40).map((e) => String(e.msg)),
  };
}

async function countsOf(database: Database): Promise<Record<string, number>> {
  const [row] = await database.query<Record<string, number>>(`select
    (select count(*)::int from users) as users, (select count(*)::int from products) as products,
    (select count(*)::int from reviews) as reviews, (select count(*)::int from orders) as orders,
    (select count(*)::int from leads) as leads, (select count(*)::int from chat_conversations) as chats,
    (select count(*)::int from discounts) as discounts`);
  return row!;
}

const opened: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const close of opened.splice(0)) await close();
});

describe('seeding an empty database', () => {
  it('in production: only the administrator ADMIN_EMAIL names, no invented products, orders, reviews, leads or chats', async () => {
    const seeded = await seededWith({ ...PRODUCTION, ADMIN_EMAIL: 'Owner@Shop.example.com', ADMIN_PASSWORD: 'a-long-admin-password' });
    expect(seeded.counts).toEqual({ users: 1, products: 0, reviews: 0, orders: 0, leads: 0, chats: 0, discounts: 0 });
    expect(seeded.admins).toEqual(['owner@shop.example.com']);
    expect(seeded.warnings).toEqual([]);
  });

  it('in production without ADMIN_EMAIL: nothing, and the log says there is no administrator', async () => {
    const seeded = await seededWith(PRODUCTION);
    expect(seeded.counts).toEqual({ users: 0, products: 0, reviews: 0, orders: 0, leads: 0, chats: 0, discounts: 0 });
    expect(seeded.warnings).toEqual([expect.stringMatching(/^no administrator account/)]);
  });

  it('in production with SEED_DEMO_DATA=true (a demo site): the demo catalogue and business too', async () => {
    const seeded = await seededWith({ ...PRODUCTION, SEED_DEMO_DATA: 'true', ADMIN_EMAIL: 'owner@shop.example.com', ADMIN_PASSWORD: 'a-long-admin-password' });
    expect(seeded.counts.products).toBeGreaterThanOrEqual(60);
    expect(seeded.counts.orders).toBeGreaterThan(0);
    expect(seeded.counts.leads).toBeGreaterThan(0);
    expect(seeded.admins).toEqual(['owner@shop.example.com']);
  });

  it('outside production: the demo accounts and data by default, nothing with SEED_DEMO_DATA=false', async () => {
    const demo = await seededWith({ NODE_ENV: 'development' });
    expect(demo.counts.users).toBe(2);
    expect(demo.counts.products).toBeGreaterThanOrEqual(60);
    // The demo discount codes (WELCOME10, FREESHIP), so Discounts and the cart's code box show something.
    expect(demo.counts.discounts).toBe(2);
    expect(demo.admins).toEqual(['admin@example.com']);
    const none = await seededWith({ NODE_ENV: 'development', SEED_DEMO_DATA: 'false' });
    expect(none.counts).toEqual({ users: 0, products: 0, reviews: 0, orders: 0, leads: 0, chats: 0, discounts: 0 });
  });
});
