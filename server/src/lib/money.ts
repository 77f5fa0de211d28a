/** Rounds to cents, avoiding binary floating-point drift (1.005 -> 1.01). */
export function roundMoney(value: number): number {
  return Math.round((value + Number.EPSILON) * 100) / 100;
}

export interface Priced {
  price: number;
  isOnSale: boolean;
  saleDiscount: number;
}

/**
 * The price a shopper pays for one unit: `price` reduced by `saleDiscount` percent when on sale,
 * rounded to 2 decimals. The one place this rule lives (the products.final_price column mirrors it).
 */
export function finalPrice(p: Priced): number {
  const discount = p.isOnSale ? Math.min(Math.max(p.saleDiscount, 0), 100) : 0;
  return roundMoney((p.price * (100 - discount)) / 100);
}
