import { api } from '../../../lib/api-client';
import type { ServerCart } from '../types';

/** DELETE cart/items/{productId}. */
export function removeCartItem(productId: string): Promise<ServerCart> {
  return api.delete<ServerCart>(`cart/items/${encodeURIComponent(productId)}`);
}
