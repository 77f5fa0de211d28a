import { eq, sql } from 'drizzle-orm';
import type { Config } from '../../config.ts';
import { newId } from '../../lib/ids.ts';
import { hashPassword } from '../../lib/passwords.ts';
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
