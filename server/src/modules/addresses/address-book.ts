import {
  ADDRESS_LIMIT, ADDRESS_NOT_FOUND_MESSAGE, DUPLICATE_ADDRESS_MESSAGE, type Address, type AddressBody,
} from '@shop/contracts';
import { and, asc, desc, eq, ne, sql, type AnyColumn } from 'drizzle-orm';
import type { Db, Executor, Tx } from '../../db/client.ts';
import { addresses, users } from '../../db/schema.ts';
import { badRequest, notFound } from '../../lib/errors.ts';
import { isId, newId } from '../../lib/ids.ts';
import { presentAddress } from './addresses.presenter.ts';

type AddressRow = typeof addresses.$inferSelect;

const norm = (col: AnyColumn) => sql`lower(btrim(${col}))`;
const key = (v: string) => v.trim().toLowerCase();

function isUniqueViolation(err: unknown): boolean {
  const e = err as { code?: string; cause?: { code?: string } };
  return e?.code === '23505' || e?.cause?.code === '23505';
}

/** Serialises one user's address-book writes (first-default and promote-on-delete need it). */
async function lockUser(tx: Tx, userId: string) {
  await tx.select({ id: users.id }).from(users).where(eq(users.id, userId)).for('update');
}

async function findOwned(db: Executor, userId: string, id: string): Promise<AddressRow> {
  if (!isId(id)) throw notFound(ADDRESS_NOT_FOUND_MESSAGE);
  const [row] = await db.select().from(addresses).where(and(eq(addresses.id, id), eq(addresses.userId, userId))).limit(1);
  if (!row) throw notFound(ADDRESS_NOT_FOUND_MESSAGE);
  return row;
}

/** Finds one of the user's addresses; another user's answers 404 'Address not found'. */
export async function findAddress(db: Executor, userId: string, id: string): Promise<Address> {
  return presentAddress(await findOwned(db, userId, id));
}

async function assertNotDuplicate(tx: Tx, userId: string, body: AddressBody, excludeId?: string) {
  const [dup] = await tx.select({ id: addresses.id }).from(addresses).where(and(
    eq(addresses.userId, userId),
    sql`${norm(addresses.address)} = ${key(body.address)}`,
    sql`${norm(addresses.city)} = ${key(body.city)}`,
    sql`${norm(addresses.postalCode)} = ${key(body.postalCode)}`,
    sql`${norm(addresses.country)} = ${key(body.country)}`,
    excludeId ? ne(addresses.id, excludeId) : undefined,
  )).limit(1);
  if (dup) throw badRequest(DUPLICATE_ADDRESS_MESSAGE, undefined, 'DUPLICATE_ADDRESS');
}

/** Runs an address-book write; the unique index backs the duplicate rule under concurrency. */
async function write<T>(db: Db, userId: string, fn: (tx: Tx) => Promise<T>): Promise<T> {
  try {
    return await db.transaction(async (tx) => {
      await lockUser(tx, userId);
      return fn(tx);
    });
  } catch (err) {
    if (isUniqueViolation(err)) throw badRequest(DUPLICATE_ADDRESS_MESSAGE, undefined, 'DUPLICATE_ADDRESS');
    throw err;
  }
}

/** The user's addresses, default first. */
export async function listAddresses(db: Executor, userId: string): Promise<Address[]> {
  const rows = await db.select().from(addresses).where(eq(addresses.userId, userId))
    .orderBy(desc(addresses.isDefault), asc(addresses.createdAt), asc(addresses.id));
  return rows.map(presentAddress);
}

const fields = (b: AddressBody) => ({
  fullName: b.fullName, address: b.address, city: b.city, postalCode: b.postalCode, country: b.country,
});

/** Adds an address; the first one (or one sent with isDefault) becomes the default. */
export async function createAddress(db: Db, userId: string, body: AddressBody): Promise<Address> {
  return write(db, userId, async (tx) => {
    await assertNotDuplicate(tx, userId, body);
    const existing = await tx.select({ id: addresses.id }).from(addresses).where(eq(addresses.userId, userId));
    if (existing.length >= ADDRESS_LIMIT) throw badRequest(`You can save up to ${ADDRESS_LIMIT} addresses`);
    const isDefault = existing.length === 0 || body.isDefault === true;
    const now = new Date();
    if (isDefault) await tx.update(addresses).set({ isDefault: false, updatedAt: now }).where(and(eq(addresses.userId, userId), eq(addresses.isDefault, true)));
    const [row] = await tx.insert(addresses).values({ id: newId(), userId, ...fields(body), isDefault, createdAt: now, updatedAt: now }).returning();
    return presentAddress(row!);
  });
}

/**
 * Edits an address. isDefault: true makes it the default; false on the current default is ignored,
 * since there is always exactly one default (choose another with PUT addresses/{id}/default).
 */
export async function updateAddress(db: Db, userId: string, id: string, body: AddressBody): Promise<Address> {
  return write(db, userId, async (tx) => {
    const current = await findOwned(tx, userId, id);
    await assertNotDuplicate(tx, userId, body, id);
    const now = new Date();
    const isDefault = current.isDefault || body.isDefault === true;
    if (isDefault && !current.isDefault) {
      await tx.update(addresses).set({ isDefault: false, updatedAt: now }).where(and(eq(addresses.userId, userId), eq(addresses.isDefault, true)));
    }
    const [row] = await tx.update(addresses).set({ ...fields(body), isDefault, updatedAt: now }).where(eq(addresses.id, id)).returning();
    return presentAddress(row!);
  });
}

/** Deletes an address; when it was the default, the oldest remaining address becomes the default. */
export async function deleteAddress(db: Db, userId: string, id: string): Promise<void> {
  await write(db, userId, async (tx) => {
    const current = await findOwned(tx, userId, id);
    await tx.delete(addresses).where(eq(addresses.id, id));
    if (!current.isDefault) return;
    const [next] = await tx.select({ id: addresses.id }).from(addresses).where(eq(addresses.userId, userId))
      .orderBy(asc(addresses.createdAt), asc(addresses.id)).limit(1);
    if (next) await tx.update(addresses).set({ isDefault: true, updatedAt: new Date() }).where(eq(addresses.id, next.id));
  });
}

/** Makes one address the default and answers the whole book. */
export async function setDefaultAddress(db: Db, userId: string, id: string): Promise<Address[]> {
  await write(db, userId, async (tx) => {
    const current = await findOwned(tx, userId, id);
    if (current.isDefault) return;
    const now = new Date();
    await tx.update(addresses).set({ isDefault: false, updatedAt: now }).where(and(eq(addresses.userId, userId), eq(addresses.isDefault, true)));
    await tx.update(addresses).set({ isDefault: true, updatedAt: now }).where(eq(addresses.id, id));
  });
  return listAddresses(db, userId);
}
