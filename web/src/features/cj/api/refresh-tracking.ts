import type { SupplierOrder } from '@shop/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { cjKeys } from './keys';

/** POST cj/orders/{orderId}/tracking/refresh (admin): asks CJ now for the order's status and tracking number. */
export const refreshTracking = (orderId: string) => api.post<SupplierOrder>(`cj/orders/${encodeURIComponent(orderId)}/tracking/refresh`);

export function useRefreshTracking() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: refreshTracking,
    onSuccess: (order) => {
      queryClient.setQueryData(cjKeys.order(order.orderId), order);
      void queryClient.invalidateQueries({ queryKey: ['cj', 'orders'] });
      void queryClient.invalidateQueries({ queryKey: ['orders'] });
    },
  });
}
