import { eq, inArray, sql } from 'drizzle-orm';
import { DEMO_ADMIN, DEMO_CUSTOMER, type Config } from '../../config.ts';
import { newId } from '../../lib/ids.ts';
import { hashPassword, verifyPassword } from '../../lib/passwords.ts';
import type { Db } from '../client.ts';
import { users } from '../schema.ts';

export interface SeededAccount {
  role: 'admin' | 'customer';
  email: string;
  password: string;
}

/** Creates the administrator and the demo customer when the users table is empty. */
export async function seedUsers(db: Db, seed: Config['seed']): Promise<SeededAccount[]> {
  const [{ count } = { count: 0 }] = await db.select({ count: sql<number>`count(*)::int` }).from(users);
  if (count > 0) return [];
  const created: SeededAccount[] = [];
  for (const [role, account] of [['admin', seed.admin], ['customer', seed.customer]] as const) {
    if (!account) continue;
    await db.insert(users).values({
      id: newId(),
      name: account.name,
      email: account.email.toLowerCase(),
      passwordHash: await hashPassword(account.password),
      isAdmin: role === 'admin',
    }).onConflictDoNothing();
    created.push({ role, email: account.email, password: account.password });
  }
  return created;
}

/** Whether any account can administer the shop. */
export async function hasAdministrator(db: Db): Promise<boolean> {
  const rows = await db.select({ id: users.id }).from(users).where(eq(users.isAdmin, true)).limit(1);
  return rows.length > 0;
}

/**
 * The demo accounts (admin@example.com, jane@example.com) that still sign in with their published
 * demo passwords, for the start banner outside production. Cheap: one query for the two addresses,
 * then one password check per account found. Nothing else is ever returned: an account whose
 * password was changed, or one configured with ADMIN_EMAIL / ADMIN_PASSWORD, is not listed, so no
 * password but a published demo one is printed. The role is the account's role now.
 */
export async function demoAccountsInUse(db: Db): Promise<SeededAccount[]> {
  const demos = [DEMO_ADMIN, DEMO_CUSTOMER];
  const rows = await db.select({ email: users.email, passwordHash: users.passwordHash, isAdmin: users.isAdmin }).from(users)
    .where(inArray(sql`lower(${users.email})`, demos.map((d) => d.email)));
  const found: SeededAccount[] = [];
  for (const demo of demos) {
    const row = rows.find((r) => r.email.toLowerCase() === demo.email);
    if (row && (await verifyPassword(row.passwordHash, demo.password))) {
      found.push({ role: row.isAdmin ? 'admin' : 'customer', email: demo.email, password: demo.password });
    }
  }
  return found;
}
