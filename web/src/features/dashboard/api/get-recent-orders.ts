import { DASHBOARD_RECENT_ORDERS, type OrderListResponse } from '@shop/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';

/** GET orders?page=1&pageSize=5 (admin): the newest orders for the dashboard. */
export const getRecentOrders = () => api.get<OrderListResponse>('orders', { page: 1, pageSize: DASHBOARD_RECENT_ORDERS });

export const recentOrdersQueryOptions = () => queryOptions({ queryKey: ['orders', 'all', 'recent'], queryFn: getRecentOrders });

export function useRecentOrders() {
  return useQuery(recentOrdersQueryOptions());
}
