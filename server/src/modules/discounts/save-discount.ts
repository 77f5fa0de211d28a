import { DISCOUNT_MESSAGES, type Discount, type DiscountBody } from '@shop/contracts';
import { eq } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { discounts } from '../../db/schema.ts';
import { AppError, notFound } from '../../lib/errors.ts';
import { isId, newId } from '../../lib/ids.ts';
import { pgErrorCode, UNIQUE_VIOLATION } from '../products/index.ts';
import { getDiscount } from './list-discounts.ts';

const codeTaken = () => new AppError(409, DISCOUNT_MESSAGES.codeTaken, 'DISCOUNT_CODE_TAKEN', { code: DISCOUNT_MESSAGES.codeTaken });

const columnsOf = (body: DiscountBody) => ({
  code: body.code,
  kind: body.kind,
  value: body.value,
  minSubtotal: body.minSubtotal,
  startsAt: body.startsAt ? new Date(body.startsAt) : null,
  endsAt: body.endsAt ? new Date(body.endsAt) : null,
  usageLimit: body.usageLimit,
  perCustomerLimit: body.perCustomerLimit,
  productIds: [...new Set(body.productIds)],
  categories: [...new Set(body.categories)],
  enabled: body.enabled,
  allowBelowSupplierCost: body.allowBelowSupplierCost,
});

/** Writes, turning the unique index on lower(code) into 409 'A discount with this code already exists'. */
async function writing<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (err) {
    if (pgErrorCode(err) === UNIQUE_VIOLATION) throw codeTaken();
    throw err;
  }
}

/** POST discounts (admin). */
export async function createDiscount(db: Executor, body: DiscountBody, now = new Date()): Promise<Discount> {
  const id = newId(now.getTime());
  await writing(() => db.insert(discounts).values({ id, ...columnsOf(body), createdAt: now, updatedAt: now }));
  return getDiscount(db, id);
}

/** PUT discounts/{id} (admin): orders already placed keep the code and amount they were given. */
export async function updateDiscount(db: Executor, id: string, body: DiscountBody, now = new Date()): Promise<Discount> {
  if (!isId(id)) throw notFound(DISCOUNT_MESSAGES.notFound);
  const updated = await writing(() => db.update(discounts).set({ ...columnsOf(body), updatedAt: now }).where(eq(discounts.id, id)).returning({ id: discounts.id }));
  if (!updated.length) throw notFound(DISCOUNT_MESSAGES.notFound);
  return getDiscount(db, id);
}

/** DELETE discounts/{id} (admin): orders keep their code and discount; carts holding it show it as not valid. */
export async function deleteDiscount(db: Executor, id: string): Promise<void> {
  if (!isId(id)) throw notFound(DISCOUNT_MESSAGES.notFound);
  const deleted = await db.delete(discounts).where(eq(discounts.id, id)).returning({ id: discounts.id });
  if (!deleted.length) throw notFound(DISCOUNT_MESSAGES.notFound);
}
