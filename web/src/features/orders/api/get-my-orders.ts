import type { Order } from '@shop/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';

/** GET orders/mine: the signed-in user's orders, newest first. */
export function getMyOrders(): Promise<Order[]> {
  return api.get<Order[]>('orders/mine');
}

export const myOrdersQueryOptions = () => queryOptions({ queryKey: ['orders', 'mine'], queryFn: getMyOrders });

export function useMyOrders() {
  return useQuery(myOrdersQueryOptions());
}
