import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../../config.ts';
import type { Db } from '../client.ts';
import { seedBackoffice } from './backoffice.ts';
import { seedCatalogue } from './catalogue.ts';
import { seedChats } from './chats.ts';
import { seedUsers } from './users.ts';

/** Seeds demo data into an empty database. Each seeder checks its own tables, so a restart adds nothing. */
export async function seedDatabase(db: Db, config: Config, log: FastifyBaseLogger): Promise<void> {
  if (!config.seed.enabled) return;
  const accounts = await seedUsers(db, config.seed);
  for (const a of accounts) {
    // The role only: the log keeps no e-mail addresses (the console lists demo accounts in development).
    log.info({ role: a.role }, 'seeded account');
    if (!config.isProduction) console.info(`  demo ${a.role}: ${a.email} / ${a.password}`);
  }
  const catalogue = await seedCatalogue(db);
  if (catalogue.products) log.info(catalogue, 'seeded demo catalogue');
  const backoffice = await seedBackoffice(db);
  if (backoffice.orders || backoffice.leads) log.info(backoffice, 'seeded demo sales and leads');
  const chats = await seedChats(db);
  if (chats.conversations) log.info(chats, 'seeded demo chat conversations');
}
