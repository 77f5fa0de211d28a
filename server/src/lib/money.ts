/** Rounds to cents, avoiding binary floating-point drift (1.005 -> 1.01). */
export function roundMoney(value: number): number {
  return Math.round((value + Number.EPSILON) * 100) / 100;
}

// The unit price rule is shared with the admin product form, so it lives in the contracts.
export { finalPrice, MIN_UNIT_PRICE, type Priced } from '@shop/contracts';
