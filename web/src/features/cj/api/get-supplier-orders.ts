import type { SupplierOrderListParams, SupplierOrderListResponse } from '@shop/contracts';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { cjKeys } from './keys';

/** GET cj/orders?page&status: supplier orders, newest first. */
export const getSupplierOrders = (params: SupplierOrderListParams) => api.get<SupplierOrderListResponse>('cj/orders', params);

export const supplierOrdersQueryOptions = (params: SupplierOrderListParams) =>
  queryOptions({ queryKey: cjKeys.orders(params), queryFn: () => getSupplierOrders(params), placeholderData: keepPreviousData });

export function useSupplierOrders(params: SupplierOrderListParams, enabled = true) {
  return useQuery({ ...supplierOrdersQueryOptions(params), enabled });
}
