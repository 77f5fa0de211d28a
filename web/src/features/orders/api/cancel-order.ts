import { IDEMPOTENCY_KEY_HEADER, type CancelOrderBody, type OrderResponse } from '@shop/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { orderQueryKey, ordersQueryKey } from './get-order';

export interface CancelOrderVars {
  id: string;
  body: CancelOrderBody;
  idempotencyKey: string;
}

/**
 * POST orders/{id}/cancel: an administrator cancels any order not delivered (a paid one with a full
 * refund), a customer their own unpaid order. Answers the updated order.
 */
export function cancelOrder({ id, body, idempotencyKey }: CancelOrderVars): Promise<OrderResponse> {
  return api.post<OrderResponse>(`orders/${encodeURIComponent(id)}/cancel`, body, { [IDEMPOTENCY_KEY_HEADER]: idempotencyKey });
}

export function useCancelOrder() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: cancelOrder,
    onSuccess: (res) => {
      queryClient.setQueryData(orderQueryKey(res.order._id), res.order);
      // Lists (admin list, order history) and the dashboard's recent orders show the new status.
      void queryClient.invalidateQueries({ queryKey: ordersQueryKey, predicate: (q) => q.queryKey[1] !== 'detail' });
    },
  });
}
