/** What other features may use of the cart: they import this file, never the cart's inner files (re-exports only). */
export { cartQueryKey, useCart } from './api/get-cart';
export { useAddToCart } from './hooks/use-add-to-cart';
export { applyServerCart } from './lib/server-cart';
export type { ServerCart } from './types';
export { DiscountCodeBox } from './components/DiscountCodeBox';
