import { api } from '../../../lib/api-client';
import type { ServerCart } from '../types';

/** POST cart/items: adds a product that is not yet in the server cart. */
export function addCartItem(productId: string, quantity: number, variantId: string | null = null): Promise<ServerCart> {
  return api.post<ServerCart>('cart/items', variantId ? { productId, quantity, variantId } : { productId, quantity });
}
