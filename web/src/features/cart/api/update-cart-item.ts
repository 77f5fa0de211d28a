import { api } from '../../../lib/api-client';
import type { ServerCart } from '../types';

/** PUT cart/items/{productId}: sets the quantity of a product already in the server cart. */
export function updateCartItem(productId: string, quantity: number, variantId: string | null = null): Promise<ServerCart> {
  return api.put<ServerCart>(`cart/items/${encodeURIComponent(productId)}`, variantId ? { quantity, variantId } : { quantity });
}
