import type { Order } from '@shop/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';

/** GET orders (admin): every order, newest first. */
export function getOrders(): Promise<Order[]> {
  return api.get<Order[]>('orders');
}

export const allOrdersQueryOptions = () => queryOptions({ queryKey: ['orders', 'all'], queryFn: getOrders });

export function useAllOrders() {
  return useQuery(allOrdersQueryOptions());
}
