import { AppError } from '../../lib/errors.ts';
import { and, eq, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { discounts, discountUses } from '../../db/schema.ts';
import type { DiscountUses } from './compute-discount.ts';
import type { DiscountRow } from './discounts.presenter.ts';

/** The discount a shopper's code names (any case), or null; `lock`: FOR UPDATE (the checkout's). */
export async function findDiscountByCode(db: Executor, code: string, opts: { lock?: boolean } = {}): Promise<DiscountRow | null> {
  const query = db.select().from(discounts).where(sql`lower(${discounts.code}) = lower(${code.trim()})`).limit(1);
  const [row] = opts.lock ? await query.for('update') : await query;
  return row ?? null;
}

/** The uses a discount's orders hold, all and this user's. */
export async function countDiscountUses(db: Executor, discountId: string, userId: string): Promise<DiscountUses> {
  const [row] = await db.select({
    total: sql<number>`count(*)::int`,
    mine: sql<number>`(count(*) filter (where ${discountUses.userId} = ${userId}))::int`,
  }).from(discountUses).where(and(eq(discountUses.discountId, discountId)));
  return { total: row?.total ?? 0, mine: row?.mine ?? 0 };
}

/** The refusal of a code that cannot be used: 400 with the reason, in the field the shopper typed it in. */
export const discountRefused = (message: string) => new AppError(400, message, 'DISCOUNT_REFUSED', { discountCode: message });
