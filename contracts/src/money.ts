/**
 * Money rules shared by the server (prices, orders) and the admin product form. Plain functions, no
 * zod, so any chunk may import them.
 */

/** The smallest price a shopper can pay for one unit: a product is never free. */
export const MIN_UNIT_PRICE = 0.01;

export interface Priced {
  price: number;
  isOnSale: boolean;
  saleDiscount: number;
}

/**
 * The price a shopper pays for one unit: `price` reduced by `saleDiscount` percent when on sale,
 * rounded half away from zero to 2 decimals. The one place this rule lives; the products.final_price
 * column computes the same in SQL and a property test keeps the two equal.
 *
 * Works in integer cents so that the result is exact: `12345.67 * 0.85` is 10493.8195 in decimal
 * but 10493.819499... in binary floating point, which would round down.
 */
export function finalPrice(p: Priced): number {
  const discount = p.isOnSale ? Math.min(Math.max(Math.round(p.saleDiscount), 0), 100) : 0;
  const cents = Math.round(p.price * 100);
  // cents * (100 - discount) is an exact integer (< 2^53 for any numeric(12,2) price);
  // dividing by 100 with half-up on the integer keeps it exact.
  const scaled = cents * (100 - discount);
  const sign = scaled < 0 ? -1 : 1;
  return (sign * Math.floor((Math.abs(scaled) + 50) / 100)) / 100;
}
