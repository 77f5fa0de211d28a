import type { MessageResponse } from '@shop/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { ordersQueryKey } from './get-order';

/** DELETE orders/{id} (admin). */
export function deleteOrder(id: string): Promise<MessageResponse> {
  return api.delete<MessageResponse>(`orders/${encodeURIComponent(id)}`);
}

export function useDeleteOrder() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteOrder,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ordersQueryKey }),
  });
}
