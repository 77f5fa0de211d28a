import type { Discount, DiscountListResponse } from '@shop/contracts';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';

export const discountsKey = ['discounts'] as const;
export const DISCOUNTS_LIST_PAGE_SIZE = 20;

/** GET discounts?page=&pageSize=&search= (admin). */
export const getDiscounts = (page: number, search: string) =>
  api.get<DiscountListResponse>('discounts', { page, pageSize: DISCOUNTS_LIST_PAGE_SIZE, search: search || undefined });

export const discountsQueryOptions = (page: number, search: string) =>
  queryOptions({ queryKey: [...discountsKey, 'list', page, search], queryFn: () => getDiscounts(page, search), placeholderData: keepPreviousData });

export function useDiscounts(page: number, search: string) {
  return useQuery(discountsQueryOptions(page, search));
}

/** GET discounts/{id} (admin). */
export const getDiscount = (id: string) => api.get<Discount>(`discounts/${id}`);

export function useDiscount(id: string | undefined) {
  return useQuery({ queryKey: [...discountsKey, 'one', id ?? ''], queryFn: () => getDiscount(id ?? ''), enabled: Boolean(id) });
}
