import type { CartItem } from '../../../lib/store';

/** Sum of quantities and of price x quantity, shown as a preview; the server prices the order. */
export function summarizeCart(items: CartItem[]) {
  return {
    count: items.reduce((n, x) => n + x.quantity, 0),
    subtotal: items.reduce((sum, x) => sum + x.price * x.quantity, 0),
  };
}
