import type { SupplierStatus } from '@shop/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { cjKeys } from './keys';

/** GET cj/status: which supplier catalogue is in use (CJ or the offline one). */
export const getSupplierStatus = () => api.get<SupplierStatus>('cj/status');

export const supplierStatusQueryOptions = () => queryOptions({ queryKey: cjKeys.status(), queryFn: getSupplierStatus, staleTime: 5 * 60_000 });

export function useSupplierStatus() {
  return useQuery(supplierStatusQueryOptions());
}
