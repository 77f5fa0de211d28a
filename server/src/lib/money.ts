/** Rounds to cents, avoiding binary floating-point drift (1.005 -> 1.01). */
export function roundMoney(value: number): number {
  return Math.round((value + Number.EPSILON) * 100) / 100;
}

// The unit price rule is shared with the admin product form, so it lives in the contracts.
const usd = new Intl.NumberFormat('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 });

/** Money as the shop prints it (web's formatMoney too): 3750.18 -> '$3,750.18', -5 -> '-$5.00'. */
export function formatMoney(value: number): string {
  const rounded = roundMoney(value);
  return `${rounded < 0 ? '-' : ''}$${usd.format(Math.abs(rounded))}`;
}

export { finalPrice, MIN_UNIT_PRICE, type Priced } from '@shop/contracts';

/** An amount in whole cents (money is compared and summed in cents: 0.1 + 0.2 is 30 cents). */
export function toCents(value: number | string): number {
  return Math.round(Number(value) * 100);
}

/** Cents back to dollars. */
export const fromCents = (cents: number): number => cents / 100;
