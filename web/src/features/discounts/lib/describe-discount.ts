import type { Discount, DiscountBodyInput } from '@shop/contracts';
import { formatMoney, formatShortDate } from '../../../lib/format';

/** "10% off", "$5.00 off", "Free shipping". */
export function describeKind(d: Pick<Discount, 'kind' | 'value'>): string {
  if (d.kind === 'percent') return `${d.value}% off`;
  if (d.kind === 'fixed') return `${formatMoney(d.value)} off`;
  return 'Free shipping';
}

/** What the code asks of an order: minimum, products, categories ("Any order" when nothing). */
export function describeConditions(d: Discount): string {
  const parts: string[] = [];
  if (d.minSubtotal !== null) parts.push(`Min ${formatMoney(d.minSubtotal)}`);
  if (d.productIds.length) parts.push(`${d.productIds.length} product${d.productIds.length === 1 ? '' : 's'}`);
  if (d.categories.length) parts.push(d.categories.join(', '));
  if (d.perCustomerLimit !== null) parts.push(`${d.perCustomerLimit} per customer`);
  return parts.join(' · ') || 'Any order';
}

/** "2026-12-01 – 2026-12-31", "from 2026-12-01", "until ...", "Always". */
export function describeDates(d: Discount): string {
  if (d.startsAt && d.endsAt) return `${formatShortDate(d.startsAt)} – ${formatShortDate(d.endsAt)}`;
  if (d.startsAt) return `from ${formatShortDate(d.startsAt)}`;
  if (d.endsAt) return `until ${formatShortDate(d.endsAt)}`;
  return 'Always';
}

/** The discount as a request body (to send it back with one field changed). */
export const bodyOf = (d: Discount): DiscountBodyInput => ({
  code: d.code, kind: d.kind, value: d.value, minSubtotal: d.minSubtotal, startsAt: d.startsAt, endsAt: d.endsAt,
  usageLimit: d.usageLimit, perCustomerLimit: d.perCustomerLimit, productIds: d.productIds, categories: d.categories,
  enabled: d.enabled, allowBelowSupplierCost: d.allowBelowSupplierCost,
});
