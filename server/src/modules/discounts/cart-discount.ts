import { DISCOUNT_MESSAGES, type CartDiscount } from '@shop/contracts';
import { eq } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { cartDiscounts } from '../../db/schema.ts';
import { computeDiscount, type DiscountLine } from './compute-discount.ts';
import { countDiscountUses, discountRefused, findDiscountByCode } from './find-discount.ts';

/** The code's verdict for these lines now (the cart's shipping is not known: free shipping shows 0). */
async function judge(db: Executor, userId: string, code: string, lines: DiscountLine[], now: Date): Promise<CartDiscount> {
  const discount = await findDiscountByCode(db, code);
  if (!discount) return { code: code.toUpperCase(), amount: 0, message: DISCOUNT_MESSAGES.unknown, isValid: false, kind: 'fixed' };
  const uses = await countDiscountUses(db, discount.id, userId);
  const verdict = computeDiscount(discount, { lines, shippingPrice: 0, now, uses });
  return verdict.ok
    ? { code: discount.code, amount: verdict.amount, message: verdict.message, isValid: true, kind: discount.kind }
    : { code: discount.code, amount: 0, message: verdict.message, isValid: false, kind: discount.kind };
}

/**
 * POST cart/discount: the code is kept on the cart only when it applies to the cart as it is;
 * otherwise 400 with the reason (nothing kept). One code per cart: a new one replaces the old.
 */
export async function applyCartDiscount(db: Executor, userId: string, code: string, lines: DiscountLine[], now = new Date()): Promise<void> {
  const verdict = await judge(db, userId, code, lines, now);
  if (!verdict.isValid) throw discountRefused(verdict.message);
  await db.insert(cartDiscounts).values({ userId, code: verdict.code, createdAt: now })
    .onConflictDoUpdate({ target: cartDiscounts.userId, set: { code: verdict.code, createdAt: now } });
}

/** DELETE cart/discount (and after an order is paid): the cart keeps no code. */
export async function removeCartDiscount(db: Executor, userId: string): Promise<void> {
  await db.delete(cartDiscounts).where(eq(cartDiscounts.userId, userId));
}

/**
 * The code kept on the cart, judged again for the cart as it is now (null: none kept). `keptCode`:
 * the code as the caller's own statement already read it (null: none), saving a round trip.
 */
export async function findCartDiscount(db: Executor, userId: string, lines: DiscountLine[], keptCode?: string | null, now = new Date()): Promise<CartDiscount | null> {
  const code = keptCode !== undefined
    ? keptCode
    : ((await db.select({ code: cartDiscounts.code }).from(cartDiscounts).where(eq(cartDiscounts.userId, userId)).limit(1))[0]?.code ?? null);
  return code ? judge(db, userId, code, lines, now) : null;
}
