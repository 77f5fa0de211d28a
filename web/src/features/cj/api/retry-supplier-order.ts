import type { SupplierOrderActionResponse } from '@shop/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { cjKeys } from './keys';

/** POST cj/orders/{orderId}/retry: sends a failed supplier order again. */
export const retrySupplierOrder = (orderId: string) => api.post<SupplierOrderActionResponse>(`cj/orders/${encodeURIComponent(orderId)}/retry`);

export function useRetrySupplierOrder() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: retrySupplierOrder,
    onSuccess: (res) => {
      queryClient.setQueryData(cjKeys.order(res.supplierOrder.orderId), res.supplierOrder);
      void queryClient.invalidateQueries({ queryKey: ['cj', 'orders'] });
    },
  });
}
