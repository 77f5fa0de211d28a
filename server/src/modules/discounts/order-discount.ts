import { DISCOUNT_MESSAGES } from '@shop/contracts';
import { inArray } from 'drizzle-orm';
import type { Tx } from '../../db/client.ts';
import { discountUses } from '../../db/schema.ts';
import { computeDiscount, type DiscountLine } from './compute-discount.ts';
import { countDiscountUses, discountRefused, findDiscountByCode } from './find-discount.ts';

export interface OrderDiscount { discountId: string; code: string; amount: number }

/**
 * Checks a code for an order being placed, inside its transaction: the discount's row is locked
 * (FOR UPDATE) before its uses are counted, so orders using one code are placed one at a time and
 * each counts the uses committed before it (20 simultaneous orders on a limit of 5: exactly 5).
 * Lock order: the customer (place-order.ts), then the discount, then the products. Throws 400 with
 * the reason when the code cannot be used. Call recordDiscountUse once the order row is written.
 */
export async function checkDiscountForOrder(
  tx: Tx, input: { code: string; userId: string; lines: DiscountLine[]; shippingPrice: number; now: Date },
): Promise<OrderDiscount> {
  const discount = await findDiscountByCode(tx, input.code, { lock: true });
  if (!discount) throw discountRefused(DISCOUNT_MESSAGES.unknown);
  const uses = await countDiscountUses(tx, discount.id, input.userId);
  const verdict = computeDiscount(discount, { lines: input.lines, shippingPrice: input.shippingPrice, now: input.now, uses });
  if (!verdict.ok) throw discountRefused(verdict.message);
  return { discountId: discount.id, code: discount.code, amount: verdict.amount };
}

/** The use an order placed with a code takes (in the order's transaction, under the discount's lock). */
export async function recordDiscountUse(tx: Tx, use: { orderId: string; discountId: string; userId: string; at: Date }): Promise<void> {
  await tx.insert(discountUses).values({ orderId: use.orderId, discountId: use.discountId, userId: use.userId, createdAt: use.at });
}

/** Gives back the uses these orders held (an unpaid order expired, cancelled or deleted), in the transaction releasing their stock. */
export async function releaseDiscountUses(tx: Tx, orderIds: string[]): Promise<void> {
  if (orderIds.length) await tx.delete(discountUses).where(inArray(discountUses.orderId, orderIds));
}
