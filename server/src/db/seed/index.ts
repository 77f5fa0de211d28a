import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../../config.ts';
import type { Db } from '../client.ts';
import { seedBackoffice } from './backoffice.ts';
import { seedCatalogue } from './catalogue.ts';
import { seedChats } from './chats.ts';
import { seedDiscounts } from './discounts.ts';
import { hasAdministrator, seedUsers } from './users.ts';

/**
 * Seeds an empty database. Each seeder checks its own tables, so a restart adds nothing.
 * - With the demo data (SEED_DEMO_DATA, on by default outside production only): the accounts, the
 *   demo catalogue, sales, leads, chats and discount codes.
 * - In production without it: only the accounts the configuration names (ADMIN_EMAIL, and
 *   CUSTOMER_EMAIL if set) into a database without users; a shop with no administrator says so.
 */
export async function seedDatabase(db: Db, config: Config, log: FastifyBaseLogger): Promise<void> {
  if (!config.seed.demoData && !config.isProduction) return;
  const accounts = await seedUsers(db, config.seed);
  // The role only: the log keeps no e-mail addresses. Outside production every start lists the demo
  // accounts that still have their demo passwords (start-banner.ts), seeded now or before.
  for (const a of accounts) log.info({ role: a.role }, 'seeded account');
  if (config.isProduction && !(await hasAdministrator(db))) {
    log.warn('no administrator account: on a database without users, ADMIN_EMAIL and ADMIN_PASSWORD create one at start');
  }
  if (!config.seed.demoData) return;
  const catalogue = await seedCatalogue(db);
  if (catalogue.products) log.info(catalogue, 'seeded demo catalogue');
  const backoffice = await seedBackoffice(db);
  if (backoffice.orders || backoffice.leads) log.info(backoffice, 'seeded demo sales and leads');
  const chats = await seedChats(db);
  if (chats.conversations) log.info(chats, 'seeded demo chat conversations');
  const codes = await seedDiscounts(db);
  if (codes.discounts) log.info(codes, 'seeded demo discount codes');
}
