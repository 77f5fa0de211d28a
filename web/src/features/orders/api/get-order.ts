import type { Order } from '@shop/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { ApiError, api } from '../../../lib/api-client';

export const ordersQueryKey = ['orders'] as const;
export const orderQueryKey = (id: string) => ['orders', 'detail', id] as const;

/** GET orders/{id}: the owner's or, for admins, any order; 404 'Order Not Found' otherwise. */
export function getOrder(id: string): Promise<Order> {
  return api.get<Order>(`orders/${encodeURIComponent(id)}`);
}

export const orderQueryOptions = (id: string) =>
  queryOptions({
    queryKey: orderQueryKey(id),
    queryFn: () => getOrder(id),
    // A missing order stays missing: no retry on 404.
    retry: (count, error) => count < 1 && !(error instanceof ApiError && error.status === 404),
  });

export function useOrder(id: string) {
  return useQuery(orderQueryOptions(id));
}
