import type { AdminProductListResponse } from '@shop/contracts';
import { ADMIN_PAGE_SIZE } from '@shop/contracts/constants';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';

/** GET products/admin?page=&pageSize=: every product, drafts included. */
export const getAdminProducts = (page: number) => api.get<AdminProductListResponse>('products/admin', { page, pageSize: ADMIN_PAGE_SIZE });

export const adminProductsKey = ['products', 'admin'] as const;

export const adminProductsQueryOptions = (page: number) =>
  queryOptions({ queryKey: [...adminProductsKey, page], queryFn: () => getAdminProducts(page), placeholderData: keepPreviousData });

export function useAdminProducts(page: number) {
  return useQuery(adminProductsQueryOptions(page));
}
