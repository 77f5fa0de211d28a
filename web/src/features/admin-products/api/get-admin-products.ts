import type { AdminProductListResponse, AdminProductSort, AdminStockFilter } from '@shop/contracts';
import { ADMIN_PAGE_SIZE } from '@shop/contracts/constants';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';

/** The list's filters as the address holds them ('' / 'all' / 'newest' are the defaults). */
export interface AdminProductFilters {
  search: string;
  category: string;
  stock: AdminStockFilter;
  sort: AdminProductSort;
}

/** GET products/admin: every product, drafts included, filtered, sorted and paged by the server. */
export const getAdminProducts = (page: number, f: AdminProductFilters) =>
  api.get<AdminProductListResponse>('products/admin', {
    page,
    pageSize: ADMIN_PAGE_SIZE,
    search: f.search,
    category: f.category === 'all' ? '' : f.category,
    stock: f.stock === 'all' ? '' : f.stock,
    sort: f.sort === 'newest' ? '' : f.sort,
  });

export const adminProductsKey = ['products', 'admin'] as const;

export const adminProductsQueryOptions = (page: number, f: AdminProductFilters) =>
  queryOptions({ queryKey: [...adminProductsKey, page, f], queryFn: () => getAdminProducts(page, f), placeholderData: keepPreviousData });

export function useAdminProducts(page: number, f: AdminProductFilters) {
  return useQuery(adminProductsQueryOptions(page, f));
}
