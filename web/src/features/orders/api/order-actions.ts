import type { OrderActionResponse, PayOrderBody } from '@shop/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { orderQueryKey, ordersQueryKey } from './get-order';

/** PUT orders/{id}/pay: { paypalOrderId } after PayPal approval, or { demo: true }. */
export function payOrder({ id, body }: { id: string; body: PayOrderBody }): Promise<OrderActionResponse> {
  return api.put<OrderActionResponse>(`orders/${encodeURIComponent(id)}/pay`, body);
}

/** PUT orders/{id}/deliver (admin; paid orders only). */
export function deliverOrder(id: string): Promise<OrderActionResponse> {
  return api.put<OrderActionResponse>(`orders/${encodeURIComponent(id)}/deliver`);
}

/** PUT orders/{id}/undeliver (admin). */
export function undeliverOrder(id: string): Promise<OrderActionResponse> {
  return api.put<OrderActionResponse>(`orders/${encodeURIComponent(id)}/undeliver`);
}

/** Every order action answers the updated order: it replaces the cached one and order lists refresh. */
function useOrderAction<V>(mutationFn: (vars: V) => Promise<OrderActionResponse>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn,
    onSuccess: (res) => {
      queryClient.setQueryData(orderQueryKey(res.order._id), res.order);
      void queryClient.invalidateQueries({ queryKey: ordersQueryKey, predicate: (q) => q.queryKey[1] !== 'detail' });
    },
  });
}

export const usePayOrder = () => useOrderAction(payOrder);
export const useDeliverOrder = () => useOrderAction(deliverOrder);
export const useUndeliverOrder = () => useOrderAction(undeliverOrder);
