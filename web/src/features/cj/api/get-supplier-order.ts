import type { SupplierOrder } from '@shop/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api, ApiError } from '../../../lib/api-client';
import { cjKeys } from './keys';

/** GET cj/orders/{orderId}: the supplier order of one of our orders (404 when it has none). */
export const getSupplierOrder = (orderId: string) => api.get<SupplierOrder>(`cj/orders/${encodeURIComponent(orderId)}`);

export const supplierOrderQueryOptions = (orderId: string) =>
  queryOptions({
    queryKey: cjKeys.order(orderId),
    queryFn: () => getSupplierOrder(orderId),
    retry: (count, error) => !(error instanceof ApiError && error.status < 500) && count < 1,
    // While it is on its way, look again now and then.
    refetchInterval: (query) => (query.state.data && ['pending', 'sending'].includes(query.state.data.status) ? 5000 : false),
  });

export function useSupplierOrder(orderId: string, enabled = true) {
  return useQuery({ ...supplierOrderQueryOptions(orderId), enabled });
}
