import { discountBodySchema } from '@shop/contracts';
import { sql } from 'drizzle-orm';
import { createDiscount } from '../../modules/discounts/save-discount.ts';
import type { Db } from '../client.ts';
import { discounts } from '../schema.ts';

/**
 * Demo discount codes, so Discounts in the back office and the cart's code box have something to show
 * on a first start: 10 % off an order of $50 or more, once per customer, and free shipping. Created
 * through the same use case as the back office's (its rules and validation). Runs only while no
 * discount exists.
 */
export const DEMO_DISCOUNTS = [
  { code: 'WELCOME10', kind: 'percent', value: 10, minSubtotal: 50, perCustomerLimit: 1 },
  { code: 'FREESHIP', kind: 'free_shipping' },
] as const;

export async function seedDiscounts(db: Db): Promise<{ discounts: number }> {
  const [row] = await db.select({ n: sql<number>`count(*)::int` }).from(discounts);
  if ((row?.n ?? 0) > 0) return { discounts: 0 };
  for (const demo of DEMO_DISCOUNTS) await createDiscount(db, discountBodySchema.parse(demo));
  return { discounts: DEMO_DISCOUNTS.length };
}
