import { useMutation } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import type { ServerCart } from '../../cart';

/** POST orders/{id}/reorder: the order's lines go back into the signed-in user's cart; answers the cart. */
export const reorder = (orderId: string) => api.post<ServerCart>(`orders/${encodeURIComponent(orderId)}/reorder`);

export function useReorder() {
  return useMutation({ mutationFn: reorder });
}
