import type { Discount } from '@shop/contracts';
import type { discounts } from '../../db/schema.ts';

export type DiscountRow = typeof discounts.$inferSelect;

/** A discount as the back office reads it, with the uses its orders hold. */
export function presentDiscount(d: DiscountRow, timesUsed: number): Discount {
  return {
    _id: d.id.trim(),
    code: d.code,
    kind: d.kind,
    value: Number(d.value),
    minSubtotal: d.minSubtotal === null ? null : Number(d.minSubtotal),
    startsAt: d.startsAt ? d.startsAt.toISOString() : null,
    endsAt: d.endsAt ? d.endsAt.toISOString() : null,
    usageLimit: d.usageLimit,
    perCustomerLimit: d.perCustomerLimit,
    productIds: d.productIds ?? [],
    categories: d.categories ?? [],
    enabled: d.enabled,
    allowBelowSupplierCost: d.allowBelowSupplierCost,
    timesUsed,
    createdAt: d.createdAt.toISOString(),
    updatedAt: d.updatedAt.toISOString(),
  };
}
