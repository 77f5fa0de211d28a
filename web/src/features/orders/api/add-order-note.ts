import type { OrderNoteResponse } from '@shop/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { orderQueryKey } from './get-order';

/** POST orders/{id}/notes (admin): an internal note on the order's timeline; answers it and the order. */
export function addOrderNote({ id, text }: { id: string; text: string }): Promise<OrderNoteResponse> {
  return api.post<OrderNoteResponse>(`orders/${encodeURIComponent(id)}/notes`, { text });
}

export function useAddOrderNote() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: addOrderNote,
    onSuccess: (res) => queryClient.setQueryData(orderQueryKey(res.order._id), res.order),
  });
}
