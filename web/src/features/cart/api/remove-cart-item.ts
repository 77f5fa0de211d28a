import { api } from '../../../lib/api-client';
import type { ServerCart } from '../types';

/** DELETE cart/items/{productId}. */
export function removeCartItem(productId: string, variantId: string | null = null): Promise<ServerCart> {
  const query = variantId ? `?variantId=${encodeURIComponent(variantId)}` : '';
  return api.delete<ServerCart>(`cart/items/${encodeURIComponent(productId)}${query}`);
}
