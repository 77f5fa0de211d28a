import { IDEMPOTENCY_KEY_HEADER, type CreateRefundBody, type RefundResponse } from '@shop/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { orderQueryKey, ordersQueryKey } from './get-order';

export interface RefundOrderVars {
  id: string;
  body: CreateRefundBody;
  /** One key per request asked (reused when the same request is sent again). */
  idempotencyKey: string;
}

/** POST orders/{id}/refunds (admin): a full or partial refund; answers the refund and the updated order. */
export function refundOrder({ id, body, idempotencyKey }: RefundOrderVars): Promise<RefundResponse> {
  return api.post<RefundResponse>(`orders/${encodeURIComponent(id)}/refunds`, body, { [IDEMPOTENCY_KEY_HEADER]: idempotencyKey });
}

export function useRefundOrder() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: refundOrder,
    onSuccess: (res) => {
      queryClient.setQueryData(orderQueryKey(res.order._id), res.order);
      void queryClient.invalidateQueries({ queryKey: ordersQueryKey, predicate: (q) => q.queryKey[1] !== 'detail' });
    },
  });
}
