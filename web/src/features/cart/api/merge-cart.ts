import { api } from '../../../lib/api-client';
import type { ServerCart } from '../types';

export interface MergeCartItem {
  productId: string;
  quantity: number;
  variantId?: string | null;
}

/** POST cart/merge: adds the guest cart to the server cart (quantities added, capped at stock with notices). */
export function mergeCart(items: MergeCartItem[]): Promise<ServerCart> {
  return api.post<ServerCart>('cart/merge', { items });
}
