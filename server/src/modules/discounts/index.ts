// The discounts module's public face: what the cart and orders modules may call.
export { computeDiscount, type DiscountLine } from './compute-discount.ts';
export { applyCartDiscount, findCartDiscount, removeCartDiscount } from './cart-discount.ts';
export { checkDiscountForOrder, recordDiscountUse, releaseDiscountUses, type OrderDiscount } from './order-discount.ts';
