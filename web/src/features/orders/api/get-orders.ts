import type { ListOrdersQuery, OrderListResponse } from '@shop/contracts';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';

export type OrderListParams = Pick<ListOrdersQuery, 'page' | 'status'> & { search?: string; pageSize?: number };

/** GET orders?page=&pageSize=&status=&search= (admin): one page of orders, newest first. */
export function getOrders(params: OrderListParams): Promise<OrderListResponse> {
  return api.get<OrderListResponse>('orders', { page: params.page, pageSize: params.pageSize, status: params.status === 'all' ? undefined : params.status, search: params.search || undefined });
}

export const allOrdersQueryOptions = (params: OrderListParams) =>
  queryOptions({ queryKey: ['orders', 'all', params], queryFn: () => getOrders(params), placeholderData: keepPreviousData });

export function useAllOrders(params: OrderListParams) {
  return useQuery(allOrdersQueryOptions(params));
}
