import { DISCOUNT_MESSAGES } from '@shop/contracts';
import { toCents } from '../../lib/money.ts';
import type { DiscountRow } from './discounts.presenter.ts';

/** One line of a cart or order as the discount sees it (unit price: what the shopper pays now). */
export interface DiscountLine {
  productId: string;
  category: string;
  unitPrice: number;
  quantity: number;
  /** Supplier lines: what the supplier charges us per unit (null: the shop's own product). */
  supplierCost: number | null;
}

/** The uses a code holds: all of them, and the shopper's. */
export interface DiscountUses { total: number; mine: number }

export type DiscountVerdict =
  | { ok: true; amount: number; message: string }
  | { ok: false; message: string };

/**
 * Whether the code applies, and what it takes off, in the order the shopper reads the reasons:
 * switched off (reads as not valid), not started, expired, used up, used by this shopper, minimum
 * not reached, no line it applies to. The amount, in cents:
 * - percent: per line it applies to, the percentage of the line (rounded to the cent);
 * - fixed: the amount, at most the lines it applies to;
 * - free shipping: the order's shipping (0 in the cart, whose shipping is not known yet);
 * never taking a supplier line below its supplier cost (unless the code allows it), and never the
 * whole order (at least one cent of the items is paid).
 */
export function computeDiscount(
  d: DiscountRow, input: { lines: DiscountLine[]; shippingPrice: number; now: Date; uses: DiscountUses },
): DiscountVerdict {
  const { now, uses } = input;
  if (!d.enabled) return { ok: false, message: DISCOUNT_MESSAGES.unknown };
  if (d.startsAt && d.startsAt.getTime() > now.getTime()) return { ok: false, message: DISCOUNT_MESSAGES.notStarted };
  if (d.endsAt && d.endsAt.getTime() <= now.getTime()) return { ok: false, message: DISCOUNT_MESSAGES.expired };
  if (d.usageLimit !== null && uses.total >= d.usageLimit) return { ok: false, message: DISCOUNT_MESSAGES.usedUp };
  if (d.perCustomerLimit !== null && uses.mine >= d.perCustomerLimit) return { ok: false, message: DISCOUNT_MESSAGES.usedByYou };
  const lineCents = (l: DiscountLine) => toCents(l.unitPrice) * l.quantity;
  const itemsCents = input.lines.reduce((sum, l) => sum + lineCents(l), 0);
  if (d.minSubtotal !== null && itemsCents < toCents(d.minSubtotal)) return { ok: false, message: DISCOUNT_MESSAGES.minimum(Number(d.minSubtotal)) };
  const products = new Set((d.productIds ?? []).map((id) => id.trim()));
  const categories = new Set((d.categories ?? []).map((c) => c.toLowerCase()));
  const isRestricted = products.size > 0 || categories.size > 0;
  const eligible = input.lines.filter((l) => !isRestricted || products.has(l.productId.trim()) || categories.has(l.category.toLowerCase()));
  if (!eligible.length) return { ok: false, message: DISCOUNT_MESSAGES.notApplicable };
  const message = DISCOUNT_MESSAGES.applied(d.kind, Number(d.value));
  if (d.kind === 'free_shipping') return { ok: true, amount: Math.max(0, toCents(input.shippingPrice)) / 100, message };
  // What each line can give up: all of it, or (supplier lines) down to the supplier's cost.
  const room = (l: DiscountLine) => Math.max(0, lineCents(l) - (l.supplierCost !== null && !d.allowBelowSupplierCost ? toCents(l.supplierCost) * l.quantity : 0));
  let cents = d.kind === 'percent'
    ? eligible.reduce((sum, l) => sum + Math.min(Math.round((lineCents(l) * Number(d.value)) / 100), room(l)), 0)
    : Math.min(toCents(d.value), eligible.reduce((sum, l) => sum + room(l), 0));
  cents = Math.max(0, Math.min(cents, itemsCents - 1));
  return { ok: true, amount: cents / 100, message };
}
