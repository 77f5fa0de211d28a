import type { ListOrdersQuery, OrderListResponse } from '@shop/contracts';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';

export type OrderListParams = Pick<ListOrdersQuery, 'page' | 'filter'> & { search?: string; pageSize?: number };

/** GET orders?page=&pageSize=&filter=&search= (admin): one page of orders, newest first. */
export function getOrders(params: OrderListParams): Promise<OrderListResponse> {
  return api.get<OrderListResponse>('orders', { page: params.page, pageSize: params.pageSize, filter: params.filter === 'all' ? undefined : params.filter, search: params.search || undefined });
}

export const allOrdersQueryOptions = (params: OrderListParams) =>
  queryOptions({ queryKey: ['orders', 'all', params], queryFn: () => getOrders(params), placeholderData: keepPreviousData });

export function useAllOrders(params: OrderListParams) {
  return useQuery(allOrdersQueryOptions(params));
}
