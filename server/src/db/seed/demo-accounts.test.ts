import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_ADMIN, DEMO_CUSTOMER } from '../../config.ts';
import { newId } from '../../lib/ids.ts';
import { hashPassword } from '../../lib/passwords.ts';
import { openTestDatabase, TEST_DB } from '../../test/test-app.ts';
import type { Database } from '../client.ts';
import { users } from '../schema.ts';
import { demoAccountsInUse } from './users.ts';

// Every start outside production lists the demo accounts while they still have their demo
// passwords (start-banner.ts): never another password, never an account whose password changed.
describe(`the demo accounts a start lists (${TEST_DB})`, () => {
  let database: Database;
  let cleanup: () => Promise<void>;
  beforeAll(async () => { ({ database, cleanup } = await openTestDatabase()); });
  afterAll(async () => { await cleanup(); });

  const add = async (email: string, password: string, isAdmin: boolean) =>
    database.db.insert(users).values({ id: newId(), name: email, email, passwordHash: await hashPassword(password), isAdmin });
  const setPassword = async (email: string, password: string) =>
    database.db.update(users).set({ passwordHash: await hashPassword(password) }).where(eq(users.email, email));

  it('none on a database without them; both while their demo passwords work; each gone once its password changed', async () => {
    expect(await demoAccountsInUse(database.db)).toEqual([]);
    await add('someone@example.com', 'password123', true);
    await add(DEMO_ADMIN.email, DEMO_ADMIN.password, true);
    await add(DEMO_CUSTOMER.email, DEMO_CUSTOMER.password, false);
    expect(await demoAccountsInUse(database.db)).toEqual([
      { role: 'admin', email: 'admin@example.com', password: 'admin1234' },
      { role: 'customer', email: 'jane@example.com', password: 'jane1234' },
    ]);
    await setPassword(DEMO_ADMIN.email, 'a-private-password');
    expect(await demoAccountsInUse(database.db)).toEqual([{ role: 'customer', email: 'jane@example.com', password: 'jane1234' }]);
    // the role is the account's role now
    await database.db.update(users).set({ isAdmin: true }).where(eq(users.email, DEMO_CUSTOMER.email));
    expect(await demoAccountsInUse(database.db)).toEqual([{ role: 'admin', email: 'jane@example.com', password: 'jane1234' }]);
    await setPassword(DEMO_CUSTOMER.email, 'another-private-one');
    expect(await demoAccountsInUse(database.db)).toEqual([]);
  });
});
